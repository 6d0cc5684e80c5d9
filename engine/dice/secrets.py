"""Where the GM's machine keeps each session's secret dice seed until the session ends.

Not part of the log (it would reveal every roll before the session ends): a small table beside
the events in the same SQLite file or PostgreSQL schema, or memory for an in-memory store.
"""

from __future__ import annotations

import sqlite3
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
from engine.store.recorders import durable


class DiceSecrets(Protocol):
    """A session's secret seed, kept from the first time it is put (a retried or raced session
    start reuses it, so the commitment recorded always matches the secret kept)."""

    def put(self, campaign: UUID, session: int, secret: bytes, entropy: str) -> None: ...

    def get(self, campaign: UUID, session: int) -> tuple[bytes, str] | None: ...

    def renew(self, campaign: UUID, session: int, old: bytes, new: bytes) -> None:
        """Replace the session's secret ``old`` by ``new`` (a session started again after its
        first start, committed to ``old``, was undone: ``old`` must never be committed to
        twice). A secret other than ``old`` is kept: another writer renewed it first."""
        ...


class MemorySecrets:
    def __init__(self) -> None:
        self._kept: dict[tuple[UUID, int], tuple[bytes, str]] = {}

    def put(self, campaign: UUID, session: int, secret: bytes, entropy: str) -> None:
        self._kept.setdefault((campaign, session), (secret, entropy))

    def get(self, campaign: UUID, session: int) -> tuple[bytes, str] | None:
        return self._kept.get((campaign, session))

    def renew(self, campaign: UUID, session: int, old: bytes, new: bytes) -> None:
        kept = self._kept.get((campaign, session))
        if kept is not None and kept[0] == old:
            self._kept[(campaign, session)] = (new, kept[1])


class SQLiteSecrets:
    def __init__(self, path: str) -> None:
        self.path = path
        with self._connect() as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS dice_secrets (campaign TEXT, session INTEGER, "
                "secret BLOB, entropy TEXT, PRIMARY KEY (campaign, session))"
            )

    def _connect(self) -> sqlite3.Connection:
        return durable(sqlite3.connect(self.path, timeout=30))

    def put(self, campaign: UUID, session: int, secret: bytes, entropy: str) -> None:
        with self._connect() as connection:
            connection.execute(
                "INSERT OR IGNORE INTO dice_secrets VALUES (?, ?, ?, ?)",
                (campaign.hex, session, secret, entropy),
            )

    def get(self, campaign: UUID, session: int) -> tuple[bytes, str] | None:
        with self._connect() as connection:
            row = connection.execute(
                "SELECT secret, entropy FROM dice_secrets WHERE campaign=? AND session=?",
                (campaign.hex, session),
            ).fetchone()
        return (bytes(row[0]), str(row[1])) if row else None

    def renew(self, campaign: UUID, session: int, old: bytes, new: bytes) -> None:
        with self._connect() as connection:
            connection.execute(
                "UPDATE dice_secrets SET secret=? WHERE campaign=? AND session=? AND secret=?",
                (new, campaign.hex, session, old),
            )


class PostgresSecrets:
    """The table ``campaignlog_dice_secrets`` in the store's schema, through the store's pool."""

    def __init__(self, datastore: Datastore, key: str) -> None:
        from psycopg.sql import SQL, Identifier  # only on the PostgreSQL path

        self.datastore = datastore
        table = Identifier(datastore.schema, f"{PREFIX}_dice_secrets")
        self._create = SQL(
            "CREATE TABLE IF NOT EXISTS {} (campaign uuid, session integer, secret bytea, "
            "entropy text, PRIMARY KEY (campaign, session))"
        ).format(table)
        self._put = SQL(
            "INSERT INTO {} VALUES (%s, %s, %s, %s) ON CONFLICT (campaign, session) DO NOTHING"
        ).format(table)
        self._get = SQL(
            "SELECT secret, entropy FROM {} WHERE campaign = %s AND session = %s"
        ).format(table)
        self._renew = SQL(
            "UPDATE {} SET secret = %s WHERE campaign = %s AND session = %s AND secret = %s"
        ).format(table)
        with self._cursor() as cursor:  # under the lock the store's tables are created with
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
            cursor.execute(self._create)

    def _cursor(self) -> AbstractContextManager[Any]:
        return self.datastore.transaction(commit=True)

    def put(self, campaign: UUID, session: int, secret: bytes, entropy: str) -> None:
        with self._cursor() as cursor:
            cursor.execute(self._put, (campaign, session, secret, entropy))

    def get(self, campaign: UUID, session: int) -> tuple[bytes, str] | None:
        with self._cursor() as cursor:
            cursor.execute(self._get, (campaign, session))
            row = cursor.fetchone()
        return (bytes(row["secret"]), str(row["entropy"])) if row else None

    def renew(self, campaign: UUID, session: int, old: bytes, new: bytes) -> None:
        with self._cursor() as cursor:
            cursor.execute(self._renew, (new, campaign, session, old))


def secrets_for(spec: str, store: CampaignStore) -> DiceSecrets:
    """The secrets table beside the store's events (memory for an in-memory store)."""
    if spec == MEMORY:
        return MemorySecrets()
    if is_postgres(spec):
        datastore = store.factory.datastore  # type: ignore[attr-defined]
        return PostgresSecrets(datastore, lock_key(environment_for(spec)))
    return SQLiteSecrets(spec)
