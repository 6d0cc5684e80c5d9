"""Where each member's read positions are kept: for a campaign, a member and a session (0: the
rulings before the first session), the last ruling of that session's thread they were shown. A
position only moves forward (a member reading an older page does not lose their place).

Not part of the log (what a member has read is not what happened at the table, and is no one
else's business): a small table beside the events in the same SQLite file or PostgreSQL schema,
as the sign-in secrets and the replies are, or memory for an in-memory store. Several server
processes on one store share it.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import AbstractContextManager
from typing import Any, Protocol
from uuid import UUID

from engine.store.campaign_store import (
    MEMORY,
    PREFIX,
    CampaignStore,
    Datastore,
    environment_for,
    is_postgres,
    lock_key,
)


class ReadPositions(Protocol):
    def mark(self, campaign: UUID, member: str, session: int, ruling: int) -> int:
        """Keep that ``member`` read ``session`` up to ``ruling`` unless they read further
        already; the position kept now."""
        ...

    def positions(self, campaign: UUID, member: str) -> dict[int, int]:
        """Each session's position of ``member`` (a session they never read is left out)."""
        ...


class MemoryPositions:
    def __init__(self) -> None:
        self._kept: dict[tuple[UUID, str, int], int] = {}
        self._lock = threading.Lock()

    def mark(self, campaign: UUID, member: str, session: int, ruling: int) -> int:
        with self._lock:
            key = (campaign, member, session)
            self._kept[key] = max(self._kept.get(key, 0), ruling)
            return self._kept[key]

    def positions(self, campaign: UUID, member: str) -> dict[int, int]:
        with self._lock:
            return {s: r for (c, m, s), r in self._kept.items() if (c, m) == (campaign, member)}


class SQLitePositions:
    def __init__(self, path: str) -> None:
        self.path = path
        self._readers = threading.local()  # each thread's one connection for reads
        with self._connect() as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS read_positions (campaign TEXT, member TEXT, "
                "session INTEGER, ruling INTEGER, PRIMARY KEY (campaign, member, session))"
            )

    def _connect(self) -> sqlite3.Connection:
        # Not waited onto the disk (a place lost in a power cut is read again, nothing worse).
        connection = sqlite3.connect(self.path, timeout=30)
        connection.execute("PRAGMA synchronous=NORMAL")
        return connection

    def _reading(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._readers, "connection", None)
        if connection is None:
            connection = self._readers.connection = self._connect()
        return connection

    def mark(self, campaign: UUID, member: str, session: int, ruling: int) -> int:
        with self._connect() as connection:
            row = connection.execute(
                "INSERT INTO read_positions VALUES (?, ?, ?, ?) "
                "ON CONFLICT (campaign, member, session) "
                "DO UPDATE SET ruling = max(ruling, excluded.ruling) RETURNING ruling",
                (campaign.hex, member, session, ruling),
            ).fetchone()
        return int(row[0])

    def positions(self, campaign: UUID, member: str) -> dict[int, int]:
        rows = (
            self._reading()
            .execute(
                "SELECT session, ruling FROM read_positions WHERE campaign=? AND member=?",
                (campaign.hex, member),
            )
            .fetchall()
        )
        return {int(session): int(ruling) for session, ruling in rows}


class PostgresPositions:
    """The table ``campaignlog_read_positions`` in the store's schema, through its pool."""

    def __init__(self, datastore: Datastore, key: str) -> None:
        from psycopg.sql import SQL, Identifier  # only on the PostgreSQL path

        self.datastore = datastore
        table = Identifier(datastore.schema, f"{PREFIX}_read_positions")
        create = SQL(
            "CREATE TABLE IF NOT EXISTS {} (campaign uuid, member text, session integer, "
            "ruling integer, PRIMARY KEY (campaign, member, session))"
        ).format(table)
        self._mark = SQL(
            "INSERT INTO {} AS kept VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (campaign, member, session) "
            "DO UPDATE SET ruling = GREATEST(kept.ruling, EXCLUDED.ruling) RETURNING ruling"
        ).format(table)
        self._positions = SQL(
            "SELECT session, ruling FROM {} WHERE campaign = %s AND member = %s"
        ).format(table)
        with self._cursor() as cursor:  # under the lock the store's tables are created with
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
            cursor.execute(create)

    def _cursor(self) -> AbstractContextManager[Any]:
        return self.datastore.transaction(commit=True)

    def mark(self, campaign: UUID, member: str, session: int, ruling: int) -> int:
        with self._cursor() as cursor:
            cursor.execute(self._mark, (campaign, member, session, ruling))
            return int(cursor.fetchone()["ruling"])

    def positions(self, campaign: UUID, member: str) -> dict[int, int]:
        with self._cursor() as cursor:
            cursor.execute(self._positions, (campaign, member))
            rows = cursor.fetchall()
        return {int(row["session"]): int(row["ruling"]) for row in rows}


def positions_for(spec: str, store: CampaignStore) -> ReadPositions:
    """The read positions table beside the store's events (memory for an in-memory store)."""
    if spec == MEMORY:
        return MemoryPositions()
    if is_postgres(spec):
        datastore = store.factory.datastore  # type: ignore[attr-defined]
        return PostgresPositions(datastore, lock_key(environment_for(spec)))
    return SQLitePositions(spec)
