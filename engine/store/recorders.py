"""The store's event recorders: eventsourcing's own, with a bulk insert and a topic filter.

``BulkSQLiteRecorder`` (SQLite) differs from the library's application recorder in three ways:
- a save's events go in with one statement in the same transaction (the library runs one
  ``execute`` per event to read each notification id back): a ruling's few rows as one
  multi-row ``INSERT``, a long import's pages with ``executemany``; the ids are derived from the
  last one: a save holds the write lock, so its rows get consecutive rowids ending at the last
  rowid inserted;
- ``select_events`` can keep only some topics (``topics=``), filtered in SQL: replay looks for a
  long stream's undos and amendments without reading every event into Python;
- the rows of one stream share the ``UUID`` asked for instead of parsing one per row; a stream
  id given as a string is read as a UUID on the way in as on the way out (stored as its hex).
``TopicFilter`` marks a recorder that takes ``topics=`` (the PostgreSQL one does too).
``DurableSQLiteFactory`` is the library's SQLite factory with ``synchronous=FULL`` set on every
connection it opens (``durable`` does the same for the store's other SQLite connections): in WAL
mode a build may default to NORMAL, which can lose the last commits in a power cut.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteFactory,
)
from eventsourcing.utils import Environment, EnvType


def durable(connection: sqlite3.Connection) -> sqlite3.Connection:
    """``connection`` with ``synchronous=FULL``: a commit is on the disk when it returns."""
    connection.execute("PRAGMA synchronous=FULL")
    return connection


def stream_id(originator_id: UUID | str) -> UUID:
    """A stream id as the stores keep it: a ``UUID``, whether given as one or as its text."""
    return originator_id if isinstance(originator_id, UUID) else UUID(originator_id)


class DurableSQLiteConnectionPool(SQLiteConnectionPool):
    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        durable(connection._sqlite_conn)
        return connection


class ScratchSQLiteConnectionPool(SQLiteConnectionPool):
    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        connection._sqlite_conn.execute("PRAGMA synchronous=OFF")
        return connection


class DurableSQLiteFactory(SQLiteFactory):
    """The library's SQLite factory whose connections all run with ``synchronous=FULL``."""

    pool_class: type[SQLiteConnectionPool] = DurableSQLiteConnectionPool

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        plain = self.datastore.pool  # no connection opened yet: replaced by a durable one
        self.datastore.pool = self.pool_class(
            db_name=plain.db_name,
            lock_timeout=plain.lock_timeout,
            pool_size=plain.pool_size,
            max_overflow=plain.max_overflow,
            pool_timeout=plain.pool_timeout,
            max_age=plain.max_age,
            pre_ping=plain.pre_ping,
        )
        plain.close()


class ScratchSQLiteFactory(DurableSQLiteFactory):
    """For a file nobody keeps (the rows an import checks before it writes them to the store):
    its commits need not reach the disk, which makes writing and reading them back cheaper."""

    pool_class = ScratchSQLiteConnectionPool


class TopicFilter:
    """A recorder whose ``select_events`` takes ``topics=`` (only events of those topics)."""

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
        topics: Sequence[str] = (),
    ) -> Sequence[StoredEvent]:
        raise NotImplementedError


ONE_STATEMENT = 32  # a save of up to this many rows is one INSERT (4 values a row)


@functools.cache
def rows_insert(table: str, count: int) -> str:
    """The INSERT of ``count`` rows of ``table`` in one statement (made once per count)."""
    return f"INSERT INTO {table} VALUES {', '.join(['(?,?,?,?)'] * count)}"


class BulkSQLiteRecorder(SQLiteApplicationRecorder, TopicFilter):
    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: Any
    ) -> Sequence[int] | None:
        if not stored_events:
            return []
        hexes: dict[Any, str] = {}  # a save's rows share few streams: each id written once
        rows = []
        for s in stored_events:
            stream = s.originator_id
            name = hexes.get(stream)
            if name is None:
                name = hexes[stream] = stream_id(stream).hex
            rows.append((name, s.originator_version, s.topic, s.state))
        last: int
        if len(rows) <= ONE_STATEMENT:  # a ruling's few rows: one statement, its last rowid
            statement = rows_insert(self.events_table_name, len(rows))
            c.execute(statement, [value for row in rows for value in row])
            last = c.lastrowid
        else:
            c.executemany(self.insert_events_statement, rows)
            c.execute("SELECT last_insert_rowid()")
            last = c.fetchone()[0]
        return list(range(last - len(stored_events) + 1, last + 1))

    def insert_pages(self, pages: Iterable[Sequence[StoredEvent]]) -> tuple[int, int]:
        """Insert many pages of rows in one transaction (an import): all or none of them.
        Returns the notification ids of the first and the last row written."""
        first = last = 0
        with self.datastore.transaction(commit=True) as c:
            for page in pages:
                written = self._insert_events(c, page)
                if written:
                    first, last = first or written[0], written[-1]
        return first, last

    def insert_copied(self, first: Sequence[StoredEvent], path: str, table: str) -> tuple[int, int]:
        """``insert_pages`` of ``first``, then of every row of ``table`` in the SQLite file at
        ``path`` in the order written (an import's scratch store): copied by SQLite itself, in
        the same transaction. Returns the notification ids of the first and the last row."""
        columns = "originator_id, originator_version, topic, state"
        with self.datastore.get_connection(commit=True) as conn:
            conn.cursor().execute("ATTACH DATABASE ? AS scratch", (path,))
            try:
                with conn.transaction(commit=True) as c:
                    written = self._insert_events(c, first)
                    c.execute(
                        f"INSERT INTO {self.events_table_name} ({columns}) "
                        f"SELECT {columns} FROM scratch.{table} ORDER BY rowid"
                    )
                    c.execute("SELECT last_insert_rowid()")
                    last: int = c.fetchone()[0]
            finally:
                with contextlib.suppress(sqlite3.Error):
                    conn.cursor().execute("DETACH DATABASE scratch")
        return (written[0] if written else last), last

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
        topics: Sequence[str] = (),
    ) -> Sequence[StoredEvent]:
        stream = stream_id(originator_id)
        statement = (
            f"SELECT originator_version, topic, state FROM {self.events_table_name} "
            "WHERE originator_id=?"
        )
        params: list[Any] = [stream.hex]
        if gt is not None:
            statement += " AND originator_version>?"
            params.append(gt)
        if lte is not None:
            statement += " AND originator_version<=?"
            params.append(lte)
        if topics:
            statement += f" AND topic IN ({','.join('?' * len(topics))})"
            params.extend(topics)
        statement += " ORDER BY originator_version " + ("DESC" if desc else "ASC")
        if limit is not None:
            statement += " LIMIT ?"
            params.append(limit)
        # One SELECT reads one snapshot of the file by itself (the connection is in autocommit
        # mode): no BEGIN and ROLLBACK around it, as a transaction of several statements needs.
        with self.datastore.get_connection(commit=False) as connection, connection.cursor() as c:
            c.execute(statement, params)
            return [
                StoredEvent(
                    originator_id=stream,
                    originator_version=version,
                    topic=topic,
                    state=state,
                )
                for version, topic, state in c.fetchall()
            ]
