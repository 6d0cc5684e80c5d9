"""A player's roll through the Interactions Endpoint is sealed by Discord's own signature of the
interaction (protocol 3, issue 42): with the application's key recorded at the channel's link,
ana's /dice in a running session is recorded with the signature as its seal and the signed
timestamp and body, answered "sealed by ana (through Discord)", and verifies. The GM's own
roll, a roll and a roll in a channel linked without the key are not sealed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from freezegun import freeze_time
from litestar.testing import TestClient

from domain.audience import GMS
from domain.lifecycle import EndSession, StartSession
from domain.links import LinkChannel, LinkMember
from engine import Engine
from tests.conftest import FROZEN_AT
from tests.integration.players import Player, close_entropy
from tests.web.test_discord import (
    ANA_ACCOUNT,
    CHANNEL,
    GM_ACCOUNT,
    OTHER_CHANNEL,
    PATH,
    command,
    option,
    signed,
)
from web import create_app
from web.discord import interactions

NOW = int(FROZEN_AT.timestamp())


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def public(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


@pytest.fixture
def client(
    tmp_path: Path, key: Ed25519PrivateKey, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient[Any], str]]:
    """A protocol-3 session; CHANNEL linked with the application's key, OTHER_CHANNEL without."""
    db = str(tmp_path / "table.db")
    with freeze_time(FROZEN_AT):  # the request's clock set within it (freezegun swaps clocks)
        monkeypatch.setattr(interactions, "clock", lambda: float(NOW))
        with Engine(db) as engine:
            engine.create_campaign("Lab", "sprawl-goons", gm="Rosa")
            Player("ana").seated(engine, "Lab")
            engine.execute("Lab", LinkChannel(channel=CHANNEL, key=public(key)))
            engine.execute("Lab", LinkChannel(channel=OTHER_CHANNEL))
            engine.execute("Lab", LinkMember(member="Rosa", discord=GM_ACCOUNT))
            engine.execute("Lab", LinkMember(member="ana", discord=ANA_ACCOUNT))
            engine.execute("Lab", StartSession())
            close_entropy(engine)
        with TestClient(create_app(db, discord_public_key=public(key))) as test_client:
            yield test_client, db


def dice(
    client: TestClient[Any], key: Ed25519PrivateKey, *extra: dict[str, Any], **where: Any
) -> str:
    payload = command(
        "dice", option("expression", "1d20"), option("why", "to hit"), *extra, **where
    )
    body = json.dumps(payload).encode()
    answer = client.post(PATH, content=body, headers=signed(key, body, NOW))
    assert 200 == answer.status_code, answer.text
    return str(answer.json()["data"].get("content", "")) + json.dumps(answer.json()["data"])


def last_ruling(db: str) -> Any:
    with Engine(db) as engine:
        (entry,) = engine.log("Lab", rulings=[engine.campaign("Lab").rulings], audience=GMS)
        return entry.ruling


def test_a_players_discord_roll_is_sealed_by_the_interaction_and_verifies(
    client: tuple[TestClient[Any], str], key: Ed25519PrivateKey
) -> None:
    test_client, db = client
    shown = dice(test_client, key)
    assert "sealed by ana (through Discord)" in shown
    made = last_ruling(db)
    assert (made.lane, made.sealed) == ("ana", 0)
    assert made.interaction.startswith(str(NOW) + "{")
    with freeze_time(FROZEN_AT), Engine(db) as engine:
        engine.execute("Lab", EndSession())
        (check,) = engine.verify("Lab").dice
    assert () == check.problems
    assert [made.number] == [n for n, _, _ in check.sealed]


@pytest.mark.parametrize("how", ["the GM's", "a channel linked without the key"])
def test_what_discord_does_not_seal_reads_foreseeable(
    client: tuple[TestClient[Any], str], key: Ed25519PrivateKey, how: str
) -> None:
    test_client, db = client
    where = {"account": GM_ACCOUNT} if how == "the GM's" else {"channel": OTHER_CHANNEL}
    shown = dice(test_client, key, **where)
    made = last_ruling(db)
    assert (made.sealed, made.seal, made.interaction) == (None, "", "")
    assert "sealed by" not in shown
