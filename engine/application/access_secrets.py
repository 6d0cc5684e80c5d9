"""Where the table server's sign-in secrets are kept: one-time invites, browser sessions and
bots' bearer tokens, each only as the SHA-256 of the secret, with the campaign and member it
signs in.

Not part of the log (a secret in the log would be in every export): a small table beside the
events in the same SQLite file or PostgreSQL schema, as the dice secrets are, or memory for an
in-memory store. Several server processes on one store share it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Collection
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from attrs import frozen

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


@frozen(kw_only=True)
class Grant:
    """One kept secret (by its hash): what it is (``invite``, ``session``, ``token``, or the
    store's servers' ``key`` or ``setting``, kept under its name with its value as ``member``),
    the campaign and member it signs in, and until when (None: until revoked)."""

    digest: str
    kind: str
    campaign: UUID
    member: str
    expires: datetime | None = None


class AccessSecrets(Protocol):
    def put(self, grant: Grant) -> None: ...

    def replace(self, grant: Grant) -> None:
        """Keep ``grant`` in place of any kept under its digest (a server's setting)."""
        ...

    def get(self, digest: str) -> Grant | None: ...

    def take(self, digest: str, kind: str) -> Grant | None:
        """The grant of kind ``kind`` stored under ``digest``, deleted as it is read (once)."""
        ...

    def revoke(self, campaign: UUID, member: str) -> int:
        """Delete every grant of a member of a campaign; how many there were."""
        ...

    def kept(self, digests: Collection[str]) -> dict[str, datetime | None]:
        """Those of ``digests`` still kept, each with its end (one indexed query for them all:
        a server checks its open streams' sign-ins with it every half second)."""
        ...


class MemoryAccess:
    def __init__(self) -> None:
        self._kept: dict[str, Grant] = {}
        self._lock = threading.Lock()

    def put(self, grant: Grant) -> None:
        with self._lock:
            self._kept.setdefault(grant.digest, grant)

    def replace(self, grant: Grant) -> None:
        with self._lock:
            self._kept[grant.digest] = grant

    def get(self, digest: str) -> Grant | None:
        return self._kept.get(digest)

    def take(self, digest: str, kind: str) -> Grant | None:
        with self._lock:
            grant = self._kept.get(digest)
            if grant is None or grant.kind != kind:
                return None
            return self._kept.pop(digest)

    def revoke(self, campaign: UUID, member: str) -> int:
        with self._lock:
            gone = [
                d for d, g in self._kept.items() if (g.campaign, g.member) == (campaign, member)
            ]
            for digest in gone:
                del self._kept[digest]
        return len(gone)

    def kept(self, digests: Collection[str]) -> dict[str, datetime | None]:
        found = ((d, self._kept.get(d)) for d in digests)
        return {d: g.expires for d, g in found if g is not None}


def _when(expires: Any) -> datetime | None:
    """A grant's end as kept: a timestamp (PostgreSQL), ISO text (SQLite) or none."""
    if isinstance(expires, str):
        return datetime.fromisoformat(expires)
    return expires if isinstance(expires, datetime) else None


def _grant(row: Any) -> Grant | None:
    if row is None:
        return None
    digest, kind, campaign, member, expires = row
    when = _when(expires)
    return Grant(
        digest=digest,
        kind=kind,
        campaign=campaign if isinstance(campaign, UUID) else UUID(campaign),
        member=member,
        expires=when,
    )


COLUMNS = "digest, kind, campaign, member, expires"


class SQLiteAccess:
    def __init__(self, path: str) -> None:
        self.path = path
        self._readers = threading.local()  # each thread's one connection for reads
        with self._connect() as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS access_secrets (digest TEXT PRIMARY KEY, kind TEXT, "
                "campaign TEXT, member TEXT, expires TEXT)"
            )

    def _connect(self) -> sqlite3.Connection:
        return durable(sqlite3.connect(self.path, timeout=30))

    def _reading(self) -> sqlite3.Connection:
        """This thread's connection for lookups, opened once (a request's sign-in check opened
        one each time): a read outside a transaction sees the latest commit."""
        connection: sqlite3.Connection | None = getattr(self._readers, "connection", None)
        if connection is None:
            connection = self._readers.connection = self._connect()
        return connection

    def put(self, grant: Grant) -> None:
        expires = grant.expires.isoformat() if grant.expires else None
        with self._connect() as connection:
            connection.execute(
                "INSERT OR IGNORE INTO access_secrets VALUES (?, ?, ?, ?, ?)",
                (grant.digest, grant.kind, grant.campaign.hex, grant.member, expires),
            )

    def replace(self, grant: Grant) -> None:
        expires = grant.expires.isoformat() if grant.expires else None
        with self._connect() as connection:
            connection.execute(
                "INSERT OR REPLACE INTO access_secrets VALUES (?, ?, ?, ?, ?)",
                (grant.digest, grant.kind, grant.campaign.hex, grant.member, expires),
            )

    def get(self, digest: str) -> Grant | None:
        row = (
            self._reading()
            .execute(f"SELECT {COLUMNS} FROM access_secrets WHERE digest=?", (digest,))
            .fetchone()
        )
        return _grant(row)

    def take(self, digest: str, kind: str) -> Grant | None:
        with self._connect() as connection:
            row = connection.execute(
                f"DELETE FROM access_secrets WHERE digest=? AND kind=? RETURNING {COLUMNS}",
                (digest, kind),
            ).fetchone()
        return _grant(row)

    def revoke(self, campaign: UUID, member: str) -> int:
        with self._connect() as connection:
            cursor = connection.execute(
                "DELETE FROM access_secrets WHERE campaign=? AND member=?", (campaign.hex, member)
            )
        return cursor.rowcount

    def kept(self, digests: Collection[str]) -> dict[str, datetime | None]:
        if not digests:
            return {}
        rows = (  # the digests as one JSON parameter, any count
            self._reading()
            .execute(
                "SELECT digest, expires FROM access_secrets "
                "WHERE digest IN (SELECT value FROM json_each(?))",
                (json.dumps(list(digests)),),
            )
            .fetchall()
        )
        return {digest: _when(expires) for digest, expires in rows}


class PostgresAccess:
    """The table ``campaignlog_access_secrets`` in the store's schema, through the store's pool."""

    def __init__(self, datastore: Datastore, key: str) -> None:
        from psycopg.sql import SQL, Identifier  # only on the PostgreSQL path

        self.datastore = datastore
        table = Identifier(datastore.schema, f"{PREFIX}_access_secrets")
        create = SQL(
            "CREATE TABLE IF NOT EXISTS {} (digest text PRIMARY KEY, kind text, campaign uuid, "
            "member text, expires timestamptz)"
        ).format(table)
        self._put = SQL("INSERT INTO {} VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING").format(
            table
        )
        self._replace = SQL(
            "INSERT INTO {} VALUES (%s, %s, %s, %s, %s) ON CONFLICT (digest) DO UPDATE SET "
            "kind = EXCLUDED.kind, campaign = EXCLUDED.campaign, member = EXCLUDED.member, "
            "expires = EXCLUDED.expires"
        ).format(table)
        self._get = SQL(f"SELECT {COLUMNS} FROM {{}} WHERE digest = %s").format(table)
        self._take = SQL(
            f"DELETE FROM {{}} WHERE digest = %s AND kind = %s RETURNING {COLUMNS}"
        ).format(table)
        self._revoke = SQL("DELETE FROM {} WHERE campaign = %s AND member = %s").format(table)
        self._kept = SQL(  # a join, not ANY: ANY scans its array once per row it reads
            "SELECT digest, expires FROM unnest(%s::text[]) AS asked(digest) JOIN {} USING (digest)"
        ).format(table)
        with self._cursor() as cursor:  # under the lock the store's tables are created with
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
            cursor.execute(create)

    def _cursor(self) -> AbstractContextManager[Any]:
        return self.datastore.transaction(commit=True)

    def put(self, grant: Grant) -> None:
        with self._cursor() as cursor:
            values = (grant.digest, grant.kind, grant.campaign, grant.member, grant.expires)
            cursor.execute(self._put, values)

    def replace(self, grant: Grant) -> None:
        with self._cursor() as cursor:
            values = (grant.digest, grant.kind, grant.campaign, grant.member, grant.expires)
            cursor.execute(self._replace, values)

    def _reading(self) -> AbstractContextManager[Any]:
        """A pooled connection's cursor for one read: a statement of its own (the pool's
        connections commit each one), no BEGIN and COMMIT around it."""
        return self.datastore.cursor()

    def _one(self, statement: Any, values: tuple[Any, ...], *, read: bool = False) -> Grant | None:
        with self._reading() if read else self._cursor() as cursor:
            cursor.execute(statement, values)
            row = cursor.fetchone()
        return _grant(None if row is None else tuple(row[c] for c in COLUMNS.split(", ")))

    def get(self, digest: str) -> Grant | None:
        return self._one(self._get, (digest,), read=True)  # every request's: one round trip

    def take(self, digest: str, kind: str) -> Grant | None:
        return self._one(self._take, (digest, kind))

    def revoke(self, campaign: UUID, member: str) -> int:
        with self._cursor() as cursor:
            cursor.execute(self._revoke, (campaign, member))
            return int(cursor.rowcount)

    def kept(self, digests: Collection[str]) -> dict[str, datetime | None]:
        if not digests:
            return {}
        with self._reading() as cursor:
            cursor.execute(self._kept, (list(digests),))
            rows = cursor.fetchall()
        return {row["digest"]: _when(row["expires"]) for row in rows}


def access_for(spec: str, store: CampaignStore) -> AccessSecrets:
    """The sign-in secrets table beside the store's events (memory for an in-memory store)."""
    if spec == MEMORY:
        return MemoryAccess()
    if is_postgres(spec):
        datastore = store.factory.datastore  # type: ignore[attr-defined]
        return PostgresAccess(datastore, lock_key(environment_for(spec)))
    return SQLiteAccess(spec)
