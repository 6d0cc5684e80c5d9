"""The slash commands: generated from each system's verbs inside Discord's limits (checked by
the same rules the local stand-in of Discord's API holds registrations to), registered with a
bulk overwrite carrying the bot's token; and the GM's links, recorded as rulings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.events import Role
from domain.links import LinkChannel, LinkMember
from domain.policy import players_may
from domain.registry import verbs
from domain.rulesets import SYSTEMS
from engine import Engine
from tests.web.discord_standin import problems_of_commands
from web.discord.slash import commands, shortened
from web.discord.tools import TOOLS
from web.discord.voices import INVITE_PERMISSIONS

CHANNEL, ACCOUNT = "1100000000000000001", "2200000000000000002"


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_verb_is_a_slash_command_inside_discords_limits(system: str) -> None:
    found = commands(system)
    assert [] == problems_of_commands(found)
    spelled = set()
    for command in found:
        subs = [o for o in command["options"] if o["type"] == 1]
        spelled |= {f"{command['name']} {s['name']}" for s in subs} or {command["name"]}
    assert set(verbs(system)) | set(TOOLS) | {"join"} == spelled


def test_a_parameters_type_is_its_options_type() -> None:
    (dice,) = [c for c in commands("code-green") if c["name"] == "dice"]
    """`/dice`: the reason is optional, as on the command line (issue 30)."""
    expected = [("expression", 3, True), ("why", 3, False), ("faces", 3, None), ("hidden", 5, None)]
    assert expected == [(o["name"], o["type"], o.get("required")) for o in dice["options"]]
    (place,) = [c for c in commands("code-green") if c["name"] == "place"]
    (squares,) = [o for o in place["options"] if o["name"] == "squares"]
    assert (3, "squares (comma-separated)") == (squares["type"], squares["description"])


def test_an_account_belongs_to_one_member_and_leaves_with_them() -> None:
    with Engine() as engine:
        engine.create_campaign(
            "Lab", "sims", gm="Rosa", members={"ana": Role.PLAYER, "bo": Role.PLAYER}
        )
        engine.execute("Lab", LinkChannel(channel=CHANNEL))
        engine.execute("Lab", LinkMember(member="ana", discord=ACCOUNT))
        engine.execute("Lab", LinkMember(member="bo", discord=ACCOUNT))  # the account moves
        campaign = engine.campaign("Lab")
        assert ("bo", None) == (
            campaign.member_on("discord", ACCOUNT),
            campaign.account_of("discord", "ana"),
        )
        engine.execute(
            "Lab", LinkMember(member="bo", discord="2200000000000000003")
        )  # bo's new one
        assert engine.campaign("Lab").member_on("discord", ACCOUNT) is None
        from domain.table import RemoveMember

        engine.execute("Lab", RemoveMember(member="bo"))
        assert () == engine.campaign("Lab").accounts


def every_description(found: list[dict[str, Any]]) -> Iterator[str]:
    """Each description and choice name of the registered commands, at every depth."""
    for item in found:
        yield item["description"]
        yield from (c["name"] for c in item.get("choices", []))
        yield from every_description(item.get("options", []))


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_description_too_long_for_discord_is_cut_at_a_word(system: str) -> None:
    found = commands(system)
    assert all(len(d) <= 100 for d in every_description(found))
    by_first_word: dict[str, list[str]] = {}
    for name, verb in verbs(system).items():
        by_first_word.setdefault(name.split()[0], []).append(" ".join(verb.help.split()))
    for command in found:
        subs = [o for o in command["options"] if o["type"] == 1]
        helps = by_first_word.get(command["name"], [])
        described = [(command["description"], helps)] + [(s["description"], helps) for s in subs]
        for description, texts in described:
            if not description.endswith("…"):
                continue
            stem = description[:-1]
            (full,) = [t for t in texts if t.startswith(stem)]
            assert full[len(stem)] in " ,;:-(", (system, description)


@given(st.text(alphabet=st.sampled_from("ab cd,.é-"), max_size=300), st.integers(10, 120))
def test_shortened_fits_and_ends_at_a_word(text: str, limit: int) -> None:
    cut = shortened(text, limit)
    whole = " ".join(text.split())
    assert len(cut) <= limit
    if cut != whole:
        stem = cut.removesuffix("…")
        assert cut.endswith("…")
        assert whole.startswith(stem)
        first_word = whole.split(" ")[0]
        assert len(first_word) >= limit or whole[len(stem)] in " ,;:-(", (whole, cut)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_author_of_a_ruling_is_no_option_in_discord(system: str) -> None:
    """Who posts, disputes or adds entropy is the member the account is linked to; a member
    the GM names for someone else (a new character's player) stays an option."""
    found = {c["name"]: c for c in commands(system)}
    for name in ("post", "dispute", "entropy"):
        assert "by" not in {o["name"] for o in found[name]["options"]}, name
    (create,) = [o for o in found["character"]["options"] if o["name"] == "create"]
    assert "player" in {o["name"] for o in create["options"]}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_gms_commands_are_hidden_from_players_until_an_admin_grants_them(
    system: str,
) -> None:
    """``default_member_permissions`` "0": only the server's administrators see a command no
    player may issue; a command holding one verb a player may issue is everyone's."""
    players = players_may(system)
    for command in commands(system):
        subs = [o["name"] for o in command["options"] if o["type"] == 1]
        spelled = [f"{command['name']} {s}" for s in subs] or [command["name"]]
        theirs = any(v in players for v in spelled) or command["name"] in (
            "recap",
            "sheet",
            "log",
            "verify-dice",
            "join",
        )
        expected = None if theirs else "0"
        assert expected == command.get("default_member_permissions"), command["name"]
    hidden = {c["name"] for c in commands(system) if c.get("default_member_permissions")}
    assert {"undo", "amend", "session", "discord"} <= hidden
    assert not {"post", "dispute", "dice", "entropy", "note", "member"} & hidden
    if system == "sprawl-goons":  # verbs whose rulings log another name (``use``) are theirs too
        assert not {"first-aid", "use-item", "level-up"} & hidden


def test_the_invite_address_of_the_docs_asks_what_the_app_uses() -> None:
    """docs/discord.md's invite: both scopes, and the permissions posts as a character need."""
    page = (Path(__file__).parents[2] / "docs" / "discord.md").read_text(encoding="utf-8")
    (address,) = re.findall(r"https://discord\.com/oauth2/authorize\S+", page)
    asked = parse_qs(urlsplit(address).query)
    assert ["applications.commands bot"] == asked["scope"]
    assert [str(INVITE_PERMISSIONS)] == asked["permissions"]
    assert INVITE_PERMISSIONS == (1 << 10) | (1 << 29)  # View Channels, Manage Webhooks
