"""The store's PostgreSQL event recorder: eventsourcing's own, inserting plain rows.

The library inserts a save in pipeline mode as one array of a composite type, which psycopg
dumps in Python (escaping every byte of every state), and reads each notification id back. This
recorder keeps what its transaction promises (the table lock that keeps notification ids in
commit order, the ``NOTIFY`` for listeners) in one round trip, then inserts plain rows:
``executemany`` for a command's save, ``COPY`` for a large one (measured here, pipeline mode
made a two-event save slower, not faster). Like ``engine.store.recorders.BulkSQLiteRecorder`` it
picks rows by topic in SQL (``topics=``), returns a save's notification ids (read from the last one:
the table lock gives the save consecutive ids), and reads a stream id given as text as a UUID.

A thread that holds a campaign's write lock (``engine.store.write_lock.AdvisoryLock``) holds it
on a connection of the pool, and reads and saves on that connection (``held``): a holder never
waits for a second connection, which 32 players' sign-ins kept busy (py-spy: a fifth of a
ruling's time under the lock went to waiting for one).
Imported only on the PostgreSQL path (it needs psycopg).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing import persistence
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg import ClientCursor, Connection, Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Composed, Identifier

from engine.store.recorders import TopicFilter, stream_id

COPY_FROM = 500  # a save of this many events or more goes in by COPY

# psycopg's errors as the library's (what its datastore raises, and the ledger catches).
LIBRARY_ERRORS: tuple[tuple[type[psycopg.Error], type[Exception]], ...] = (
    (psycopg.IntegrityError, persistence.IntegrityError),
    (psycopg.InterfaceError, persistence.InterfaceError),
    (psycopg.OperationalError, persistence.OperationalError),
    (psycopg.DataError, persistence.DataError),
    (psycopg.InternalError, persistence.InternalError),
    (psycopg.ProgrammingError, persistence.ProgrammingError),
    (psycopg.NotSupportedError, persistence.NotSupportedError),
    (psycopg.DatabaseError, persistence.DatabaseError),
)


class HeldConnection:
    """The connection this thread holds a write lock on, if it holds one, and the statement
    that lets the lock go: sent with the holder's first save, after its ``COMMIT`` (one round
    trip fewer a ruling), so the lock's ``finally`` has nothing left to send."""

    def __init__(self) -> None:
        self._local = threading.local()

    def get(self) -> Connection[Any] | None:
        return getattr(self._local, "connection", None)

    def unlock(self) -> bytes | None:
        """The unlock to send with this thread's next save (None: none, or sent already)."""
        return getattr(self._local, "unlock", None)

    def unlocked(self) -> None:
        """The save that carried the unlock went through: the lock is let go."""
        self._local.unlock = None

    @contextlib.contextmanager
    def holding(self, connection: Connection[Any], unlock: bytes | None = None) -> Iterator[None]:
        """This thread's reads and saves in the block go through ``connection``; its first save
        sends ``unlock`` after its ``COMMIT`` (``unlock()`` is None after it)."""
        self._local.connection, self._local.unlock = connection, unlock
        try:
            yield
        finally:
            self._local.connection = None
            self._local.unlock = None


@contextlib.contextmanager
def on_held(connection: Connection[Any]) -> Iterator[Connection[Any]]:
    """``connection`` (a lock holder's) for one read or save: psycopg's errors raised as the
    library's, and a transaction a failed statement left open rolled back, so the holder's
    next statement (its retry's read, its unlock) runs."""
    try:
        yield connection
    except psycopg.Error as error:
        if connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            with contextlib.suppress(psycopg.Error):
                connection.rollback()
        for theirs, ours in LIBRARY_ERRORS:
            if isinstance(error, theirs):
                raise ours(str(error)) from error
        raise


class CampaignPostgresRecorder(PostgresApplicationRecorder, TopicFilter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        table = Identifier(self.datastore.schema, self.events_table_name)
        columns = SQL("(originator_id, originator_version, topic, state)")
        self._table, self._columns = table, columns
        self._inserts: dict[int, Composed] = {}  # one multi-row INSERT per save size
        self._saves: dict[int, bytes] = {}  # and its whole transaction, as one query
        self._copy_rows = SQL("COPY {} {} FROM STDIN").format(table, columns)
        # The library's table lock and notification, sent as one round trip (no parameters).
        self._prelude = SQL("; ").join([*self.lock_table_statements, self._notification()])
        self._select = SQL(
            "SELECT originator_version, topic, state FROM {} WHERE originator_id = %s"
        ).format(table)
        self.held = HeldConnection()
        self._rendered: dict[tuple[bool, ...], bytes] = {}  # by shape (``_selecting``)

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Connection[Any]]:
        """The connection this thread holds a write lock on, else one of the pool."""
        held = self.held.get()
        if held is None:
            with self.datastore.get_connection() as conn:
                yield conn
        else:
            with on_held(held) as conn:
                yield conn

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """A save: on a lock holder's connection once (a failure there is the holder's to
        retry, on fresh state), else on one of the pool, retried as the library does."""
        if self.held.get() is not None:
            return self._write(stored_events)
        written: Sequence[int] | None = self._write_retried(stored_events)
        return written

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's
    def _write_retried(self, stored_events: Sequence[StoredEvent]) -> Sequence[int] | None:
        return self._write(stored_events)

    def _write(self, stored_events: Sequence[StoredEvent]) -> Sequence[int] | None:
        if not stored_events:
            return []
        rows = [
            (stream_id(s.originator_id), s.originator_version, s.topic, s.state)
            for s in stored_events
        ]
        if len(rows) < COPY_FROM:  # a command's save: the whole transaction in one round trip
            with self._connection() as conn, ClientCursor(conn) as curs:
                # BEGIN, the lock and notification, the INSERT returning its ids, COMMIT (and a
                # holder's unlock): one query string (bound here, not by the server: a query of
                # several statements takes no server-side parameters). A failed statement
                # aborts the rest (the unlock too: the lock's own ``finally`` sends it), and the
                # transaction it leaves open is rolled back: by the pool as the connection goes
                # back (psycopg ends an open transaction), or at once on a holder's (``on_held``).
                query, unlock = self._saved(conn, len(rows)), self.held.unlock()
                params = [value for row in rows for value in row]
                curs.execute(query + b"; " + unlock if unlock else query, params)
                if unlock:
                    self.held.unlocked()
                while curs.description is None and curs.nextset():
                    pass  # to the INSERT's result: its ids
                return self._fetch_ids_after_insert_events(curs, stored_events, returning=True)
        with self._connection() as conn, conn.transaction(), conn.cursor() as curs:
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

    def _selecting(self, conn: Connection[Any], shape: tuple[bool, ...]) -> bytes:
        """The ``SELECT`` of ``select_events`` for one shape of its arguments (which of ``gt``,
        ``lte``, ``topics`` are given, ``desc``, whether ``limit`` is), rendered once: psycopg
        renders a composed query on every execute (measured: 13 us of a head read's 80 or so
        on the client; 55 us for a save's transaction)."""
        if shape not in self._rendered:
            more_than, at_most, of_topics, desc, limited = shape
            parts: list[Composed | SQL] = [self._select]
            for clause, given in (
                (" AND originator_version > %s", more_than),
                (" AND originator_version <= %s", at_most),
                (" AND topic = ANY(%s)", of_topics),
            ):
                if given:
                    parts.append(SQL(clause))
            order = " ORDER BY originator_version" + (" DESC" if desc else "")
            parts.append(SQL(order + (" LIMIT %s" if limited else "")))
            self._rendered[shape] = SQL("").join(parts).as_bytes(conn)
        return self._rendered[shape]

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

    def _saved(self, conn: Connection[Any], count: int) -> bytes:
        """A save of ``count`` rows as one query string: its transaction whole (rendered once
        per size)."""
        if count not in self._saves:
            parts = [SQL("BEGIN"), self._prelude, self._insert(count), SQL("COMMIT")]
            self._saves[count] = SQL("; ").join(parts).as_bytes(conn)
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
        params: list[Any] = [stream]
        shape = []
        for value in (gt, lte, list(topics) or None):
            shape.append(value is not None)
            if value is not None:
                params.append(value)
        if limit is not None:
            params.append(limit)
        with self._connection() as conn, conn.cursor() as curs:
            query = self._selecting(conn, (*shape, desc, limit is not None))
            curs.execute(query, params, prepare=True)
            return [
                StoredEvent(
                    originator_id=stream,
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=bytes(row["state"]),
                )
                for row in curs.fetchall()
            ]
