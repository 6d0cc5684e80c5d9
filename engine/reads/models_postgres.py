"""Read models in a PostgreSQL store: two tables of their own in the store's schema, written
through the store's connection pool (the same promise as the SQLite ones: the documents and the
position move together, once)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import Any

from engine.reads.models import adoptable
from engine.store.campaign_store import PREFIX, Datastore


class PostgresViews:
    def __init__(self, datastore: Datastore, key: str) -> None:
        from psycopg.sql import SQL, Identifier  # only on the PostgreSQL path

        self._datastore = datastore
        tracking = Identifier(datastore.schema, f"{PREFIX}_readmodel_tracking")
        documents = Identifier(datastore.schema, f"{PREFIX}_readmodel_documents")
        self._tracking = SQL("SELECT position, version FROM {} WHERE projection = %s").format(
            tracking
        )
        self._document = SQL("SELECT body FROM {} WHERE projection = %s AND key = %s").format(
            documents
        )
        self._listed = SQL(
            'SELECT key, body FROM {} WHERE projection = %s AND key COLLATE "C" > %s'
            ' ORDER BY key COLLATE "C" LIMIT %s'
        ).format(documents)
        self._clear = SQL("DELETE FROM {} WHERE projection = %s").format(documents)
        self._reset = SQL(
            "INSERT INTO {} VALUES (%s, 0, %s) ON CONFLICT (projection) "
            "DO UPDATE SET position = 0, version = EXCLUDED.version"
        ).format(tracking)
        self._begin = SQL(
            "INSERT INTO {} VALUES (%s, 0, %s) ON CONFLICT (projection) DO NOTHING"
        ).format(tracking)
        self._restart = SQL(
            "UPDATE {} SET position = 0, version = %s"
            " WHERE projection = %s AND position = %s AND version = %s"
        ).format(tracking)
        self._move = SQL(
            "UPDATE {} SET position = %s WHERE projection = %s AND position = %s"
        ).format(tracking)
        self._adopt = SQL(
            "INSERT INTO {} VALUES (%s, %s, %s) ON CONFLICT (projection) "
            "DO UPDATE SET position = EXCLUDED.position"
        ).format(tracking)
        self._held = SQL(
            "SELECT position, version FROM {} WHERE projection = %s FOR UPDATE"
        ).format(tracking)
        self._write = SQL(
            "INSERT INTO {} VALUES (%s, %s, %s) ON CONFLICT (projection, key) "
            "DO UPDATE SET body = EXCLUDED.body"
        ).format(documents)
        with self._cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (projection text PRIMARY KEY, "
                    "position bigint NOT NULL, version integer NOT NULL)"
                ).format(tracking)
            )
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (projection text, key text, body text NOT NULL, "
                    "PRIMARY KEY (projection, key))"
                ).format(documents)
            )

    @property
    def datastore(self) -> Datastore:
        """The store's datastore (its pool), which the search index queries through."""
        return self._datastore

    def _cursor(self) -> AbstractContextManager[Any]:
        return self._datastore.transaction(commit=True)

    def tracking(self, name: str) -> tuple[int, int] | None:
        with self._cursor() as cursor:
            cursor.execute(self._tracking, (name,))
            row = cursor.fetchone()
        return None if row is None else (int(row["position"]), int(row["version"]))

    def document(self, name: str, key: str) -> Any:
        with self._cursor() as cursor:
            cursor.execute(self._document, (name, key))
            row = cursor.fetchone()
        return None if row is None else json.loads(row["body"])

    def listed(self, name: str, after: str, limit: int) -> list[tuple[str, str]]:
        """A read model's documents as stored (JSON) in the order of their keys (byte by byte,
        as SQLite orders them), the ``limit`` after ``after``."""
        with self._cursor() as cursor:
            cursor.execute(self._listed, (name, after, limit))
            rows = cursor.fetchall()
        return [(str(row["key"]), str(row["body"])) for row in rows]

    def reset(self, name: str, version: int) -> None:
        with self._cursor() as cursor:
            cursor.execute(self._clear, (name,))
            cursor.execute(self._reset, (name, version))

    def restart(self, name: str, version: int, seen: tuple[int, int] | None) -> bool:
        """``MemoryViews.restart``, in one transaction: the tracking row is written (and so held)
        before the documents are deleted, so no other's commit falls between."""
        try:
            with self._cursor() as cursor:
                if seen is None:
                    cursor.execute(self._begin, (name, version))
                else:
                    cursor.execute(self._restart, (version, name, *seen))
                if cursor.rowcount != 1:
                    raise _Moved
                cursor.execute(self._clear, (name,))
        except _Moved:
            return False
        return True

    def commit(self, name: str, expected: int, position: int, writes: dict[str, Any]) -> bool:
        """Write the documents and move the position, unless another process moved it first."""
        try:
            with self._cursor() as cursor:
                cursor.execute(self._move, (position, name, expected))
                if cursor.rowcount != 1:
                    raise _Moved  # leaving the transaction by an exception rolls it back
                cursor.executemany(
                    self._write,
                    [(name, k, json.dumps(v, sort_keys=True)) for k, v in writes.items()],
                )
        except _Moved:
            return False
        return True

    def adopt(
        self, name: str, at: tuple[int, int], position: int, bodies: Iterable[tuple[str, str]]
    ) -> bool:
        """``MemoryViews.adopt``, in one transaction."""
        try:
            with self._cursor() as cursor:
                cursor.execute(self._held, (name,))
                row = cursor.fetchone()
                tracked = None if row is None else (int(row["position"]), int(row["version"]))
                if not adoptable(tracked, at):
                    raise _Moved
                cursor.execute(self._adopt, (name, position, at[1]))
                cursor.executemany(self._write, ((name, key, body) for key, body in bodies))
        except _Moved:
            return False
        return True


class _Moved(Exception):
    """Another process moved the read model's position first."""
