"""The Discord Interactions Endpoint, spoken to as Discord speaks: every request signed with an
Ed25519 key pair the test makes (the application's), payloads shaped as Discord's documentation
shows them. A bad or missing signature and an old timestamp get 401; a PING its PONG; a slash
command in a linked channel from a linked account is the member's ruling; everything refused
is an ephemeral line with its code, and nothing is appended."""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from litestar.testing import TestClient

from domain.audience import GMS
from domain.events import Role
from domain.links import LinkChannel, LinkMember
from domain.rulesets.sprawl_goons.creation import CreateCharacter
from domain.table import AddMember
from engine import DiceSpec, Engine
from tests.conftest import event_count
from tests.web.discord_standin import discord_api
from web import create_app
from web.discord import interactions
from web.discord.answers import EPHEMERAL

NOW = 1_796_000_000  # the moment every request is checked at
CHANNEL, OTHER_CHANNEL = "1100000000000000001", "1100000000000000002"
GM_ACCOUNT, ANA_ACCOUNT, STRANGER = (
    "2200000000000000001",
    "2200000000000000002",
    "2200000000000000009",
)
PATH = "/discord/interactions"
IDS = itertools.count(3300000000000000001)  # each interaction its own id, as Discord gives


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A Sprawl Goons table, its channel and its GM's and ana's accounts linked."""
    path = str(tmp_path / "table.db")
    with Engine(path) as engine:
        engine.create_campaign("Docklands", "sprawl-goons", gm="Rosa", members={"ana": Role.PLAYER})
        engine.execute("Docklands", LinkChannel(channel=CHANNEL))
        engine.execute("Docklands", LinkMember(member="Rosa", discord=GM_ACCOUNT))
        engine.execute("Docklands", LinkMember(member="ana", discord=ANA_ACCOUNT))
        for name, player in (("Tanner", "ana"), ("Mara", "Rosa")):
            sheet = CreateCharacter(
                character=name,
                player=player,
                morphology=2,
                reaction=1,
                cognition=1,
                equilibrium=0,
                items=("melee:Katana", "armour:Kevlar jacket", "lazarus"),
            )
            engine.execute("Docklands", sheet, dice=DiceSpec(faces=(3, 4, 5, 2)))
    return path


@pytest.fixture
def client(
    db: str, key: Ed25519PrivateKey, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient[Any]]:
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    monkeypatch.setattr(interactions, "clock", lambda: float(NOW))
    with TestClient(create_app(db, discord_public_key=public)) as test_client:
        yield test_client


def events(db: str) -> int:
    with Engine(db) as engine:
        return event_count(engine)


def signed(key: Ed25519PrivateKey, body: bytes, timestamp: int = NOW) -> dict[str, str]:
    stamp = str(timestamp)
    signature = key.sign(stamp.encode() + body).hex()
    return {
        "X-Signature-Ed25519": signature,
        "X-Signature-Timestamp": stamp,
        "Content-Type": "application/json",
    }


def send(client: TestClient[Any], key: Ed25519PrivateKey, payload: dict[str, Any]) -> Any:
    body = json.dumps(payload).encode()
    return client.post(PATH, content=body, headers=signed(key, body))


def command(
    name: str, *options: dict[str, Any], account: str = ANA_ACCOUNT, channel: str = CHANNEL
) -> dict[str, Any]:
    """An APPLICATION_COMMAND interaction as Discord sends one from a server's channel."""
    return {
        "id": str(next(IDS)),
        "application_id": "4400000000000000001",
        "type": 2,
        "token": "interaction-token",
        "version": 1,
        "guild_id": "5500000000000000001",
        "channel_id": channel,
        "member": {"user": {"id": account, "username": "someone"}, "roles": []},
        "data": {"id": "6600000000000000001", "name": name, "type": 1, "options": list(options)},
    }


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


def sub(name: str, *options: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "type": 1, "options": list(options)}


def test_a_ping_is_answered_with_a_pong(client: TestClient[Any], key: Ed25519PrivateKey) -> None:
    answer = send(
        client, key, {"id": "1", "application_id": "2", "type": 1, "token": "t", "version": 1}
    )
    assert (200, {"type": 1}) == (answer.status_code, answer.json())


def test_a_bad_signature_is_401_before_the_body_is_read(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    body = json.dumps(command("dice", option("expression", "1d6"), option("why", "x"))).encode()
    headers = signed(key, body)
    before = events(db)
    for changed in (
        {"X-Signature-Ed25519": "00" * 64},
        {"X-Signature-Ed25519": "not hex"},
        {"X-Signature-Timestamp": str(NOW + 1)},  # the signature was over another moment
    ):
        assert 401 == client.post(PATH, content=body, headers={**headers, **changed}).status_code
    assert 401 == client.post(PATH, content=body + b" ", headers=headers).status_code
    assert (
        401
        == client.post(
            PATH, content=b"{not json", headers=signed(Ed25519PrivateKey.generate(), b"{not json")
        ).status_code
    )
    assert (
        401
        == client.post(PATH, content=body, headers={"Content-Type": "application/json"}).status_code
    )
    assert before == events(db)


def test_a_request_signed_long_ago_is_refused(
    client: TestClient[Any], key: Ed25519PrivateKey
) -> None:
    body = json.dumps({"type": 1}).encode()
    assert 401 == client.post(PATH, content=body, headers=signed(key, body, NOW - 301)).status_code
    assert 401 == client.post(PATH, content=body, headers=signed(key, body, NOW + 301)).status_code
    assert 200 == client.post(PATH, content=body, headers=signed(key, body, NOW - 299)).status_code


def test_a_slash_command_is_the_members_ruling(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    answer = send(
        client,
        key,
        command(
            "dice",
            option("expression", "2d6"),
            option("why", "does the crane hold"),
            option("faces", "3,5"),
        ),
    ).json()
    assert 4 == answer["type"]
    (embed,) = answer["data"]["embeds"]
    assert embed["title"].startswith("Ruling ")
    assert embed["title"].endswith(": dice")
    assert "free roll 2d6 [3,5] = 8: does the crane hold" == embed["description"]
    assert "by ana" in embed["footer"]["text"]
    assert "flags" not in answer["data"]
    with Engine(db) as engine:
        (logged,) = engine.log("Docklands", audience=GMS)[-1:]
        assert ("dice", "ana") == (logged.ruling.command, logged.header.actor)


def test_a_subcommand_spells_a_verb_of_two_words(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    answer = send(client, key, command("session", sub("start"), account=GM_ACCOUNT)).json()
    assert answer["data"]["embeds"][0]["title"].endswith(": session start")


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (
            command("dice", option("expression", "1d6"), option("why", "x"), channel=OTHER_CHANNEL),
            "CHANNEL_PLAYS_NOTHING",
        ),
        (
            command("dice", option("expression", "1d6"), option("why", "x"), account=STRANGER),
            "ACCOUNT_NOT_LINKED",
        ),
        (command("teleport"), "UNKNOWN_SLASH_COMMAND"),
        (
            command("dice", option("expression", 6, kind=4), option("why", "x")),
            "MALFORMED_INTERACTION",  # Discord sends an option of the type it was registered with
        ),
        (
            command(
                "dice", option("expression", "1d6"), option("why", "x"), option("faces", "three")
            ),
            "INVALID_PARAMETER",
        ),
        (
            command("member", sub("add", option("member", "eve"), option("role", "player"))),
            "NOT_ALLOWED",
        ),
        ({**command("x"), "type": 3, "data": {"custom_id": "x:1"}}, "UNKNOWN_BUTTON"),
        ({**command("x"), "type": 99}, "UNSUPPORTED_INTERACTION"),
        ({"type": 2, "channel_id": CHANNEL}, "MALFORMED_INTERACTION"),
    ],
)
def test_a_refusal_is_an_ephemeral_line_and_nothing_is_appended(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str, payload: dict[str, Any], code: str
) -> None:
    before = events(db)
    answer = send(client, key, payload).json()
    assert 4 == answer["type"]
    assert answer["data"]["content"].startswith(f"{code}: ")
    assert EPHEMERAL == answer["data"]["flags"]
    assert before == events(db)


def test_a_server_without_the_key_has_no_endpoint(db: str, key: Ed25519PrivateKey) -> None:
    body = b'{"type": 1}'
    with TestClient(create_app(db)) as client:
        assert 404 == client.post(PATH, content=body, headers=signed(key, body)).status_code


def roll(client: TestClient[Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    answer: dict[str, Any] = send(
        client,
        key,
        command(
            "dice", option("expression", "1d6"), option("why", "the crane"), option("faces", "4")
        ),
    ).json()
    return answer


def pressed(custom_id: str, account: str) -> dict[str, Any]:
    """A MESSAGE_COMPONENT interaction: a button pressed under a message of the app."""
    return {
        **command("x", account=account),
        "type": 3,
        "data": {"custom_id": custom_id, "component_type": 2},
    }


def sent_form(custom_id: str, reason: str, account: str) -> dict[str, Any]:
    """A MODAL_SUBMIT interaction: the reason form sent (its text input in a Label)."""
    field = {"type": 4, "id": 2, "custom_id": "reason", "value": reason}
    data = {"custom_id": custom_id, "components": [{"type": 18, "id": 1, "component": field}]}
    return {**command("x", account=account), "type": 5, "data": data}


def test_a_ruling_comes_with_its_dispute_and_undo_buttons(
    client: TestClient[Any], key: Ed25519PrivateKey
) -> None:
    answer = roll(client, key)
    number = int(answer["data"]["embeds"][0]["title"].split()[1].rstrip(":"))
    (row,) = answer["data"]["components"]
    assert [("Dispute", f"dispute:{number}"), ("Undo", f"undo:{number}")] == [
        (b["label"], b["custom_id"]) for b in row["components"]
    ]


def test_the_gms_undo_button_is_refused_to_a_player_and_opens_the_gms_form(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    roll(client, key)
    number = events_rulings(db)
    before = events(db)
    refused = send(client, key, pressed(f"undo:{number}", ANA_ACCOUNT)).json()
    assert refused["data"]["content"].startswith("NOT_ALLOWED: ")
    form = send(client, key, pressed(f"undo:{number}", GM_ACCOUNT)).json()
    assert 9 == form["type"]
    assert f"undo:{number}" == form["data"]["custom_id"]
    (label,) = form["data"]["components"]
    assert (18, 4, "reason") == (
        label["type"],
        label["component"]["type"],
        label["component"]["custom_id"],
    )
    assert before == events(db)


def test_a_form_sent_records_the_dispute_and_the_undo(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    roll(client, key)
    number = events_rulings(db)
    disputed = send(
        client, key, sent_form(f"dispute:{number}", "the crane was never there", ANA_ACCOUNT)
    ).json()
    assert disputed["data"]["embeds"][0]["title"].endswith(": dispute")
    undone = send(client, key, sent_form(f"undo:{number}", "no crane", GM_ACCOUNT)).json()
    assert undone["data"]["embeds"][0]["title"].endswith(": undo")
    with Engine(db) as engine:
        (logged,) = engine.log("Docklands", rulings=[number], audience=GMS)
        campaign = engine.campaign("Docklands")
    assert ("no crane", "Rosa") == (logged.retraction.reason, logged.retraction.actor)  # type: ignore[union-attr]
    assert [("ana", "the crane was never there")] == [(d.by, d.reason) for d in campaign.disputes]
    refused = send(client, key, sent_form(f"undo:{number}", "again", ANA_ACCOUNT)).json()
    assert refused["data"]["content"].startswith("NOT_ALLOWED: ")


def events_rulings(db: str) -> int:
    with Engine(db) as engine:
        return engine.campaign("Docklands").rulings


def test_an_answer_not_ready_in_time_is_deferred_then_sent_through_the_webhook(
    client: TestClient[Any], key: Ed25519PrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    released = threading.Event()
    slow = interactions.answer_of

    def held(engine: Engine, interaction: dict[str, Any], page: str, signed: Any = None) -> Any:
        released.wait(timeout=30)
        return slow(engine, interaction, page, signed)

    monkeypatch.setattr(interactions, "answer_of", held)
    monkeypatch.setattr(interactions, "DEADLINE", 0.01)
    with discord_api() as api:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", api.url)
        payload = command(
            "dice", option("expression", "1d6"), option("why", "late"), option("faces", "2")
        )
        assert {"type": 5} == send(client, key, payload).json()
        released.set()
        assert api.arrived.wait(timeout=5)
    (heard,) = api.heard
    assert (
        "PATCH",
        "/api/v10/webhooks/4400000000000000001/interaction-token/messages/@original",
    ) == (
        heard.method,
        heard.path,
    )
    assert "free roll 1d6 [2] = 2: late" == heard.body["embeds"][0]["description"]


def typing(name: str, *options: dict[str, Any], account: str = ANA_ACCOUNT) -> dict[str, Any]:
    """An AUTOCOMPLETE interaction: the options so far, the one being typed ``focused``."""
    return {**command(name, *options, account=account), "type": 4}


def test_autocomplete_offers_a_players_own_characters_to_act_with(
    client: TestClient[Any], key: Ed25519PrivateKey
) -> None:
    focused = {**option("character", ""), "focused": True}
    mine = send(client, key, typing("roll", focused)).json()
    assert (8, [{"name": "Tanner", "value": "Tanner"}]) == (mine["type"], mine["data"]["choices"])
    everyone = send(client, key, typing("roll", focused, account=GM_ACCOUNT)).json()
    assert ["Tanner", "Mara"] == [c["value"] for c in everyone["data"]["choices"]]


def test_autocomplete_offers_the_values_of_a_choice_and_the_rulings_one_may_read(
    client: TestClient[Any], key: Ed25519PrivateKey
) -> None:
    stat = send(client, key, typing("roll", {**option("stat", "re"), "focused": True})).json()
    assert ["reaction"] == [c["value"] for c in stat["data"]["choices"]]
    rulings = send(
        client, key, typing("dispute", {**option("ruling", "", kind=4), "focused": True})
    ).json()
    choices = rulings["data"]["choices"]
    assert choices[0]["value"] > choices[-1]["value"]  # newest first
    assert choices[0]["name"].startswith(f"#{choices[0]['value']} character create")


def test_each_parameters_kind_shapes_its_option() -> None:
    from web.discord.slash import commands

    by_name = {c["name"]: c for c in commands("sprawl-goons")}
    (add,) = [o for o in by_name["member"]["options"] if o["name"] == "add"]
    role = next(o for o in add["options"] if o["name"] == "role")
    assert ["gm", "player", "observer"] == [c["value"] for c in role["choices"]]
    ruling = next(o for o in by_name["dispute"]["options"] if o["name"] == "ruling")
    assert (4, 1, True) == (ruling["type"], ruling["min_value"], ruling["autocomplete"])
    character = next(o for o in by_name["roll"]["options"] if o["name"] == "character")
    assert (3, True) == (character["type"], character["autocomplete"])


def test_the_gm_undoes_and_amends_from_the_channel_and_a_player_may_not(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    roll(client, key)
    number = events_rulings(db)
    undo = command("undo", option("ruling", number, kind=4), option("reason", "wrong crane"))
    refused = send(client, key, undo).json()
    assert refused["data"]["content"].startswith("NOT_ALLOWED: ")
    gms = {**undo, "id": str(next(IDS)), "member": {"user": {"id": GM_ACCOUNT}}}
    done = send(client, key, gms).json()
    assert done["data"]["embeds"][0]["title"].endswith(": undo")
    roll(client, key)
    changes = option("changes", "why=the other crane; expression=1d8")
    amend = command(
        "amend",
        option("ruling", number + 2, kind=4),
        changes,
        option("reason", "typo"),
        account=GM_ACCOUNT,
    )
    amended = send(client, key, amend).json()
    assert amended["data"]["embeds"][0]["title"].endswith(": amend")
    with Engine(db) as engine:
        (entry,) = engine.log("Docklands", rulings=[number + 2], audience=GMS)
    assert "amended" == entry.status
    unreadable = send(
        client,
        key,
        {
            **amend,
            "id": str(next(IDS)),
            "data": {
                **amend["data"],
                "options": [
                    option("ruling", 1, kind=4),
                    option("changes", "no equals"),
                    option("reason", "x"),
                ],
            },
        },
    ).json()
    assert unreadable["data"]["content"].startswith("CHANGES_UNREADABLE: ")


def test_sheet_log_and_verify_dice_answer_the_member_alone(
    client: TestClient[Any], key: Ed25519PrivateKey
) -> None:
    roll(client, key)
    sheet = send(client, key, command("sheet", option("character", "Tanner"))).json()["data"]
    assert (EPHEMERAL, True) == (sheet["flags"], "Tanner" in sheet["content"])
    log = send(client, key, command("log", option("count", 2, kind=4))).json()["data"]
    lines = log["content"].splitlines()
    assert 2 == len(lines)
    assert "ana: dice" in lines[-1]
    check = send(client, key, command("verify-dice")).json()["data"]["content"]
    assert "/campaigns/Docklands/dice-check" in check
    missing = send(client, key, command("sheet", option("character", "Nobody"))).json()["data"]
    assert missing["content"].startswith("UNKNOWN_CHARACTER: ")


def test_the_recap_is_for_the_table_and_longer_ones_follow_in_parts(
    client: TestClient[Any], key: Ed25519PrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    send(client, key, command("session", sub("start"), account=GM_ACCOUNT))
    for n in range(40):
        why = f"does crane number {n} hold the container over the water"
        rolled = send(client, key, command("dice", option("expression", "1d6"), option("why", why)))
        assert "embeds" in rolled.json()["data"]
    with discord_api() as api:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", api.url)
        answer = send(client, key, command("recap")).json()
        assert "flags" not in answer["data"]
        parts = int(answer["data"]["content"].rsplit("/", 1)[1].rstrip(")"))
        assert answer["data"]["content"].endswith(f"(1/{parts})")
        assert api.until(parts - 1)
    webhook = ("POST", "/api/v10/webhooks/4400000000000000001/interaction-token")
    assert [webhook] * (parts - 1) == [(h.method, h.path) for h in api.heard]
    assert [f"({n}/{parts})" for n in range(2, parts + 1)] == [
        h.body["content"].rsplit("\n", 1)[1] for h in api.heard
    ]


def test_the_tools_are_slash_commands_too() -> None:
    from web.discord.slash import commands

    names = {c["name"] for c in commands("sims")}
    assert {"undo", "amend", "recap", "sheet", "log", "verify-dice"} <= names


def test_a_post_in_character_appears_in_the_channel_as_the_character(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from web.discord import voices

    voices.forget()
    with discord_api() as api:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", api.url)
        monkeypatch.setenv("CAMPAIGN_DISCORD_TOKEN", "the-bot-token")
        post = command(
            "post", option("text", "I vault the rail [1d6]"), option("character", "Tanner")
        )
        answer = send(client, key, post).json()
        assert EPHEMERAL == answer["data"]["flags"]
        assert answer["data"]["content"].endswith("posted as Tanner in the channel")
        assert api.until(3)
        again = send(
            client, key, command("post", option("text", "and land"), option("character", "Tanner"))
        ).json()
        assert again["data"]["content"].endswith("posted as Tanner in the channel")
        assert api.until(4)
    first, made, shown, second = api.heard
    assert ("GET", f"/api/v10/channels/{CHANNEL}/webhooks") == (first.method, first.path)
    assert ("POST", f"/api/v10/channels/{CHANNEL}/webhooks") == (made.method, made.path)
    assert ("POST", "/api/v10/webhooks/7700000000000000001/the-hook-token?wait=true") == (
        shown.method,
        shown.path,
    )
    assert "Tanner" == shown.body["username"]
    assert shown.body["content"].startswith("I vault the rail [1d6: ")
    assert "and land" == second.body["content"]  # the webhook found once, remembered
    with Engine(db) as engine:
        last = engine.log("Docklands", audience=GMS)[-2]
    assert ("post", "ana") == (last.ruling.command, last.header.actor)


def test_without_a_bot_token_a_post_is_answered_as_a_ruling(
    client: TestClient[Any], key: Ed25519PrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CAMPAIGN_DISCORD_TOKEN", raising=False)
    post = command("post", option("text", "I vault the rail"), option("character", "Tanner"))
    answer = send(client, key, post).json()
    (embed,) = answer["data"]["embeds"]
    assert ("Tanner", True) == (embed["author"]["name"], "I vault the rail" in embed["description"])


def test_a_code_from_the_gm_joins_an_account_once(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    with Engine(db) as engine:
        engine.execute("Docklands", AddMember(member="cy", role=Role.PLAYER))
        code = engine.discord_invite("Docklands", "cy")
    joined = send(client, key, command("join", option("code", code), account=STRANGER)).json()
    assert joined["data"]["embeds"][0]["description"] == f"cy plays as Discord account {STRANGER}"
    assert joined["data"]["embeds"][0]["footer"]["text"] == "by Rosa"  # whom the log names
    with Engine(db) as engine:
        assert "cy" == engine.campaign("Docklands").member_on("discord", STRANGER)
        assert "Rosa" == engine.log("Docklands", audience=GMS)[-1].header.actor
    before = events(db)
    again = send(client, key, command("join", option("code", code), account=STRANGER)).json()
    assert again["data"]["content"].startswith("NOT_SIGNED_IN: ")
    assert before == events(db)
    rolled = send(
        client,
        key,
        command("dice", option("expression", "1d6"), option("why", "x"), account=STRANGER),
    ).json()
    assert "by cy" in rolled["data"]["embeds"][0]["footer"]["text"]


def test_an_oversized_body_is_refused_before_anything(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    from domain.limits import MAX_BODY

    before = events(db)
    body = json.dumps(command("note", option("text", "x" * MAX_BODY))).encode()
    assert 413 == client.post(PATH, content=body, headers=signed(key, body)).status_code
    assert before == events(db)


def test_a_key_ana_puts_on_her_seat_from_discord_is_hers(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    """`/member key` from ana's linked account (the interaction signed by Discord): the key is
    recorded as put on her seat from her own signed-in client, so the entropy it signs counts
    (protocol 3); the GM's `/member key` for her is recorded as his keyboard's."""
    from domain.audience import GMS
    from domain.events import MemberKeyRegistered

    public = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    options = (option("member", "ana"), option("key", public.hex()))
    for account in (GM_ACCOUNT, ANA_ACCOUNT):
        answer = send(client, key, command("member", sub("key", *options), account=account))
        assert "embeds" in answer.json()["data"], answer.text
    with Engine(db) as engine:
        found = [
            r.event.signed_in
            for e in engine.log("Docklands", audience=GMS)
            for r in e.events
            if isinstance(r.event, MemberKeyRegistered)
        ]
    assert [False, True] == found
