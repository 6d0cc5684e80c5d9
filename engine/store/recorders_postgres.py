"""The store's PostgreSQL event recorder: eventsourcing's own, inserting plain rows.

The library inserts a save in pipeline mode as one array of a composite type, which psycopg
dumps in Python (escaping every byte of every state), and reads each notification id back. This
recorder keeps what its transaction promises (the table lock that keeps notification ids in
commit order, the ``NOTIFY`` for listeners) in one round trip, then inserts plain rows:
``executemany`` for a command's save, ``COPY`` for a large one (measured here, pipeline mode
made a two-event save slower, not faster). Like ``engine.store.recorders.BulkSQLiteRecorder`` it
picks rows by topic in SQL (``topics=``), returns a save's notification ids (read from the last one:
the table lock gives the save consecutive ids), and reads a stream id given as text as a UUID.
Imported only on the PostgreSQL path (it needs psycopg).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg import ClientCursor, Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Composed, Identifier

from engine.store.recorders import TopicFilter, stream_id

COPY_FROM = 500  # a save of this many events or more goes in by COPY


class CampaignPostgresRecorder(PostgresApplicationRecorder, TopicFilter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        table = Identifier(self.datastore.schema, self.events_table_name)
        columns = SQL("(originator_id, originator_version, topic, state)")
        self._table, self._columns = table, columns
        self._inserts: dict[int, Composed] = {}  # one multi-row INSERT per save size
        self._saves: dict[int, Composed] = {}  # and its whole transaction, as one query
        self._copy_rows = SQL("COPY {} {} FROM STDIN").format(table, columns)
        # The library's table lock and notification, sent as one round trip (no parameters).
        self._prelude = SQL("; ").join([*self.lock_table_statements, self._notification()])
        self._select = SQL(
            "SELECT originator_version, topic, state FROM {} WHERE originator_id = %s"
        ).format(table)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's
    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        if not stored_events:
            return []
        rows = [
            (stream_id(s.originator_id), s.originator_version, s.topic, s.state)
            for s in stored_events
        ]
        if len(rows) < COPY_FROM:  # a command's save: the whole transaction in one round trip
            with self.datastore.get_connection() as conn, ClientCursor(conn) as curs:
                # BEGIN, the lock and notification, the INSERT returning its ids, COMMIT: one
                # query string (bound here, not by the server: a query of several statements
                # takes no server-side parameters). A failed statement aborts the rest, and the
                # connection leaves the pool rolled back (psycopg ends an open transaction).
                curs.execute(self._saved(len(rows)), [value for row in rows for value in row])
                while curs.description is None and curs.nextset():
                    pass  # to the INSERT's result: its ids
                return self._fetch_ids_after_insert_events(curs, stored_events, returning=True)
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            curs.execute(self._prelude)
            with curs.copy(self._copy_rows) as copy:
                for row in rows:
                    copy.write_row(row)
            return self._fetch_ids_after_insert_events(curs, stored_events, returning=False)

    def insert_pages(self, pages: Iterable[Sequence[StoredEvent]]) -> tuple[int, int]:
        """Insert many pages of rows in one transaction (an import), by ``COPY``: all or none.
        Not retried: the pages are read once. Returns the notification ids of the first and the
        last row written (the table is locked: they are the ids after the last one before)."""
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            curs.execute(self._prelude)
            before = self._max_id(curs)
            with curs.copy(self._copy_rows) as copy:
                for page in pages:
                    for s in page:
                        copy.write_row(
                            (stream_id(s.originator_id), s.originator_version, s.topic, s.state)
                        )
            after = self._max_id(curs)
        return (before + 1, after) if after > before else (0, 0)

    def _max_id(self, curs: Cursor[DictRow]) -> int:
        curs.execute(self.max_notification_id_statement)
        found = curs.fetchone()
        return int(found["max"] or 0) if found else 0

    def _insert(self, count: int) -> Composed:
        """``INSERT`` of ``count`` rows returning their notification ids (kept per size)."""
        if count not in self._inserts:
            values = SQL(", ").join([SQL("(%s, %s, %s, %s)")] * count)
            self._inserts[count] = SQL(
                "INSERT INTO {} {} VALUES {} RETURNING notification_id"
            ).format(self._table, self._columns, values)
        return self._inserts[count]

    def _saved(self, count: int) -> Composed:
        """A save of ``count`` rows as one query string: its transaction whole (kept per size)."""
        if count not in self._saves:
            parts = [SQL("BEGIN"), self._prelude, self._insert(count), SQL("COMMIT")]
            self._saves[count] = SQL("; ").join(parts)
        return self._saves[count]

    def _notification(self) -> Composed:
        return SQL("NOTIFY {}").format(Identifier(self.channel_name))

    def _fetch_ids_after_insert_events(
        self,
        curs: Cursor[DictRow],
        stored_events: Sequence[StoredEvent],
        *,
        returning: bool = False,
        **_: Any,
    ) -> Sequence[int]:
        """The save's ids, as SQLite's recorder gives them: those its ``INSERT`` returned; or,
        after a ``COPY``, read from the largest: the table is locked (EXCLUSIVE) from before the
        first row to the commit, so the save's rows took consecutive ids ending there."""
        if returning:
            return sorted(int(found["notification_id"]) for found in curs.fetchall())
        curs.execute(self.max_notification_id_statement, prepare=True)
        row = curs.fetchone()
        last: int = row["max"] if row is not None else 0
        return list(range(last - len(stored_events) + 1, last + 1))

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
        parts: list[Composed | SQL] = [self._select]
        params: list[Any] = [stream]
        for clause, value in (
            (" AND originator_version > %s", gt),
            (" AND originator_version <= %s", lte),
            (" AND topic = ANY(%s)", list(topics) or None),
        ):
            if value is not None:
                parts.append(SQL(clause))
                params.append(value)
        parts.append(
            SQL(" ORDER BY originator_version DESC" if desc else " ORDER BY originator_version")
        )
        if limit is not None:
            parts.append(SQL(" LIMIT %s"))
            params.append(limit)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(SQL("").join(parts), params, prepare=True)
            return [
                StoredEvent(
                    originator_id=stream,
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=bytes(row["state"]),
                )
                for row in curs.fetchall()
            ]
