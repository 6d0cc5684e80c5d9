"""Where the server's notices keep what they must remember (``engine.application.notices``): each
member's choices and address, how far each campaign's notices were claimed, the notices waiting
for a member's next mail, and when each member was last mailed. One small table of keys and
values beside the events, in the same SQLite file or PostgreSQL schema as the sign-in secrets
(memory for an in-memory store); several server processes on one store share it.

Not part of the log: an address in the log would be in every export, and what a server told
whom is not what happened at the table. Every change that two processes could race for is a
compare-and-swap (``swap``): of two processes that read the same value, one writes its own and
the other is told it lost, so each notice is claimed once."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any, Protocol

from engine.store.campaign_store import (
    MEMORY,
    PREFIX,
    CampaignStore,
    Datastore,
    environment_for,
    is_postgres,
    lock_key,
)
from engine.store.recorders import durable


class Marks(Protocol):
    def get(self, key: str) -> str | None:
        """The value kept under ``key`` (None: none)."""
        ...

    def swap(self, key: str, old: str | None, new: str) -> bool:
        """Keep ``new`` under ``key`` if ``old`` is what it holds now (None: nothing yet);
        whether it was kept (False: another writer changed it first)."""
        ...

    def keys(self, prefix: str) -> list[str]:
        """The keys that begin with ``prefix``, in order."""
        ...


class MemoryMarks:
    def __init__(self) -> None:
        self._kept: dict[str, str] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        return self._kept.get(key)

    def swap(self, key: str, old: str | None, new: str) -> bool:
        with self._lock:
            if self._kept.get(key) != old:
                return False
            self._kept[key] = new
            return True

    def keys(self, prefix: str) -> list[str]:
        return sorted(k for k in list(self._kept) if k.startswith(prefix))


class SQLiteMarks:
    def __init__(self, path: str) -> None:
        self.path = path
        with self._connect() as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS notice_marks (key TEXT PRIMARY KEY, value TEXT)"
            )

    def _connect(self) -> sqlite3.Connection:
        return durable(sqlite3.connect(self.path, timeout=30))

    def get(self, key: str) -> str | None:
        with self._connect() as connection:
            found = connection.execute("SELECT value FROM notice_marks WHERE key=?", (key,))
            row = found.fetchone()
        return None if row is None else str(row[0])

    def swap(self, key: str, old: str | None, new: str) -> bool:
        with self._connect() as connection:
            if old is None:
                cursor = connection.execute(
                    "INSERT OR IGNORE INTO notice_marks VALUES (?, ?)", (key, new)
                )
            else:
                cursor = connection.execute(
                    "UPDATE notice_marks SET value=? WHERE key=? AND value=?", (new, key, old)
                )
        return cursor.rowcount == 1

    def keys(self, prefix: str) -> list[str]:
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT key FROM notice_marks WHERE substr(key, 1, ?) = ? ORDER BY key",
                (len(prefix), prefix),
            ).fetchall()
        return [str(row[0]) for row in rows]


class PostgresMarks:
    """The table ``campaignlog_notice_marks`` in the store's schema, through its pool."""

    def __init__(self, datastore: Datastore, key: str) -> None:
        from psycopg.sql import SQL, Identifier  # only on the PostgreSQL path

        self.datastore = datastore
        table = Identifier(datastore.schema, f"{PREFIX}_notice_marks")
        create = SQL("CREATE TABLE IF NOT EXISTS {} (key text PRIMARY KEY, value text)").format(
            table
        )
        self._get = SQL("SELECT value FROM {} WHERE key = %s").format(table)
        self._insert = SQL("INSERT INTO {} VALUES (%s, %s) ON CONFLICT DO NOTHING").format(table)
        self._update = SQL("UPDATE {} SET value = %s WHERE key = %s AND value = %s").format(table)
        self._keys = SQL("SELECT key FROM {} WHERE left(key, %s) = %s ORDER BY key").format(table)
        with self._cursor() as cursor:  # under the lock the store's tables are created with
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
            cursor.execute(create)

    def _cursor(self) -> Any:
        return self.datastore.transaction(commit=True)

    def get(self, key: str) -> str | None:
        with self._cursor() as cursor:
            cursor.execute(self._get, (key,))
            row = cursor.fetchone()
        return None if row is None else str(row["value"])

    def swap(self, key: str, old: str | None, new: str) -> bool:
        with self._cursor() as cursor:
            if old is None:
                cursor.execute(self._insert, (key, new))
            else:
                cursor.execute(self._update, (new, key, old))
            return int(cursor.rowcount) == 1

    def keys(self, prefix: str) -> list[str]:
        with self._cursor() as cursor:
            cursor.execute(self._keys, (len(prefix), prefix))
            return [str(row["key"]) for row in cursor.fetchall()]


def marks_for(spec: str, store: CampaignStore) -> Marks:
    """The notices' table beside the store's events (memory for an in-memory store)."""
    if spec == MEMORY:
        return MemoryMarks()
    if is_postgres(spec):
        datastore = store.factory.datastore  # type: ignore[attr-defined]
        return PostgresMarks(datastore, lock_key(environment_for(spec)))
    return SQLiteMarks(spec)
