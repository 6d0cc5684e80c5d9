"""An interaction is run once: the same signed body posted again (a replay, a retry through a
proxy) is given the first answer and appends nothing, on every store and through every server
process of it, because the answer is kept in the store beside the log, not in a process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from litestar.testing import TestClient

from domain.audience import GMS
from domain.events import Role
from domain.links import LinkChannel, LinkMember
from engine import Engine
from tests.conftest import event_count
from tests.web.test_discord import (
    ANA_ACCOUNT,
    CHANNEL,
    GM_ACCOUNT,
    NOW,
    PATH,
    command,
    option,
    signed,
    sub,
)
from web import create_app
from web.discord import interactions


def table(db: str) -> None:
    with Engine(db) as engine:
        engine.create_campaign("Docklands", "sprawl-goons", gm="Rosa", members={"ana": Role.PLAYER})
        engine.execute("Docklands", LinkChannel(channel=CHANNEL))
        engine.execute("Docklands", LinkMember(member="Rosa", discord=GM_ACCOUNT))
        engine.execute("Docklands", LinkMember(member="ana", discord=ANA_ACCOUNT))


@contextmanager
def served(db: str, key: Ed25519PrivateKey) -> Iterator[TestClient[Any]]:
    """One server process's app on the store ``db`` (each its own engine)."""
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    with TestClient(create_app(db, discord_public_key=public)) as client:
        yield client


def events(db: str) -> int:
    with Engine(db) as engine:
        return event_count(engine)


def replayed_three_times(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A digital roll's body posted three times, to two server processes of one store: one
    ruling, three identical answers."""
    monkeypatch.setattr(interactions, "clock", lambda: float(NOW))
    key = Ed25519PrivateKey.generate()
    table(db)
    body = json.dumps(command("dice", option("expression", "3d6"), option("why", "once"))).encode()
    headers = signed(key, body)
    before = events(db)
    with served(db, key) as one, served(db, key) as other:
        first = one.post(PATH, content=body, headers=headers)
        after_first = events(db)
        again = [c.post(PATH, content=body, headers=headers) for c in (one, other)]
    assert [200, 200, 200] == [a.status_code for a in (first, *again)]
    assert "embeds" in first.json()["data"]
    assert [first.json()] * 2 == [a.json() for a in again]
    assert (after_first, after_first) == (events(db), after_first)
    assert after_first > before
    with Engine(db) as engine:
        assert ["once"] == [
            json.loads(e.ruling.params)["args"]["why"]
            for e in engine.log("Docklands", audience=GMS)
            if e.ruling.command == "dice"
        ]


def test_a_replayed_interaction_is_answered_once_on_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replayed_three_times(str(tmp_path / "table.db"), monkeypatch)


@pytest.mark.postgres
def test_a_replayed_interaction_is_answered_once_on_postgresql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.postgres import fresh_schema

    with fresh_schema() as url:
        replayed_three_times(url, monkeypatch)


def test_a_replayed_refusal_is_the_same_refusal_even_once_the_rule_would_allow_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interaction is answered, not the command decided again: a refused session start
    replayed after the GM's own start is still that refusal, and appends nothing."""
    monkeypatch.setattr(interactions, "clock", lambda: float(NOW))
    db, key = str(tmp_path / "table.db"), Ed25519PrivateKey.generate()
    table(db)
    body = json.dumps(command("session", sub("start"))).encode()  # ana's: the GM's call
    with served(db, key) as client:
        refused = client.post(PATH, content=body, headers=signed(key, body)).json()
        assert refused["data"]["content"].startswith("NOT_ALLOWED: ")
        before = events(db)
        again = client.post(PATH, content=body, headers=signed(key, body)).json()
    assert (refused, before) == (again, events(db))


def test_each_interaction_id_runs_once_and_only_commands_and_forms_are_kept(
    tmp_path: Path,
) -> None:
    """Through the application API: the answer is computed once per key; autocomplete and
    pings are not kept (they record nothing and come at every key typed)."""
    db = str(tmp_path / "table.db")
    table(db)
    with Engine(db) as engine:
        calls: list[str] = []

        def answer() -> str:
            calls.append("ran")
            return f"answer {len(calls)}"

        assert ["answer 1"] * 3 == [engine.answer_once("k", answer) for _ in range(3)]
        assert "answer 2" == engine.answer_once("other", answer)
        assert 2 == len(calls)
        typed = {**command("roll", {**option("character", ""), "focused": True}), "type": 4}
        interactions.answer_of(engine, typed)
        assert engine.replies.reply(f"discord:{typed['id']}") is None


def test_a_copy_arriving_while_the_first_still_runs_runs_nothing(tmp_path: Path) -> None:
    from engine.application.once import StillAnswering

    with Engine(str(tmp_path / "table.db")) as engine:

        def first() -> str:
            with pytest.raises(StillAnswering):
                engine.answer_once("k", lambda: pytest.fail("ran twice"))
            return "done"

        assert "done" == engine.answer_once("k", first)


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_reply_is_forgotten_after_a_day(tmp_path: Path, store: str) -> None:
    """Kept a day (a signed body is refused after five minutes anyway), then forgotten."""
    moment = [datetime(2026, 12, 6, 8, tzinfo=UTC)]
    db = ":memory:" if store == "memory" else str(tmp_path / "table.db")
    with Engine(db, now=lambda: moment[0]) as engine:
        assert "first" == engine.answer_once("k", lambda: "first")
        moment[0] += timedelta(hours=23)
        assert "first" == engine.answer_once("k", lambda: "again")
        moment[0] += timedelta(hours=2)
        assert "other" == engine.answer_once("other", lambda: "other")  # forgets the old
        assert "again" == engine.answer_once("k", lambda: "again")
