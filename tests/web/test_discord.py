"""The Discord Interactions Endpoint, spoken to as Discord speaks: every request signed with an
Ed25519 key pair the test makes (the application's), payloads shaped as Discord's documentation
shows them. A bad or missing signature and an old timestamp get 401; a PING its PONG; a slash
command in a linked channel from a linked account is the member's ruling; everything refused
is an ephemeral line with its code, and nothing is appended."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from litestar.testing import TestClient

from domain.events import Role
from domain.links import LinkChannel, LinkMember
from engine import Engine
from tests.conftest import event_count
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
        "id": "3300000000000000001",
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
        (logged,) = engine.log("Docklands")[-1:]
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
        (command("dice", option("expression", 6, kind=4), option("why", "x")), "INVALID_PARAMETER"),
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
        ({"type": 3, "data": {"custom_id": "x"}}, "UNSUPPORTED_INTERACTION"),
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
