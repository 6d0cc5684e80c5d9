"""The engine a server process reads and writes through: one for the whole process, shared by
its worker threads, on one pool of connections to the store. Everything lives in the store,
nothing in the process, so several processes may serve one PostgreSQL database.

The pool's size (``--pool``, ``CAMPAIGN_POOL``) bounds what the process holds: on PostgreSQL at
most that many connections, ever (one listens for new rulings, ``web.live``; a write holds one for
the campaign's lock and uses another, ``engine.store.write_lock``); and the worker threads that run
the requests' store work are as many (``threads``), so a request waits for a thread, not for a
connection. On a SQLite file the threads are bounded the same way (SQLite's connections are the
file's, not a server's).

On a SQLite file a request's write runs on the serving loop's own thread when the store's lock is
free (``write``), and on the process's one writer thread (``writers``) when it is not: the file
takes one writer at a time, so writers on more threads would only wait for its lock, each
competing for the interpreter as it waits and as it writes (measured with 32 players rolling at
once, one writer thread made some 12% more rulings a second than five). The loop writes itself
because handing each write to a thread and back cost more than the write: the two threads took
the interpreter's lock from each other at every call into SQLite. With 32 players rolling at
once that made 1.34 ms of CPU a ruling on the loop and the writer together (650 a second), and
0.96 ms with the loop writing (920 a second). A write holds the loop for its own time (0.8-1 ms
at the p50 on a local disk, its sign-in, reads, insert and commit; up to 15 ms when its commit
checkpoints SQLite's log), during which the loop's other requests wait, as they waited for the
interpreter before. What would hold it longer goes to the writer thread before anything is
saved (``engine.not_waiting``): the store's lock held by another writer (a CLI, another process),
or a save that lost a race and would back off before its retry; and a write that reads the
campaign's whole history (``whole_history``: a session's end, a correction) goes there at once.
(SQLite's own lock, which a write of a side table takes without the store's lock, a sign-in's
session or a notice, one statement each, is waited for on the loop, in SQLite's busy handler.)
A pool of one has no thread to spare: its one thread does every write."""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from domain.errors import DomainError
from engine import MEMORY, Engine, WouldWait, is_postgres, not_waiting

Done = TypeVar("Done")

POOL = 5  # the default: connections a server process holds at most, and its worker threads
POOL_VARIABLE = "CAMPAIGN_POOL"
POSTGRES_LEAST = 3  # a listener, a write's lock and the write itself


class NothingToServe(DomainError):
    template = (
        "an in-memory store (:memory:) is gone when the server stops and cannot be shared by "
        "its threads: serve a SQLite file or a PostgreSQL database"
    )


class PoolTooSmall(DomainError):
    template = (
        "a server on PostgreSQL needs a pool of {least} connections or more (one listens for "
        "new rulings, one holds a write's lock while another writes), not {pool}"
    )


def pool_size(given: int | None = None) -> int:
    """The pool size asked for: ``given``, else ``CAMPAIGN_POOL``, else ``POOL``."""
    if given is not None:
        return given
    found = os.environ.get(POOL_VARIABLE, "").strip()
    return int(found) if found.isdigit() and int(found) > 0 else POOL


class Engines:
    """The process's one engine, opened the first time it is asked for (the store must exist:
    `campaign init` or `campaign import` makes it), closed when the server stops."""

    def __init__(self, db: str, pool: int | None = None) -> None:
        if db == MEMORY:
            raise NothingToServe()
        self.db = db
        self.pool = pool_size(pool)
        if is_postgres(db) and self.pool < POSTGRES_LEAST:
            raise PoolTooSmall(least=POSTGRES_LEAST, pool=self.pool)
        self._engine: Engine | None = None
        self._lock = threading.Lock()
        self._writer: ThreadPoolExecutor | None = None

    @property
    def threads(self) -> int:
        """How many worker threads may run store work at once, the writer's among them."""
        return self.pool

    @property
    def writers(self) -> int:
        """How many of ``threads`` run writes alone: one on a SQLite file with a pool of two or
        more (see the module docstring), else none (writes run with the rest)."""
        return 1 if not is_postgres(self.db) and self.pool > 1 else 0

    def start_writer(self) -> None:
        """At startup: the writer's thread (when there is one)."""
        if self.writers and self._writer is None:
            self._writer = ThreadPoolExecutor(self.writers, thread_name_prefix="campaign-writer")

    async def write(self, work: Callable[[], Done], *, whole_history: bool = False) -> Done:
        """``work`` (a request's write: its sign-in, its command). Where there is a writer
        thread, on this loop's thread when it need not wait (see the module docstring), else on
        the writer's thread; where there is none, on the worker threads. On a thread, in the
        caller's context, as Litestar runs a sync handler. ``whole_history``: the write reads
        as much of the campaign's history as there is (a session's end seals it, a correction
        replays what came after the ruling it corrects), so it goes to the writer's thread at
        once, not to hold the loop that long."""
        if self._writer is not None and not whole_history:
            try:
                with not_waiting():
                    return work()
            except WouldWait:
                pass  # another writer holds the store: this one waits on the writer's thread
        bound = partial(contextvars.copy_context().run, work)
        return await asyncio.get_running_loop().run_in_executor(self._writer, bound)

    def get(self) -> Engine:
        engine = self._engine
        if engine is not None:
            return engine
        with self._lock:
            if self._engine is None:
                self._engine = Engine(self.db, create=False, pool=self.pool)
            return self._engine

    def close(self) -> None:
        with self._lock:
            engine, self._engine = self._engine, None
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.shutdown(wait=True)
        if engine is not None:
            engine.close()
