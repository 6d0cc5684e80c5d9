"""A player seals their own roll through the JSON API (protocol 3): the server gives the text,
the player's client signs it with the key on their seat, and the roll is asked for with the
signature; a seal that is not theirs is refused with its code and nothing is recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from domain.audience import GMS
from domain.lifecycle import StartSession
from engine import Engine
from tests.conftest import event_count
from tests.integration.players import Player
from web import create_app

API = "/api/campaigns/Lab"
ROLL = {"command": "dice", "params": {"expression": "2d6", "why": "the jump"}}


def table(db: Path) -> tuple[Player, dict[str, str]]:
    """ana seated with a key of her own, a session running; her bearer token's header."""
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm="Rosa")
        ana = Player("ana").seated(engine)
        engine.execute("Lab", StartSession())
        ana.adds(engine, "pancakes")
        token = engine.token("Lab", "ana")
    return ana, {"Authorization": f"Bearer {token}"}


def test_a_player_seals_a_roll_through_the_api(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    ana, headers = table(db)
    with TestClient(create_app(str(db))) as client:
        asked = client.post(f"{API}/seal-text", json=ROLL, headers=headers)
        assert 201 == asked.status_code, asked.text
        told: dict[str, Any] = asked.json()
        assert (0, "ana") == (told["sealed"], told["member"])
        assert told["text"].startswith("campaign-log roll 3\n")
        body = {"params": ROLL["params"], "seal": ana.seal(told["text"])}
        made = client.post(f"{API}/commands/dice", json=body, headers=headers)
        assert 201 == made.status_code, made.text
    with Engine(str(db)) as engine:
        (logged,) = [e for e in engine.log("Lab", audience=GMS) if e.ruling.command == "dice"]
        assert (0, "ana") == (logged.ruling.sealed, logged.ruling.lane)


def test_a_seal_of_another_roll_is_refused_and_nothing_is_recorded(tmp_path: Path) -> None:
    db = tmp_path / "lab.db"
    ana, headers = table(db)
    with Engine(str(db)) as engine:
        before = event_count(engine)
    with TestClient(create_app(str(db))) as client:
        told = client.post(f"{API}/seal-text", json=ROLL, headers=headers).json()
        other = {"params": {"expression": "2d6+9", "why": "the jump"}}
        made = client.post(
            f"{API}/commands/dice", json={**other, "seal": ana.seal(told["text"])}, headers=headers
        )
    assert 409 == made.status_code or 422 == made.status_code, made.text
    assert "SEAL_DOES_NOT_HOLD" == made.json()["error"]["code"]
    with Engine(str(db)) as engine:
        assert before == event_count(engine)
