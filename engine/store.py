"""Where the log lives: a SQLite file by default, PostgreSQL for a shared server, memory for tests.

The store is chosen only by the spec given here (``--db`` / ``CAMPAIGN_DB``), never by stray
eventsourcing environment variables: an unset ``PERSISTENCE_MODULE`` would silently mean memory.
SQLite runs in WAL mode (the library's choice) with ``synchronous=FULL``: a recorded ruling
survives a power cut. A ``postgresql://`` URL selects eventsourcing's own postgres module; psycopg
is an optional extra and is imported only when such a URL is opened.
"""

from __future__ import annotations

import getpass
import importlib.util
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import EventStore
from eventsourcing.utils import Environment

from domain.errors import DomainError
from engine.mapper import EventMapper, SnapshotMapper

MEMORY = ":memory:"
DEFAULT_DB = "campaign.db"
POSTGRES_SCHEMES = ("postgresql", "postgres")
PREFIX = "campaignlog"  # PostgreSQL table names start with it: campaignlog_events, ...


class UnsupportedStore(DomainError):
    template = (
        "{spec!r} is not a store this version opens: give a SQLite file path, :memory: or "
        "postgresql://user@host:port/dbname"
    )


class StoreUnreadable(DomainError):
    template = "cannot open the store at {spec!r}: {problem}"


class PostgresNotInstalled(DomainError):
    template = (
        "{spec!r} needs the PostgreSQL extra, which is not installed: "
        "pip install 'campaign-log[postgres]'"
    )


def is_postgres(spec: str) -> bool:
    return spec.partition("://")[0].lower() in POSTGRES_SCHEMES and "://" in spec


def shown(spec: str) -> str:
    """The spec as it may be printed: a URL's password is masked."""
    if not is_postgres(spec):
        return spec
    parts = urlsplit(spec)
    if parts.password is None:
        return spec
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{user}:***@{host}").geturl()


def postgres_environment(spec: str) -> dict[str, str]:
    """``postgresql://user:password@host:port/dbname?schema=NAME`` as the library's settings.

    Missing parts default as libpq's do: user = the login name, host = localhost, port = 5432;
    ``?host=/var/run/postgresql`` reaches a local socket. The schema must exist already."""
    parts = urlsplit(spec)
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname:
        raise StoreUnreadable(spec=shown(spec), problem="the URL names no database (…/dbname)")
    try:
        port = str(parts.port or 5432)
    except ValueError as error:
        raise StoreUnreadable(spec=shown(spec), problem=str(error)) from error
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": query.get("host") or unquote(parts.hostname or "") or "localhost",
        "POSTGRES_PORT": port,
        "POSTGRES_USER": unquote(parts.username or "") or getpass.getuser(),
        # An empty password lets libpq fall back to PGPASSWORD or ~/.pgpass.
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_SCHEMA": query.get("schema", ""),
        "APPLICATION_RECORDER_TOPIC": "engine.recorders_postgres:CampaignPostgresRecorder",
        "POSTGRES_CONNECT_TIMEOUT": query.get("connect_timeout", "10"),
        # One connection per process is what a command uses; a few more for a bot's threads.
        "POSTGRES_POOL_SIZE": "1",
        "POSTGRES_MAX_OVERFLOW": "4",
        "IS_SNAPSHOTTING_ENABLED": "y",
    }


def environment_for(spec: str) -> dict[str, str]:
    if spec == MEMORY:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo", "IS_SNAPSHOTTING_ENABLED": "y"}
    if is_postgres(spec):
        if importlib.util.find_spec("psycopg") is None:
            raise PostgresNotInstalled(spec=shown(spec))
        return postgres_environment(spec)
    if "://" in spec:
        raise UnsupportedStore(spec=shown(spec))
    path = Path(spec)
    if path.is_dir():
        raise StoreUnreadable(spec=spec, problem="it is a folder, not a file")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "30",
        "APPLICATION_RECORDER_TOPIC": "engine.recorders:BulkSQLiteRecorder",
        "IS_SNAPSHOTTING_ENABLED": "y",
    }


class CampaignStore(Application[UUID]):
    """The eventsourcing application holding every campaign of one store."""

    name = "CampaignLog"

    def construct_env(self, name: str, env: Any = None) -> Environment:
        return Environment(name, dict(env or {}))

    def construct_mapper(self) -> EventMapper:
        return EventMapper()

    def construct_snapshot_store(self) -> EventStore[UUID]:
        recorder = self.factory.aggregate_recorder(purpose="snapshots")
        return EventStore(mapper=SnapshotMapper(), recorder=recorder)


def lock_key(env: dict[str, str]) -> str:
    """The advisory lock under which a PostgreSQL store creates its tables."""
    return f"{PREFIX}:{env['POSTGRES_DBNAME']}:{env['POSTGRES_SCHEMA'] or 'public'}"


def _open_postgres(env: dict[str, str]) -> CampaignStore:
    """Open under an advisory lock: the library creates its tables and replaces its insert
    function on every open, and two processes doing that at once fail ("tuple concurrently
    updated"). The lock is released when its connection closes."""
    import psycopg  # only on the PostgreSQL path

    with psycopg.connect(
        dbname=env["POSTGRES_DBNAME"],
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"] or None,
        connect_timeout=int(env["POSTGRES_CONNECT_TIMEOUT"]),
        autocommit=True,
    ) as guard:
        guard.execute("SELECT pg_advisory_lock(hashtext(%s))", (lock_key(env),))
        return CampaignStore(env=env)


def open_store(spec: str) -> CampaignStore:
    env = environment_for(spec)
    try:
        if is_postgres(spec):
            return _open_postgres(env)
        return CampaignStore(env=env)
    except Exception as error:  # sqlite3, psycopg and OS errors surface as a one-line refusal
        problem = " ".join(str(error).split()) or type(error).__name__
        raise StoreUnreadable(spec=shown(spec), problem=problem) from error
