"""The engines a server process reads and writes through: one per worker thread (an engine's
connections belong to the thread that opened them), all on the one store. Everything lives in
the store, nothing in the process, so several processes may serve one PostgreSQL database."""

from __future__ import annotations

import contextlib
import threading

from domain.errors import DomainError
from engine import MEMORY, Engine


class NothingToServe(DomainError):
    template = (
        "an in-memory store (:memory:) is gone when the server stops and cannot be shared by "
        "its threads: serve a SQLite file or a PostgreSQL database"
    )


class Engines:
    def __init__(self, db: str) -> None:
        if db == MEMORY:
            raise NothingToServe()
        self.db = db
        self._local = threading.local()
        self._opened: list[Engine] = []
        self._lock = threading.Lock()

    def get(self) -> Engine:
        """This thread's engine, opened the first time the thread asks (the store must exist:
        `campaign init` or `campaign import` makes it)."""
        engine: Engine | None = getattr(self._local, "engine", None)
        if engine is None:
            engine = Engine(self.db, create=False)
            self._local.engine = engine
            with self._lock:
                self._opened.append(engine)
        return engine

    def close(self) -> None:
        with self._lock:
            opened, self._opened = self._opened, []
        for engine in opened:
            with contextlib.suppress(Exception):  # a SQLite connection of another thread
                engine.close()
