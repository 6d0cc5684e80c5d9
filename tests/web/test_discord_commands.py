"""The slash commands: generated from each system's verbs inside Discord's limits (checked by
the same rules the local stand-in of Discord's API holds registrations to), registered with a
bulk overwrite carrying the bot's token; and the GM's links, recorded as rulings."""

from __future__ import annotations

import pytest

from domain.events import Role
from domain.links import LinkChannel, LinkMember
from domain.registry import verbs
from domain.rulesets import SYSTEMS
from engine import Engine
from tests.web.discord_standin import problems_of_commands
from web.discord.slash import commands
from web.discord.tools import TOOLS

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
