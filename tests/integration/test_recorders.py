"""The store's own recorders (SQLite and PostgreSQL): bulk inserts in notification order, large
saves in one transaction, topics picked in the query, and stored rows that keep their bytes
through an export and an import."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.audience import GMS
from engine import Engine
from engine.store.recorders import ONE_STATEMENT, BulkSQLiteRecorder, TopicFilter
from engine.store.records import DIRECTORY_ID
from engine.transfer.scratch import Scratch
from tests.conftest import place, scene_with_s1
from tests.stores import engine_on


def rows(stream: UUID, first: int, count: int, topic: str = "t:A") -> list[StoredEvent]:
    return [
        StoredEvent(originator_id=stream, originator_version=v, topic=topic, state=b"{}")
        for v in range(first, first + count)
    ]


@pytest.fixture(params=["sqlite", "postgres"])
def store_engine(request: pytest.FixtureRequest, frozen: None, tmp_path: Path) -> Iterator[Engine]:
    with engine_on(request.param, tmp_path) as engine:
        yield engine


def test_saves_are_notified_in_order(store_engine: Engine) -> None:
    recorder = store_engine.store.recorder
    assert isinstance(recorder, TopicFilter)
    before = recorder.max_notification_id() or 0

    first = recorder.insert_events(rows(UUID(int=1), 1, 3))
    second = recorder.insert_events(rows(UUID(int=2), 1, 2))

    notes = recorder.select_notifications(start=before + 1, limit=10)
    if isinstance(recorder, BulkSQLiteRecorder):  # SQLite reports the ids; PostgreSQL need not
        assert [*(first or ()), *(second or ())] == [n.id for n in notes]
    assert [n.id for n in notes] == sorted(n.id for n in notes)
    assert [(n.originator_id, n.originator_version) for n in notes] == [
        (UUID(int=1), 1),
        (UUID(int=1), 2),
        (UUID(int=1), 3),
        (UUID(int=2), 1),
        (UUID(int=2), 2),
    ]


def test_a_save_of_one_statement_or_of_many_gives_each_rows_id(tmp_path: Path) -> None:
    """On SQLite a save of up to ``ONE_STATEMENT`` rows is one multi-row INSERT, a longer one
    ``executemany``: either way the ids it gives are its rows' notification ids, in order, and
    a one-statement save with a clash writes none of its rows."""
    with engine_on("sqlite", tmp_path) as engine:
        recorder = engine.store.recorder
        assert isinstance(recorder, BulkSQLiteRecorder)
        before = recorder.max_notification_id() or 0
        given = [
            *recorder.insert_events(rows(UUID(int=1), 1, ONE_STATEMENT)),
            *recorder.insert_events(rows(UUID(int=2), 1, ONE_STATEMENT + 1)),
            *recorder.insert_events(rows(UUID(int=1), ONE_STATEMENT + 1, 1)),
        ]
        notes = recorder.select_notifications(start=before + 1, limit=1000)
        assert given == [n.id for n in notes] == list(range(before + 1, before + len(given) + 1))
        with pytest.raises(IntegrityError):  # version 3 of stream 2 is taken
            recorder.insert_events([*rows(UUID(int=3), 1, 2), *rows(UUID(int=2), 3, 1)])
        assert [] == list(recorder.select_events(UUID(int=3)))


def test_a_large_save_is_one_transaction(store_engine: Engine) -> None:
    """25k events go in at once (by COPY on PostgreSQL); a save with one clash writes nothing."""
    recorder = store_engine.store.recorder
    stream = UUID(int=4)
    recorder.insert_events(rows(stream, 1, 25_000))
    assert len(recorder.select_events(stream)) == 25_000

    with pytest.raises(IntegrityError):
        recorder.insert_events([*rows(UUID(int=5), 1, 24_999), *rows(stream, 25_000, 1)])
    assert recorder.select_events(UUID(int=5)) == []


@pytest.mark.parametrize("size", [1, 2, 64])
def test_a_command_sized_save_is_whole_or_nothing_with_its_ids(
    store_engine: Engine, size: int
) -> None:
    """A save of a command's size gives each row's notification id; one that clashes on its
    last row writes none."""
    recorder = store_engine.store.recorder
    stream, other = UUID(int=6), UUID(int=7)
    recorder.insert_events(rows(stream, 1, 1))
    before = recorder.max_notification_id() or 0

    ids = recorder.insert_events(rows(other, 1, size))

    notes = recorder.select_notifications(start=before + 1, limit=size + 1)
    assert [(other, v) for v in range(1, size + 1)] == [
        (n.originator_id, n.originator_version) for n in notes
    ]
    if isinstance(recorder, BulkSQLiteRecorder):
        assert list(ids or ()) == [n.id for n in notes]
    with pytest.raises(IntegrityError):
        recorder.insert_events([*rows(UUID(int=8), 1, size - 1), *rows(stream, 1, 1)])
    assert [] == recorder.select_events(UUID(int=8))
    assert len(recorder.select_events(other)) == size


def test_an_import_copies_the_scratch_rows_in_one_transaction(tmp_path: Path) -> None:
    """SQLite copies an import's rows from its scratch file after the rows given first, in the
    order written, with their notification ids; a copy with one clash writes nothing, and the
    scratch file is let go either way (the next copy attaches it again)."""
    with Engine(str(tmp_path / "store.db")) as engine, Scratch() as scratch:
        recorder = engine.store.recorder
        assert isinstance(recorder, BulkSQLiteRecorder)
        before = recorder.max_notification_id() or 0
        recorder.insert_events(rows(UUID(int=7), 1, 1))
        for row in rows(UUID(int=6), 1, 3):
            scratch.add(0, row)
        scratch.add(0, rows(UUID(int=7), 1, 1)[0])  # in the store already
        scratch.flush()
        path, table = str(scratch.path), scratch.table
        with pytest.raises(IntegrityError):
            recorder.insert_copied(rows(UUID(int=8), 1, 1), path, table)
        assert [] == recorder.select_events(UUID(int=6)) == recorder.select_events(UUID(int=8))

        with Scratch() as clean:
            for row in rows(UUID(int=6), 1, 3):
                clean.add(0, row)
            clean.flush()
            first, last = recorder.insert_copied(
                rows(UUID(int=8), 1, 1), str(clean.path), clean.table
            )
        notes = recorder.select_notifications(start=before + 2, limit=10)
        assert (first, last) == (notes[0].id, notes[-1].id) == (before + 2, before + 5)
        assert [(n.originator_id, n.originator_version) for n in notes] == [
            (UUID(int=8), 1),
            (UUID(int=6), 1),
            (UUID(int=6), 2),
            (UUID(int=6), 3),
        ]


def test_select_events_keeps_only_the_topics_asked_for(store_engine: Engine) -> None:
    recorder = store_engine.store.recorder
    assert isinstance(recorder, TopicFilter)
    stream = UUID(int=3)
    recorder.insert_events(
        [
            *rows(stream, 1, 2),
            *rows(stream, 3, 1, "t:B"),
            *rows(stream, 4, 3),
            *rows(stream, 7, 1, "t:B"),
        ]
    )

    def versions(**options: object) -> list[int]:
        found = recorder.select_events(stream, **options)  # type: ignore[arg-type]
        assert all(row.originator_id == stream for row in found)
        return [row.originator_version for row in found]

    assert versions(topics=["t:B"]) == [3, 7]
    assert versions(topics=["t:B"], gt=3) == [7]
    assert versions(topics=["t:B"], lte=6) == [3]
    assert versions(topics=["t:A", "t:B"], desc=True, limit=2) == [7, 6]
    assert versions() == list(range(1, 8))


def test_stored_rows_put_the_chain_first_and_keep_their_bytes_through_import(
    frozen: None, tmp_path: Path
) -> None:
    """A row is its chain link, then the canonical body it links over; an export imported
    into another store writes the very same rows."""
    source, target = tmp_path / "source.db", tmp_path / "target.db"
    with Engine(str(source)) as engine:
        who = scene_with_s1(engine)
        place(engine, who, "R1C1", "R2C2", "R3C3")
        lines = list(engine.export("Lab", audience=GMS))
    with Engine(str(target)) as engine:
        engine.import_campaign(lines)

    def stored(path: Path) -> dict[tuple[str, int], bytes]:
        with sqlite3.connect(path) as connection:
            query = "SELECT originator_id, originator_version, state FROM stored_events"
            return {(s, v): bytes(b) for s, v, b in connection.execute(query)}

    written, imported = stored(source), stored(target)
    assert all(state.startswith(b'{"chain":"') for state in written.values())
    campaign = {k: v for k, v in written.items() if k[0] != DIRECTORY_ID.hex}  # written anew
    assert len(campaign) > 10
    assert {k: v for k, v in imported.items() if k in campaign} == campaign
