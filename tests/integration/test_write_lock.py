"""The store's write lock (``engine.store.write_lock``): writers of one campaign take turns, so none
loses a race; on PostgreSQL, more threads of one process than its pool has connections still
take turns instead of starving the lock's holder of a connection."""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.audience import GMS
from domain.lifecycle import AddNote
from engine import Engine, WouldWait, not_waiting
from engine.store.write_lock import (
    FileLock,
    NoLock,
    ThreadLock,
    waiting_refused,
    write_lock_for,
)
from tests.conftest import event_count
from tests.postgres import fresh_schema
from tests.stores import held_elsewhere

THREADS = 8  # more than a PostgreSQL store's pool holds (1 + 4 overflow)
NOTES = 10


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "memory":
        yield ":memory:"
    elif request.param == "sqlite":
        yield str(tmp_path / "campaign.db")
    else:
        with fresh_schema() as url:
            yield url


def test_threads_of_one_engine_take_turns_and_lose_no_race(store: str) -> None:
    """8 threads x 10 notes on one campaign through one engine: 80 rulings, numbered 2..81,
    and not one attempt decided again (the backoff between lost races is never called)."""
    lost: list[int] = []
    with Engine(store, backoff=lost.append) as engine:
        engine.create_campaign("Lab", "code-green")
        start = threading.Barrier(THREADS)
        failures: list[BaseException] = []

        def write(thread: int) -> None:
            start.wait()
            try:
                for index in range(NOTES):
                    engine.execute("Lab", AddNote(text=f"t{thread}-{index}"))
            except BaseException as error:  # reported below, in the test's thread
                failures.append(error)

        threads = [threading.Thread(target=write, args=(t,)) for t in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert [] == failures
        assert not any(thread.is_alive() for thread in threads)
        numbers = [entry.ruling.number for entry in engine.log("Lab", audience=GMS)]
        assert list(range(1, THREADS * NOTES + 2)) == numbers
        assert [] == lost


def test_each_store_has_its_kind_of_lock(tmp_path: Path) -> None:
    """A file lock beside a SQLite store, a lock of the process for one in memory."""
    with Engine() as engine:
        assert isinstance(write_lock_for(":memory:", engine.store), ThreadLock)
    db = str(tmp_path / "campaign.db")
    with Engine(db) as engine:
        lock = write_lock_for(db, engine.store)
        assert isinstance(lock, FileLock)
        assert f"{db}-lock" == lock.path
        assert isinstance(Engine(db, lock_writes=False).ledger.write_lock, NoLock)


def test_a_file_lock_in_a_folder_it_cannot_write_lets_the_write_say_why(tmp_path: Path) -> None:
    """No lock file can be made (a read-only folder): the lock steps aside, so the write itself
    reports the read-only store."""
    lock = FileLock(str(tmp_path / "missing-folder" / "campaign.db-lock"))
    with lock.held(stream=None):  # type: ignore[arg-type]
        entered = True
    assert entered


def test_a_write_that_must_not_wait_leaves_the_lock_to_its_holder_and_saves_nothing(
    tmp_path: Path,
) -> None:
    """In a ``not_waiting`` block (a server's event loop) a write finds the lock held by another
    writer: ``WouldWait`` at once, nothing appended; with the lock free, the same write saves."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as engine:
        engine.create_campaign("Lab", "code-green")
        before = event_count(engine)
        with held_elsewhere(db), pytest.raises(WouldWait), not_waiting():
            engine.execute("Lab", AddNote(text="at once"))
        assert before == event_count(engine)
        with not_waiting():
            engine.execute("Lab", AddNote(text="at once"))
        assert 2 == engine.campaign("Lab").rulings


def test_a_block_waits_as_any_writer_once_a_write_of_it_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The block's second write waits for the lock (a handed-off block would run the first one
    twice): the holder lets go as it starts to wait, and both notes are saved, once each."""
    db = str(tmp_path / "campaign.db")
    taken, let_go = threading.Event(), threading.Event()
    asked: list[bool] = []  # each turn of the lock: whether it would wait for it
    real = fcntl.flock

    def flock(fd: int, operation: int) -> None:
        if operation & fcntl.LOCK_EX:
            asked.append(not operation & fcntl.LOCK_NB)
            if taken.is_set():
                let_go.set()  # the holder sees this writer wait and lets go
        real(fd, operation)

    def holder() -> None:
        with held_elsewhere(db):
            taken.set()
            let_go.wait(timeout=30)

    with Engine(db) as engine:
        engine.create_campaign("Lab", "code-green")
        monkeypatch.setattr(fcntl, "flock", flock)
        with not_waiting():
            assert waiting_refused()
            engine.execute("Lab", AddNote(text="first"))
            assert not waiting_refused()
            other = threading.Thread(target=holder)
            other.start()
            assert taken.wait(timeout=30)
            engine.execute("Lab", AddNote(text="second"))
        other.join(timeout=30)
        notes = [e.ruling.command for e in engine.log("Lab", audience=GMS)]
    assert ["init", "note", "note"] == notes
    assert [False, True] == asked[:1] + asked[-1:]


def test_a_postgresql_holder_saves_on_the_connection_it_holds_the_lock_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ruling's save goes through the connection whose session holds the campaign's
    advisory lock (no second connection of the pool), and none is held after it."""
    with fresh_schema() as url, Engine(url) as engine:
        engine.create_campaign("Lab", "code-green")
        recorder = engine.store.recorder
        holders: list[tuple[int, int]] = []  # (the saving session, advisory locks it holds)
        save = recorder._write

        def watched(stored_events: Any) -> Any:
            held = recorder.held.get()
            assert held is not None
            locks = held.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = %s",
                (held.info.backend_pid,),
            ).fetchone()
            holders.append((held.info.backend_pid, int(locks["count"])))
            return save(stored_events)

        monkeypatch.setattr(recorder, "_write", watched)
        engine.execute("Lab", AddNote(text="on the lock's connection"))

        assert 1 == len(holders)
        assert 1 == holders[0][1]
        assert 0 == advisory_locks(engine)
        assert None is recorder.held.get()


def advisory_locks(engine: Engine) -> int:
    """How many advisory locks sessions of the test database hold now."""
    with engine.store.recorder.datastore.get_connection() as connection:
        found = connection.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        ).fetchone()
    return int(found["count"])


def test_a_postgresql_save_lets_the_lock_go_with_its_commit() -> None:
    """The holder's save sends the unlock after its COMMIT (one round trip): the lock is gone
    before the block ends. A save refused for its version sends none (the rest of the query
    is not run), and the block's end lets the lock go."""
    from eventsourcing.persistence import IntegrityError, StoredEvent

    def rows(version: int) -> list[StoredEvent]:
        return [
            StoredEvent(originator_id=stream, originator_version=version, topic="t", state=b"{}")
        ]

    with fresh_schema() as url, Engine(url) as engine:
        lock, recorder, stream = engine.ledger.write_lock, engine.store.recorder, UUID(int=9)
        with lock.held(stream):
            assert 1 == advisory_locks(engine)
            recorder.insert_events(rows(1))
            assert 0 == advisory_locks(engine)
        assert 0 == advisory_locks(engine)
        held_after_refusal: list[int] = []
        with lock.held(stream):
            with pytest.raises(IntegrityError):
                recorder.insert_events(rows(1))
            held_after_refusal.append(advisory_locks(engine))
        assert [1] == held_after_refusal
        assert 0 == advisory_locks(engine)
        with lock.held(stream):  # taken again at once: nothing was left holding it
            recorder.insert_events(rows(2))
        assert [1, 2] == [e.originator_version for e in recorder.select_events(stream)]
