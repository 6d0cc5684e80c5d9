"""The store's write lock: a writer takes it before it loads the state it decides on, and keeps
it until its ruling is saved (or refused), so writers of one campaign take turns instead of
racing and retrying.

SQLite lets one writer in at a time anyway; racing writers each loaded, decided and then lost
the insert, and a busy campaign ended some commands with ``CONCURRENT_WRITES``. Under the lock
the race is gone; the version check on insert and the retry stay as the backstop for a writer
that does not take it (an older version of this program).

- SQLite: ``flock`` on a file beside the store (``campaign.db-lock``; the database file itself
  may not be locked this way: SQLite's own POSIX locks are dropped when any descriptor of the
  file is closed). One lock per store: SQLite has one writer per store.
- PostgreSQL: a session advisory lock per campaign, on a connection of the store's pool, so
  writers of different campaigns do not wait for each other.
- In memory: a lock per store object.

A server's event loop writes in a ``not_waiting`` block: there a write that would wait (for a
SQLite file's lock another writer holds, or to retry after it lost a race) is refused with
``WouldWait`` before anything is saved, and the server hands it to its writer thread to wait
there (``web.engines``).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any, Protocol
from uuid import UUID

from engine.store.campaign_store import (
    MEMORY,
    CampaignStore,
    environment_for,
    is_postgres,
    lock_key,
)

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: the insert's version check alone
    fcntl = None  # type: ignore[assignment]


class WouldWait(Exception):
    """A write in a ``not_waiting`` block would have waited: for the store's lock, which another
    writer holds, or to retry a save that lost a race. Nothing of it is saved."""


class _Turn:
    """A ``not_waiting`` block: whether a write of it was saved yet (from then on, it waits)."""

    saved = False


_TURN: ContextVar[_Turn | None] = ContextVar("campaign_write_turn", default=None)


@contextlib.contextmanager
def not_waiting() -> Iterator[None]:
    """A block that must not wait for another writer until a write of it is saved: the lock of
    a SQLite file is taken only if it is free (else ``WouldWait``), and a save that lost a race
    is not retried after a backoff (``WouldWait``). Once a write of the block is saved, the
    rest waits as any writer does: handing it elsewhere then would run the saved write twice."""
    token = _TURN.set(_Turn())
    try:
        yield
    finally:
        _TURN.reset(token)


def waiting_refused() -> bool:
    """In a ``not_waiting`` block none of whose writes is saved yet."""
    turn = _TURN.get()
    return turn is not None and not turn.saved


def turn_saved() -> None:
    """A write was saved: the rest of a ``not_waiting`` block waits as any writer does."""
    turn = _TURN.get()
    if turn is not None:
        turn.saved = True


class WriteLock(Protocol):
    def held(self, stream: UUID) -> contextlib.AbstractContextManager[None]:
        """Held while one write to ``stream``'s campaign loads, decides and saves."""
        ...


class NoLock:
    """For a writer that does not wait its turn (tests use one to stage a lost race)."""

    @contextlib.contextmanager
    def held(self, stream: UUID) -> Iterator[None]:
        yield


class ThreadLock:
    """An in-memory store: its writers are threads of this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def held(self, stream: UUID) -> Iterator[None]:
        with self._lock:
            yield


class FileLock:
    """An exclusive ``flock`` on ``path``. Each turn opens its own descriptor, so threads of one
    process wait for each other as processes do; the kernel lets go when a holder dies. In a
    ``not_waiting`` block the lock is taken only if it is free at once (else ``WouldWait``)."""

    def __init__(self, path: str) -> None:
        self.path = path

    @contextlib.contextmanager
    def held(self, stream: UUID) -> Iterator[None]:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:  # a read-only folder: the write itself will say what is wrong
            yield
            return
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (fcntl.LOCK_NB if waiting_refused() else 0))
            except BlockingIOError:
                raise WouldWait() from None
            yield
        finally:
            os.close(fd)  # closing lets go of the lock


class AdvisoryLock:
    """A PostgreSQL session advisory lock per campaign, held on one pooled connection. Threads
    of one process take turns on a lock of their own first: a thread waiting for the advisory
    lock holds a connection of the pool, and enough of them would leave none to the holder.

    The holder reads and saves on the connection it holds the lock on (``held``, the
    recorder's), so it never waits for a second one. At most the pool's size less two hold one
    at a time (at least one): one connection stays for a listener
    (``engine.application.store_changes``) and one for the sign-ins and reads of everyone
    else."""

    def __init__(self, datastore: Any, prefix: str, held: Any = None) -> None:
        self.datastore = datastore
        self.prefix = prefix
        self.on_held = held  # the recorder's HeldConnection, if it has one
        self._unlocks: dict[str, bytes] = {}  # each campaign's unlock statement, rendered
        self._turns: dict[UUID, threading.Lock] = {}
        self._guard = threading.Lock()
        size = getattr(getattr(datastore, "pool", None), "max_size", None)
        self.holders = max(1, size - 2) if isinstance(size, int) else 1
        self._holding = threading.BoundedSemaphore(self.holders)

    @contextlib.contextmanager
    def held(self, stream: UUID) -> Iterator[None]:
        key = f"{self.prefix}:write:{stream}"
        with self._guard:
            turn = self._turns.setdefault(stream, threading.Lock())
        with turn, self._holding, self.datastore.get_connection() as connection:
            connection.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
            unlock = self._unlock(connection, key)
            unlocked = False
            try:
                if self.on_held is None:
                    yield
                else:  # the holder's save sends the unlock after its COMMIT
                    with self.on_held.holding(connection, unlock):
                        try:
                            yield
                        finally:
                            unlocked = self.on_held.unlock() is None
            finally:
                if not unlocked:
                    connection.execute(unlock)

    def _unlock(self, connection: Any, key: str) -> bytes:
        """``SELECT pg_advisory_unlock(...)`` of ``key``, rendered once: sent alone, or after a
        holder's save in its query string."""
        if key not in self._unlocks:
            from psycopg.sql import SQL, Literal  # on the PostgreSQL path only

            statement = SQL("SELECT pg_advisory_unlock(hashtext({}))").format(Literal(key))
            self._unlocks[key] = statement.as_bytes(connection)
        return self._unlocks[key]


def write_lock_for(spec: str, store: CampaignStore) -> WriteLock:
    """The write lock of the store ``spec`` names."""
    if spec == MEMORY:
        return ThreadLock()
    if is_postgres(spec):
        datastore = store.factory.datastore  # type: ignore[attr-defined]
        held = getattr(store.recorder, "held", None)
        return AdvisoryLock(datastore, lock_key(environment_for(spec)), held)
    if fcntl is None or spec.startswith("file:"):
        return NoLock()
    return FileLock(f"{spec}-lock")
