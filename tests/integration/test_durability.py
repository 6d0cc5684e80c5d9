"""Durability stated, not assumed: every SQLite connection the product opens runs with
synchronous=FULL; both stores report a save's notification ids and read a stream id given as
text as the UUID it names; a save that fails part-way leaves nothing; store errors are told
apart (full, damaged, read-only, locked, unreachable)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import (
    OperationalError,
    PersistenceError,
    StoredEvent,
)

from cli.errors import exit_code_of
from domain.lifecycle import AddNote
from domain.limits import MAX_TEXT
from engine import Engine
from engine.store.campaign_store import (
    StoreCorrupt,
    StoredEventUnreadable,
    StoreFault,
    StoreFull,
    StoreLocked,
    StoreReadOnly,
    StoreUnreachable,
    store_fault,
)
from engine.store.recorders import BulkSQLiteRecorder, DurableSQLiteConnectionPool
from tests.conftest import event_count, scene_with_s1
from tests.stores import engine_on

FULL = 2  # PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA


@pytest.fixture(params=["sqlite", "postgres"])
def store_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """Each store (no frozen clock: with one, each PostgreSQL open waits seconds)."""
    with engine_on(request.param, tmp_path) as engine:
        yield engine


def rows(stream: Any, first: int, count: int) -> list[StoredEvent]:
    return [
        StoredEvent(originator_id=stream, originator_version=v, topic="t:A", state=b"{}")
        for v in range(first, first + count)
    ]


# --- synchronous=FULL ----------------------------------------------------------------------


@pytest.fixture
def lax_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sqlite3 connection starts at synchronous=OFF, as a build whose default is lower
    would: only a product that sets FULL itself passes the tests below."""
    connect = sqlite3.connect

    def lax(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = connect(*args, **kwargs)
        connection.execute("PRAGMA synchronous=OFF")
        return connection

    monkeypatch.setattr(sqlite3, "connect", lax)


def synchronous(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA synchronous").fetchone()[0])


def pooled(engine: Engine) -> list[sqlite3.Connection]:
    pool = engine.store.factory.datastore.pool
    return [c._sqlite_conn for c in [*pool._pool, *pool._in_use.values()]]


def test_the_event_store_connections_run_with_synchronous_full(
    lax_sqlite: None, frozen: None, tmp_path: Path
) -> None:
    """Each connection of the store's pool, the first and those opened while it is busy."""
    with Engine(str(tmp_path / "campaign.db")) as engine:
        assert isinstance(engine.store.factory.datastore.pool, DurableSQLiteConnectionPool)
        scene_with_s1(engine)
        datastore = engine.store.factory.datastore
        with (
            datastore.get_connection(commit=False) as first,
            datastore.get_connection(commit=False) as second,
        ):
            assert [FULL, FULL] == [synchronous(c._sqlite_conn) for c in (first, second)]
        connections = pooled(engine)
        assert len(connections) >= 2
        assert all(FULL == synchronous(c) for c in connections)


def test_the_read_model_connection_runs_with_synchronous_full(
    lax_sqlite: None, frozen: None, tmp_path: Path
) -> None:
    with Engine(str(tmp_path / "campaign.db")) as engine:
        scene_with_s1(engine)
        views = engine.read_models.views
        assert FULL == synchronous(views._connection)  # type: ignore[union-attr]


def test_a_cli_command_writes_with_synchronous_full(
    lax_sqlite: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection a `campaign` command saves its ruling on, asked at the moment it saves."""
    from click.testing import CliRunner

    from cli.main import campaign

    seen: list[int] = []
    insert = BulkSQLiteRecorder._insert_events

    def watched(self: Any, cursor: Any, stored: Any, **kwargs: Any) -> Any:
        cursor.execute("PRAGMA synchronous")
        seen.append(int(cursor.fetchone()[0]))
        return insert(self, cursor, stored, **kwargs)

    monkeypatch.setattr(BulkSQLiteRecorder, "_insert_events", watched)
    db = str(tmp_path / "campaign.db")
    for argv in (["init", "X", "--system", "code-green", "--gm", "Rosa"], ["note", "durable"]):
        assert 0 == CliRunner().invoke(campaign, ["--db", db, *argv]).exit_code
    assert [FULL, FULL] == seen


# --- Notification ids and stream ids on both stores ----------------------------------------


@pytest.mark.parametrize("count", [1, 3, 600], ids=["one", "a-ruling", "copy-sized"])
def test_a_save_reports_its_notification_ids(store_engine: Engine, count: int) -> None:
    """Both stores return the ids the save's rows were given, in order (PostgreSQL's COPY
    path included)."""
    recorder = store_engine.store.recorder
    before = recorder.max_notification_id() or 0
    recorder.insert_events(rows(uuid4(), 1, 2))  # someone else's save first
    ids = recorder.insert_events(rows(uuid4(), 1, count))
    notes = recorder.select_notifications(start=before + 3, limit=count + 10)
    assert ids is not None
    assert [n.id for n in notes] == list(ids)
    assert count == len(ids)


def test_an_empty_save_reports_no_ids(store_engine: Engine) -> None:
    assert [] == list(store_engine.store.recorder.insert_events([]) or [])


@pytest.mark.parametrize("form", ["uuid", "dashed", "hex", "upper"])
def test_a_stream_id_given_as_text_is_the_uuid_it_names(store_engine: Engine, form: str) -> None:
    """Written as a UUID or as any text of it, read back by either: the same stream."""
    stream = uuid4()
    given = {
        "uuid": stream,
        "dashed": str(stream),
        "hex": stream.hex,
        "upper": str(stream).upper(),
    }[form]
    recorder = store_engine.store.recorder
    before = recorder.max_notification_id() or 0
    recorder.insert_events(rows(given, 1, 2))
    for asked in (stream, str(stream), stream.hex):
        found = recorder.select_events(asked)
        assert [(stream, 1), (stream, 2)] == [
            (e.originator_id, e.originator_version) for e in found
        ]
    notes = recorder.select_notifications(start=before + 1, limit=5)
    assert [stream, stream] == [n.originator_id for n in notes]


def test_a_text_stream_id_conflicts_with_its_uuid(store_engine: Engine) -> None:
    """Version 1 of a stream written as text, then again as a UUID: one stream, one conflict."""
    from eventsourcing.persistence import IntegrityError

    stream = uuid4()
    recorder = store_engine.store.recorder
    recorder.insert_events(rows(str(stream), 1, 1))
    with pytest.raises(IntegrityError):
        recorder.insert_events(rows(stream, 1, 1))


# --- Nothing half-written ------------------------------------------------------------------


def test_a_save_that_fails_after_its_rows_are_written_leaves_nothing(
    store_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows are in the transaction when the save fails: it rolls back whole, on both
    stores; the next ruling goes in as if nothing happened."""
    engine = store_engine
    engine.create_campaign("Lab", "code-green")
    before = stored(engine)
    state = engine.campaign("Lab")
    recorder = type(engine.store.recorder)
    if isinstance(engine.store.recorder, BulkSQLiteRecorder):
        original = BulkSQLiteRecorder._insert_events

        def failing(self: Any, cursor: Any, stored: Any, **kwargs: Any) -> Any:
            original(self, cursor, stored, **kwargs)
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(BulkSQLiteRecorder, "_insert_events", failing)
    else:
        # A save is one query string, its transaction whole: the server fails it after the
        # INSERT and before the COMMIT (as a full disk does), so the rows were written and are
        # rolled back with it.
        from psycopg.sql import SQL

        full = SQL(
            "DO $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$"
        )

        def failing_pg(self: Any, conn: Any, count: int) -> Any:
            parts = [SQL("BEGIN"), self._prelude, self._insert(count), full, SQL("COMMIT")]
            return SQL("; ").join(parts).as_bytes(conn)

        monkeypatch.setattr(recorder, "_saved", failing_pg)
    with pytest.raises(PersistenceError) as raised:
        engine.execute("Lab", AddNote(text="never recorded"))
    assert isinstance(store_fault(raised.value, engine.db), StoreFull)
    assert before == stored(engine)
    monkeypatch.undo()
    assert state == engine.campaign("Lab")
    engine.execute("Lab", AddNote(text="recorded"))
    assert before + 2 == stored(engine)  # the note and its ruling header


def stored(engine: Engine) -> int:
    """How many events the store holds (PostgreSQL's ids skip the numbers a rollback took)."""
    return len(engine.store.recorder.select_notifications(start=1, limit=100_000))


def test_sqlite_full_for_real_in_the_middle_of_a_save(frozen: None, tmp_path: Path) -> None:
    """SQLite's own SQLITE_FULL (no page may be added) while a ruling is written."""
    with Engine(str(tmp_path / "campaign.db")) as engine:
        scene_with_s1(engine)
        before = event_count(engine)
        for connection in pooled(engine):
            pages = connection.execute("PRAGMA page_count").fetchone()[0]
            connection.execute(f"PRAGMA max_page_count={pages}")
        with pytest.raises(PersistenceError) as raised:
            engine.execute("Lab", AddNote(text="x" * MAX_TEXT))  # the longest: pages more
        assert isinstance(store_fault(raised.value, engine.db), StoreFull)
        assert before == event_count(engine)


# --- Telling faults apart -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "fault"),
    [
        (sqlite3.OperationalError("database or disk is full"), StoreFull),
        (OperationalError("database or disk is full"), StoreFull),
        (sqlite3.DatabaseError("file is not a database"), StoreCorrupt),
        (sqlite3.DatabaseError("database disk image is malformed"), StoreCorrupt),
        (sqlite3.OperationalError("attempt to write a readonly database"), StoreReadOnly),
        (sqlite3.OperationalError("database is locked"), StoreLocked),
        (sqlite3.OperationalError("disk I/O error"), StoreFault),
        (OperationalError("canceling statement due to lock timeout"), StoreLocked),
        (OperationalError("cannot execute INSERT in a read-only transaction"), StoreReadOnly),
    ],
)
def test_store_errors_become_the_fault_they_are(error: Exception, fault: type) -> None:
    found = store_fault(error, "campaign.db")
    assert type(found) is fault
    assert 1 == exit_code_of(found)  # a fault, not a refusal
    assert "\n" not in found.reason  # type: ignore[union-attr]


def test_a_lost_server_is_unreachable() -> None:
    psycopg = pytest.importorskip("psycopg")
    lost = OperationalError("server closed the connection unexpectedly")
    lost.__cause__ = psycopg.OperationalError("server closed the connection unexpectedly")
    found = store_fault(lost, "postgresql://gm:secret@db/tables")
    assert isinstance(found, StoreUnreachable)
    assert "secret" not in found.reason


def test_an_error_of_the_program_is_not_a_store_fault() -> None:
    assert store_fault(ValueError("a bug"), "campaign.db") is None
    assert store_fault(KeyError(3), "campaign.db") is None


def test_an_event_that_does_not_decode_is_unreadable(frozen: None, tmp_path: Path) -> None:
    """A stored event whose bytes were damaged: not a bug of the program but of the store."""
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        scene_with_s1(engine)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE stored_events SET state = x'80ff' WHERE rowid = 2")
    with Engine(str(db)) as engine, pytest.raises(UnicodeDecodeError) as raised:
        engine.campaign("Lab")
    assert isinstance(store_fault(raised.value, str(db)), StoredEventUnreadable)


def test_a_stream_id_that_is_no_uuid_is_refused_before_writing(tmp_path: Path) -> None:
    with Engine(str(tmp_path / "campaign.db")) as engine:
        with pytest.raises(ValueError, match="badly formed"):
            engine.store.recorder.insert_events(rows("not-a-uuid", 1, 1))
        assert 0 == event_count(engine)
        assert [] == engine.store.recorder.select_events(UUID(int=0))
