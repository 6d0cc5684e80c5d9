"""Materialized read models: documents kept beside the log, with tracking, updated incrementally.

A read model (a projection) reads the application's notification log in order, one whole ruling
at a time, and keeps JSON documents under keys of its own choosing. Its position (the last
notification it processed) is committed with its documents in one transaction, so every ruling
counts exactly once: a writer whose position moved under it commits nothing and catches up again.
Catching up after one new ruling processes that ruling's events only.

SQLite keeps the documents in the store's own file, in tables of our own
(``readmodel_tracking``, ``readmodel_documents``: eventsourcing's recorders fix their table names,
so its tracking recorder would collide with a second projection). The in-memory store keeps them
beside the engine for as long as it lives. A read model whose ``version`` changed is rebuilt.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, cast

from domain.errors import DomainError
from domain.events import RulingMade
from engine.store.campaign_store import (
    MEMORY,
    CampaignStore,
    environment_for,
    is_postgres,
    lock_key,
)
from engine.store.recorders import durable
from engine.store.records import Recorded

if TYPE_CHECKING:  # the models are the readers': a command that reads none loads none
    from projections.documents import ReadModel

BATCH = 500

# A document as stored: ``json.dumps(document, sort_keys=True)``, with one encoder for all.
_encoded = json.JSONEncoder(sort_keys=True).encode


class ViewStore(Protocol):
    def tracking(self, name: str) -> tuple[int, int] | None: ...

    def document(self, name: str, key: str) -> Any: ...

    def reset(self, name: str, version: int) -> None: ...

    def restart(self, name: str, version: int, seen: tuple[int, int] | None) -> bool: ...

    def commit(self, name: str, expected: int, position: int, writes: dict[str, Any]) -> bool: ...

    def listed(self, name: str, after: str, limit: int) -> list[tuple[str, str]]: ...

    def adopt(
        self, name: str, at: tuple[int, int], position: int, bodies: Iterable[tuple[str, str]]
    ) -> bool: ...


def adoptable(tracked: tuple[int, int] | None, at: tuple[int, int]) -> bool:
    """Whether a read model tracked at ``tracked`` (position, version) stands at ``at``: or,
    never tracked, ``at`` is the start of the log (it would be built from there)."""
    return tracked == at or (tracked is None and at[0] == 0)


class MemoryViews:
    """Read models of an in-memory store: plain dictionaries (documents kept as JSON text, so a
    document read back is never the object a projection still holds)."""

    def __init__(self) -> None:
        self._tracking: dict[str, tuple[int, int]] = {}
        self._documents: dict[tuple[str, str], str] = {}

    def tracking(self, name: str) -> tuple[int, int] | None:
        return self._tracking.get(name)

    def document(self, name: str, key: str) -> Any:
        body = self._documents.get((name, key))
        return None if body is None else json.loads(body)

    def documents(self, name: str) -> dict[str, Any]:
        """Every document of a read model, by key (to compare two builds)."""
        return {k: json.loads(v) for (n, k), v in sorted(self._documents.items()) if n == name}

    def listed(self, name: str, after: str, limit: int) -> list[tuple[str, str]]:
        """A read model's documents as stored (JSON) in the order of their keys, the ``limit``
        after ``after``."""
        keys = sorted(k for n, k in self._documents if n == name and k > after)[:limit]
        return [(k, self._documents[(name, k)]) for k in keys]

    def reset(self, name: str, version: int) -> None:
        self._documents = {k: v for k, v in self._documents.items() if k[0] != name}
        self._tracking[name] = (0, version)

    def restart(self, name: str, version: int, seen: tuple[int, int] | None) -> bool:
        """Reset a read model that still stands where it was ``seen`` (None: never tracked);
        False, and nothing done, if another thread or process moved it meanwhile."""
        if self._tracking.get(name) != seen:
            return False
        self.reset(name, version)
        return True

    def commit(self, name: str, expected: int, position: int, writes: dict[str, Any]) -> bool:
        position_now, version = self._tracking[name]
        if position_now != expected:
            return False
        for key, value in writes.items():
            self._documents[(name, key)] = json.dumps(value, sort_keys=True)
        self._tracking[name] = (position, version)
        return True

    def adopt(
        self, name: str, at: tuple[int, int], position: int, bodies: Iterable[tuple[str, str]]
    ) -> bool:
        """Take documents computed elsewhere (JSON, by key) for the rulings after the position
        ``at`` names (with the version), up to ``position``: unless the read model stands
        elsewhere now (then nothing is written: it catches up by itself)."""
        if not adoptable(self._tracking.get(name), at):
            return False
        for key, body in bodies:
            self._documents[(name, key)] = body
        self._tracking[name] = (position, at[1])
        return True


SCHEMA = (
    "CREATE TABLE IF NOT EXISTS readmodel_tracking ("
    " projection TEXT PRIMARY KEY, position INTEGER NOT NULL, version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS readmodel_documents ("
    " projection TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL,"
    " PRIMARY KEY (projection, key))",
)


class SQLiteViews:
    """Read models in the store's SQLite file, in tables of their own: a connection per thread
    that reads them (a server's threads share one engine; a sqlite3 connection and its open
    transaction belong to one thread), as many as the threads, all closed with the engine."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._local = threading.local()
        self._opened: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        for statement in SCHEMA:
            self._connection.execute(statement)

    @property
    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            opened = sqlite3.connect(
                self._path, timeout=30, isolation_level=None, check_same_thread=False
            )
            connection = durable(opened)
            self._local.connection = connection
            with self._guard:
                self._opened.append(connection)
        return connection

    @property
    def connection(self) -> sqlite3.Connection:
        """This thread's connection to the documents (the search index reads through it)."""
        return self._connection

    def close(self) -> None:
        with self._guard:
            opened, self._opened = self._opened, []
        for connection in opened:
            connection.close()

    def tracking(self, name: str) -> tuple[int, int] | None:
        row = self._connection.execute(
            "SELECT position, version FROM readmodel_tracking WHERE projection = ?", (name,)
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def document(self, name: str, key: str) -> Any:
        row = self._connection.execute(
            "SELECT body FROM readmodel_documents WHERE projection = ? AND key = ?", (name, key)
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def listed(self, name: str, after: str, limit: int) -> list[tuple[str, str]]:
        """A read model's documents as stored (JSON) in the order of their keys, the ``limit``
        after ``after``."""
        rows = self._connection.execute(
            "SELECT key, body FROM readmodel_documents WHERE projection = ? AND key > ?"
            " ORDER BY key LIMIT ?",
            (name, after, limit),
        )
        return [(str(key), str(body)) for key, body in rows]

    def reset(self, name: str, version: int) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM readmodel_documents WHERE projection = ?", (name,))
            db.execute(
                "INSERT OR REPLACE INTO readmodel_tracking VALUES (?, 0, ?)", (name, version)
            )

    def restart(self, name: str, version: int, seen: tuple[int, int] | None) -> bool:
        """``MemoryViews.restart``, in one transaction."""
        with self._transaction() as db:
            if seen is None:
                moved = db.execute(
                    "INSERT OR IGNORE INTO readmodel_tracking VALUES (?, 0, ?)", (name, version)
                )
            else:
                moved = db.execute(
                    "UPDATE readmodel_tracking SET position = 0, version = ?"
                    " WHERE projection = ? AND position = ? AND version = ?",
                    (version, name, *seen),
                )
            if moved.rowcount != 1:
                db.execute("ROLLBACK")
                return False
            db.execute("DELETE FROM readmodel_documents WHERE projection = ?", (name,))
        return True

    def commit(self, name: str, expected: int, position: int, writes: dict[str, Any]) -> bool:
        """Write the documents and move the position, unless another process moved it first
        (then nothing is written: the caller catches up from the new position)."""
        with self._transaction() as db:
            moved = db.execute(
                "UPDATE readmodel_tracking SET position = ? WHERE projection = ? AND position = ?",
                (position, name, expected),
            )
            if moved.rowcount != 1:
                db.execute("ROLLBACK")
                return False
            db.executemany(
                "INSERT OR REPLACE INTO readmodel_documents VALUES (?, ?, ?)",
                [(name, k, _encoded(v)) for k, v in writes.items()],
            )
        return True

    def adopt(
        self, name: str, at: tuple[int, int], position: int, bodies: Iterable[tuple[str, str]]
    ) -> bool:
        """``MemoryViews.adopt``, in one transaction."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT position, version FROM readmodel_tracking WHERE projection = ?", (name,)
            ).fetchone()
            if not adoptable(None if row is None else (int(row[0]), int(row[1])), at):
                db.execute("ROLLBACK")
                return False
            db.execute(
                "INSERT OR REPLACE INTO readmodel_tracking VALUES (?, ?, ?)",
                (name, position, at[1]),
            )
            db.executemany(
                "INSERT OR REPLACE INTO readmodel_documents VALUES (?, ?, ?)",
                ((name, key, body) for key, body in bodies),
            )
        return True

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._connection
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        if db.in_transaction:
            db.execute("COMMIT")


class ReadModelsUnsupported(DomainError):
    template = (
        "recaps and timelines are kept in SQLite, PostgreSQL or memory stores, not {spec}:"
        " export the campaign and import it into a SQLite file to read them"
    )


class Cache:
    """The documents a batch reads and writes; written back with the batch's position."""

    def __init__(self, store: ViewStore, name: str) -> None:
        self._store = store
        self._name = name
        self.writes: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        if key in self.writes:
            return self.writes[key]
        return self._store.document(self._name, key)

    def put(self, key: str, value: Any) -> None:
        self.writes[key] = value


def complete(group: Sequence[Recorded]) -> bool:
    """Whether a group holds one whole ruling: its header and every event the header lists."""
    for record in group:  # asked again as each record comes: a loop, not generators
        header = record.event
        if isinstance(header, RulingMade):
            listed = 1
            for span in header.touched:
                listed += span.last - span.first + 1
            return len(group) == listed
    return False


def _rulings(store: Any, start: int, stop: int, batch: int) -> Iterator[tuple[int, list[Recorded]]]:
    """Whole rulings after notification ``start`` up to ``stop``, each with its last id."""
    group: list[Recorded] = []
    position = start
    while position < stop:
        notes = store.recorder.select_notifications(start=position + 1, limit=batch, stop=stop)
        if not notes:
            return
        for note in notes:
            group.append(cast("Recorded", store.mapper.to_domain_event(note)))
            if complete(group):
                yield note.id, group
                group = []
        position = notes[-1].id


class ReadModels:
    """The read models of one store: their documents kept beside its log (the same file, or the
    same memory), opened on first use and closed with the engine."""

    def __init__(self, db: str, store: CampaignStore) -> None:
        self._db = db
        self._store = store
        self._views: ViewStore | None = None
        self._opening = threading.Lock()

    @property
    def kept(self) -> bool:
        """Whether this store keeps read models (known without opening them)."""
        return is_postgres(self._db) or "://" not in self._db

    @property
    def views(self) -> ViewStore:
        views = self._views
        if views is not None:
            return views
        with self._opening:  # threads sharing the engine open one
            return self._open()

    def _open(self) -> ViewStore:
        if self._views is None:
            if is_postgres(self._db):
                from engine.reads.models_postgres import PostgresViews

                datastore = cast("Any", self._store.factory).datastore
                self._views = PostgresViews(datastore, lock_key(environment_for(self._db)))
            elif "://" in self._db:
                raise ReadModelsUnsupported(spec=self._db.partition("://")[0])
            elif self._db == MEMORY:
                self._views = MemoryViews()
            else:
                self._views = SQLiteViews(self._db)
        return self._views

    def close(self) -> None:
        views, self._views = self._views, None
        if isinstance(views, SQLiteViews):
            views.close()

    def catch_up(
        self,
        model: ReadModel,
        *,
        views: ViewStore | None = None,
        progress: Callable[[int, int], None] | None = None,
        batch: int = BATCH,
    ) -> int:
        """Bring ``model`` up to the end of the log; returns how many events it processed.

        ``progress(done, total)`` hears of every committed batch, in notification ids."""
        store = views or self.views
        tracked = store.tracking(model.name)
        while tracked is None or tracked[1] != model.version:
            # Reset only what this thread saw: a reset that followed another's reset and
            # catch-up would throw away documents a reader is reading (a session's head, then
            # its pages) and make it read the pages missing.
            if store.restart(model.name, model.version, tracked):
                tracked = (0, model.version)
            else:
                tracked = store.tracking(model.name)
        position = tracked[0]
        stop = self._store.recorder.max_notification_id() or 0
        processed = 0
        while position < stop:
            docs = Cache(store, model.name)
            reached, count = position, 0
            for last_id, group in _rulings(self._store, position, stop, batch):
                model.apply(docs, group)
                reached, count = last_id, count + len(group)
                if count >= batch:
                    break
            if reached == position:
                return processed  # only an unfinished ruling remains (being written right now)
            if store.commit(model.name, position, reached, docs.writes):
                processed += count
            now = store.tracking(model.name)
            position = now[0] if now else reached
            if progress is not None:
                progress(position, stop)
        return processed

    def rebuild(
        self, model: ReadModel, *, progress: Callable[[int, int], None] | None = None
    ) -> int:
        """Throw a read model's documents away and process the whole log again."""
        self.views.reset(model.name, model.version)
        return self.catch_up(model, progress=progress)

    def document(self, model: ReadModel, key: str, *, fresh: bool = True) -> Any:
        """One document of a read model, after catching up (unless ``fresh`` is False)."""
        if fresh:
            self.catch_up(model)
        return self.views.document(model.name, key)
