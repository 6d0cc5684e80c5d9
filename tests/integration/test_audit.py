"""Tamper evidence: edits, deletions and reorderings of stored rows are found by `verify`."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import pytest

from domain.events import SessionSealed
from domain.lifecycle import EndScene, EndSession, StartSession
from domain.rulesets.code_green.commands import Adapt, DeclareTest
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.store.chain import genesis, link, seal
from engine.store.mapper import canonical_json
from tests.conftest import place, scene_with_s1

TEST, ADAPT = 6, 7
UPDATE = "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?"


@pytest.fixture
def played(tmp_path: Path, frozen: None) -> tuple[Path, UUID]:
    """A sealed session on a SQLite file: alice tests (ruling 6; her events 7 and 8) and adapts
    (7); returns the file and alice's stream."""
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        who = scene_with_s1(engine)
        place(engine, who, "R1C1", "R2C2", "R3C3")
        roll = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
        engine.execute("Lab", roll, dice=DiceSpec(faces=(2, 5)))
        engine.execute("Lab", Adapt(character=who, source="R1C1", destination="R1C2"))
        engine.execute("Lab", EndScene())
        engine.execute("Lab", EndSession())
        stream = engine.campaign("Lab").find(who).character_id
        assert engine.verify("Lab").intact
    return db, stream


def tamper(db: Path, change: Callable[[sqlite3.Connection], object]) -> None:
    with sqlite3.connect(db) as connection:
        change(connection)


def verify(db: Path) -> tuple[bool, list[tuple[int, int | None, str]]]:
    with Engine(str(db)) as engine:
        report = engine.verify("Lab")
    return report.intact, [(b.version, b.ruling, b.problem) for b in report.breaks]


def rows(connection: sqlite3.Connection, stream: UUID) -> list[tuple[int, bytes]]:
    query = "SELECT originator_version, state FROM stored_events WHERE originator_id=? ORDER BY 1"
    return list(connection.execute(query, (stream.hex,)))


def test_an_untouched_log_is_intact(played: tuple[Path, UUID]) -> None:
    """Every chain links and the session's seal matches."""
    db, _ = played
    assert (True, []) == verify(db)


def test_an_edited_die_is_found_with_its_ruling(played: tuple[Path, UUID]) -> None:
    """Changing a recorded face breaks the chain at that event, named with its ruling."""
    db, alice = played

    def edit(connection: sqlite3.Connection) -> None:
        for version, state in rows(connection, alice):
            if b'"result":5' in state:
                forged = state.replace(b'"result":5', b'"result":6')
                connection.execute(UPDATE, (forged, alice.hex, version))

    tamper(db, edit)
    intact, breaks = verify(db)
    assert (False, [(8, TEST, "the event was changed or moved")]) == (intact, breaks[:1])


def test_a_deleted_event_is_found(played: tuple[Path, UUID]) -> None:
    """Deleting a row leaves a gap in its stream's versions, named with the ruling whose header
    claims it (ruling 5 placed alice's tokens: her versions 4..6)."""
    db, alice = played
    tamper(
        db,
        lambda c: c.execute(
            "DELETE FROM stored_events WHERE originator_id=? AND originator_version=6",
            (alice.hex,),
        ),
    )
    intact, breaks = verify(db)
    assert (False, (6, 5, "version 6 is missing")) == (intact, breaks[0])


def test_a_deleted_last_event_is_found_from_its_ruling(played: tuple[Path, UUID]) -> None:
    """Cutting a stream's tail shows against the ruling that wrote it (and the seal)."""
    db, alice = played
    last = max(v for v, _ in rows(sqlite3.connect(db), alice))
    tamper(
        db,
        lambda c: c.execute(
            "DELETE FROM stored_events WHERE originator_id=? AND originator_version=?",
            (alice.hex, last),
        ),
    )
    intact, breaks = verify(db)
    assert not intact
    assert "the stream ends before it" in breaks[0][2]


def test_reordered_events_are_found(played: tuple[Path, UUID]) -> None:
    """Swapping two events of a stream breaks the chain where the first one moved."""
    db, alice = played

    def swap(connection: sqlite3.Connection) -> None:
        (v1, s1), (v2, s2) = [r for r in rows(connection, alice) if r[0] in (7, 8)]
        connection.execute(UPDATE, (s2, alice.hex, v1))
        connection.execute(UPDATE, (s1, alice.hex, v2))

    tamper(db, swap)
    intact, breaks = verify(db)
    assert (False, 7) == (intact, breaks[0][0])


def test_a_rewritten_chain_still_breaks_the_seal(played: tuple[Path, UUID]) -> None:
    """Forging an event and recomputing the whole chain after it is caught by the session seal."""
    db, alice = played

    def forge(connection: sqlite3.Connection) -> None:
        previous = genesis(alice)
        topics = dict(
            connection.execute(
                "SELECT originator_version, topic FROM stored_events WHERE originator_id=?",
                (alice.hex,),
            )
        )
        for version, state in rows(connection, alice):
            body = json.loads(state.replace(b'"result":5', b'"result":6'))
            body.pop("chain")
            chain = link(previous, alice, version, topics[version], canonical_json(body))
            body["chain"] = chain
            connection.execute(UPDATE, (canonical_json(body), alice.hex, version))
            previous = chain

    tamper(db, forge)
    with Engine(str(db)) as engine:
        report = engine.verify("Lab")
    assert ([], [False]) == (list(report.breaks), [s.intact for s in report.seals])


@pytest.mark.parametrize("at", [0, 9, 12, 74, 75, 76, 120, -2, -1])
def test_any_edited_byte_of_a_row_is_found(played: tuple[Path, UUID], at: int) -> None:
    """Rows are written chain first and checked over their own bytes: an edit anywhere (the
    link, its quotes, the body) breaks the chain or the reading at that event."""
    db, alice = played

    def edit(connection: sqlite3.Connection) -> None:
        version, state = rows(connection, alice)[6]
        assert state.startswith(b'{"chain":"')
        forged = bytearray(state)
        forged[at] = ord("0") if forged[at] != ord("0") else ord("1")
        connection.execute(UPDATE, (bytes(forged), alice.hex, version))

    tamper(db, edit)
    intact, breaks = verify(db)
    assert not intact
    assert breaks[0][0] == 7


def test_seals_are_chained(played: tuple[Path, UUID]) -> None:
    """A second session's seal names the first's digest, and its own digest covers it."""
    db, _ = played
    with Engine(str(db)) as engine:
        engine.execute("Lab", StartSession())
        engine.execute("Lab", EndSession())
        first, second = [
            r.event
            for r in engine.streams.records(engine.campaign("Lab").id)
            if isinstance(r.event, SessionSealed)
        ]
        report = engine.verify("Lab")
    heads = {h.stream: (h.version, h.chain) for h in second.heads}
    assert ("", first.digest) == (first.previous, second.previous)
    assert seal(heads, first.digest) == second.digest != seal(heads)
    assert (True, [True, True]) == (report.intact, [s.intact for s in report.seals])
