"""Where the replies to requests answered once are kept: each request's key (a Discord
interaction's id) with the reply it was given, so a replay of the request gets that reply again
and runs nothing.

Not part of the log (a reply is what a front end said, not what happened at the table): a small
table beside the events in the same SQLite file or PostgreSQL schema, as the sign-in secrets
are, or memory for an in-memory store. Several server processes on one store share it. A key is
claimed (its reply empty) before the request runs, so of two copies arriving at once only one
runs; a reply is kept a while (``Once.answer_once``), then forgotten.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime
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


class Replies(Protocol):
    def claim(self, key: str, at: datetime, forget_before: datetime) -> bool:
        """Whether ``key`` was claimed now (False: it was claimed before); the replies claimed
        before ``forget_before`` are forgotten first."""
        ...

    def keep(self, key: str, reply: str) -> None:
        """The reply of a claimed key."""
        ...

    def reply(self, key: str) -> str | None:
        """The reply kept for ``key`` (None: none yet, or never claimed)."""
        ...


class MemoryReplies:
    def __init__(self) -> None:
        self._kept: dict[str, tuple[datetime, str | None]] = {}
        self._lock = threading.Lock()

    def claim(self, key: str, at: datetime, forget_before: datetime) -> bool:
        with self._lock:
            for old in [k for k, (when, _) in self._kept.items() if when < forget_before]:
                del self._kept[old]
            if key in self._kept:
                return False
            self._kept[key] = (at, None)
            return True

    def keep(self, key: str, reply: str) -> None:
        with self._lock:
            at, _ = self._kept[key]
            self._kept[key] = (at, reply)

    def reply(self, key: str) -> str | None:
        return self._kept.get(key, (None, None))[1]


class SQLiteReplies:
    def __init__(self, path: str) -> None:
        self.path = path
        with self._connect() as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS request_replies (key TEXT PRIMARY KEY, at TEXT, "
                "reply TEXT)"
            )
            connection.execute(
                "CREATE INDEX IF NOT EXISTS request_replies_at ON request_replies (at)"
            )

    def _connect(self) -> sqlite3.Connection:
        return durable(sqlite3.connect(self.path, timeout=30))

    def claim(self, key: str, at: datetime, forget_before: datetime) -> bool:
        with self._connect() as connection:
            connection.execute(
                "DELETE FROM request_replies WHERE at < ?", (forget_before.isoformat(),)
            )
            cursor = connection.execute(
                "INSERT OR IGNORE INTO request_replies VALUES (?, ?, NULL)", (key, at.isoformat())
            )
        return cursor.rowcount == 1

    def keep(self, key: str, reply: str) -> None:
        # Not waited onto the disk: a reply lost in a crash leaves its claim, and a copy of the
        # request is then refused, never run again (the claim is on the disk before it runs).
        with sqlite3.connect(self.path, timeout=30) as connection:
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute("UPDATE request_replies SET reply=? WHERE key=?", (reply, key))

    def reply(self, key: str) -> str | None:
        with self._connect() as connection:
            row = connection.execute(
                "SELECT reply FROM request_replies WHERE key=?", (key,)
            ).fetchone()
        return None if row is None else row[0]


class PostgresReplies:
    """The table ``campaignlog_request_replies`` in the store's schema, through its pool."""

    def __init__(self, datastore: Datastore, key: str) -> None:
        from psycopg.sql import SQL, Identifier  # only on the PostgreSQL path

        self.datastore = datastore
        table = Identifier(datastore.schema, f"{PREFIX}_request_replies")
        create = SQL(
            "CREATE TABLE IF NOT EXISTS {} (key text PRIMARY KEY, at timestamptz, reply text)"
        ).format(table)
        self._forget = SQL("DELETE FROM {} WHERE at < %s").format(table)
        self._claim = SQL("INSERT INTO {} VALUES (%s, %s, NULL) ON CONFLICT DO NOTHING").format(
            table
        )
        self._keep = SQL("UPDATE {} SET reply = %s WHERE key = %s").format(table)
        self._reply = SQL("SELECT reply FROM {} WHERE key = %s").format(table)
        index = SQL("CREATE INDEX IF NOT EXISTS {} ON {} (at)").format(
            Identifier(f"{PREFIX}_request_replies_at"), table
        )
        with self._cursor() as cursor:  # under the lock the store's tables are created with
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
            cursor.execute(create)
            cursor.execute(index)

    def _cursor(self) -> Any:
        return self.datastore.transaction(commit=True)

    def claim(self, key: str, at: datetime, forget_before: datetime) -> bool:
        with self._cursor() as cursor:
            cursor.execute(self._forget, (forget_before,))
            cursor.execute(self._claim, (key, at))
            return int(cursor.rowcount) == 1

    def keep(self, key: str, reply: str) -> None:
        with self._cursor() as cursor:
            cursor.execute(self._keep, (reply, key))

    def reply(self, key: str) -> str | None:
        with self._cursor() as cursor:
            cursor.execute(self._reply, (key,))
            row = cursor.fetchone()
        return None if row is None else row["reply"]


def replies_for(spec: str, store: CampaignStore) -> Replies:
    """The replies table beside the store's events (memory for an in-memory store)."""
    if spec == MEMORY:
        return MemoryReplies()
    if is_postgres(spec):
        datastore = store.factory.datastore  # type: ignore[attr-defined]
        return PostgresReplies(datastore, lock_key(environment_for(spec)))
    return SQLiteReplies(spec)
