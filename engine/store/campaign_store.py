"""Where the log lives: a SQLite file by default, PostgreSQL for a shared server, memory for tests.

The store is chosen only by the spec given here (``--db`` / ``CAMPAIGN_DB``), never by stray
eventsourcing environment variables: an unset ``PERSISTENCE_MODULE`` would silently mean memory.
SQLite runs in WAL mode (the library's choice) with ``synchronous=FULL`` (set on every connection
by ``engine.store.recorders.DurableSQLiteFactory``): a recorded ruling survives a power cut. A
``postgresql://`` URL selects eventsourcing's own postgres module; psycopg is an optional extra
and is imported only when such a URL is opened. What fails under a command (a full disk, a
damaged file, a read-only store, a lock held too long, a server gone) becomes one ``StoreFault``
(``store_fault``): a ``domain.errors.Fault``, not a refusal: a line with a stable code, exit 1,
HTTP 503. No fault's message or data holds a URL's password.
"""

from __future__ import annotations

import errno
import getpass
import importlib.util
import sqlite3
import traceback
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import EventStore, PersistenceError
from eventsourcing.utils import Environment

from domain.errors import DomainError, ErrorKind, Fault
from engine.store.mapper import EventMapper, SnapshotMapper

MEMORY = ":memory:"
DEFAULT_DB = "campaign.db"
POSTGRES_SCHEMES = ("postgresql", "postgres")
PREFIX = "campaignlog"  # PostgreSQL table names start with it: campaignlog_events, ...


class UnsupportedStore(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "{spec!r} is not a store this version opens: give a SQLite file path, :memory: or "
        "postgresql://user@host:port/dbname"
    )


class StoreFault(Fault):
    """The store failed under a command: not a rule refusing it (a refusal exits 2) but the disk,
    the file or the server (exit 1). A ruling is still recorded whole or not at all."""

    template = "the store at {spec!r} failed: {problem}"


class NoSuchStore(DomainError):
    """A SQLite store that is not there: only `campaign init` and `campaign import` make one,
    so a mistyped --db does not leave an empty store behind."""

    kind = ErrorKind.BAD_INPUT
    template = (
        "there is no store at {spec!r}{why} (`campaign init NAME --system ...` or "
        "`campaign import FILE` creates one; --db or CAMPAIGN_DB chooses another)"
    )


class StoreUnreadable(StoreFault):
    template = "cannot open the store at {spec!r}: {problem}"


class StoreFull(StoreFault):
    template = "the disk holding {spec!r} is full ({problem}): free some space and try again"


class StoreCorrupt(StoreFault):
    template = (
        "{spec!r} is damaged or is not a campaign store ({problem}): restore it from a backup"
    )


class StoreReadOnly(StoreFault):
    template = (
        "{spec!r} cannot be written ({problem}): check the permissions of the file, its folder "
        "and the disk, or the server's"
    )


class StoreLocked(StoreFault):
    template = (
        "{spec!r} stayed locked by another writer ({problem}): try again when it has finished"
    )


class StoredEventUnreadable(StoreFault):
    template = (
        "a stored event of {spec!r} does not read back ({problem}): the store is damaged or was "
        "written by another program; restore it from a backup"
    )


class StoredLogDamaged(StoreFault):
    """Rows that read back but do not hold together as the engine wrote them (a header that
    claims a row the store does not hold, a campaign listed at an empty stream)."""

    template = (
        "the stored log is damaged: {problem}; `campaign verify` names every place that does "
        "not hold: restore the store from a backup"
    )


class StoreUnreachable(StoreFault):
    template = "the server of {spec!r} stopped answering ({problem}): try again when it answers"


# What each fault says in sqlite3's, PostgreSQL's or the OS's words (lowercase), first match wins.
_FAULT_WORDS: tuple[tuple[type[StoreFault], tuple[str, ...]], ...] = (
    (StoreFull, ("database or disk is full", "no space left on device", "disk quota exceeded")),
    (
        StoreCorrupt,
        (
            "file is not a database",
            "database disk image is malformed",
            "database corrupt",
            "could not decode to utf-8",
        ),
    ),
    (StoreReadOnly, ("readonly database", "read-only", "permission denied")),
    (StoreLocked, ("database is locked", "database table is locked", "lock timeout")),
)
_FAULT_ERRNOS = {errno.ENOSPC: StoreFull, errno.EDQUOT: StoreFull, errno.EROFS: StoreReadOnly}


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error`` and the errors under it (the library wraps sqlite3's and psycopg's)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _is_store_error(error: BaseException) -> bool:
    return isinstance(error, sqlite3.Error | PersistenceError) or type(error).__module__.startswith(
        ("psycopg", "psycopg_pool")
    )


# Where stored rows are read back into Python: the library's mappers and its reading of a row's
# stream id, and engine.store.mapper's readers.
_DECODERS = {"to_domain_event", "loads", "body_of", "decoded", "read_snapshot", "split_chain"}
_LIBRARY_DECODERS = {"to_domain_event", "convert_originator_id"}


def _while_decoding(error: BaseException) -> bool:
    """Whether ``error`` was raised while a stored event or snapshot was read back into Python
    (its bytes, JSON, topic, shape or stream id did not decode): the rows are not what was
    written."""
    return any(
        frame.f_code.co_name in _LIBRARY_DECODERS
        or (
            frame.f_code.co_name in _DECODERS
            and Path(frame.f_code.co_filename).match("engine/store/mapper.py")
        )
        for frame, _ in traceback.walk_tb(error.__traceback__)
    )


def _reading_stream_id(error: BaseException) -> bool:
    return any(
        frame.f_code.co_name == "convert_originator_id"
        for frame, _ in traceback.walk_tb(error.__traceback__)
    )


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def store_fault(error: BaseException, spec: str) -> StoreFault | None:
    """The fault behind ``error`` when the store raised it (sqlite3, psycopg or the library's
    persistence errors, and the OS errors under them), else None. Classified by what the
    database says, so that the SQLite path never imports psycopg."""
    chain = list(_chain(error))
    if not any(_is_store_error(e) for e in chain):
        if any(_while_decoding(e) for e in chain):
            problem = one_line(error)
            if any(_reading_stream_id(e) for e in chain):
                problem = f"a stream id is not a UUID: {problem}"
            return StoredEventUnreadable(spec=shown(spec), problem=masked(problem, spec))
        return None
    store_errors = [e for e in chain if _is_store_error(e)]
    problem = masked(one_line(store_errors[-1]), spec)  # the innermost: the database's words
    words = " ".join(one_line(e) for e in chain).lower()
    for fault, phrases in _FAULT_WORDS:
        if any(phrase in words for phrase in phrases):
            return fault(spec=shown(spec), problem=problem)
    for e in chain:
        if isinstance(e, OSError) and e.errno in _FAULT_ERRNOS:
            return _FAULT_ERRNOS[e.errno](spec=shown(spec), problem=problem)
    if any(
        type(e).__module__.startswith(("psycopg", "psycopg_pool"))
        and type(e).__name__ in ("OperationalError", "InterfaceError", "PoolTimeout")
        for e in chain
    ):
        return StoreUnreachable(spec=shown(spec), problem=problem)
    return StoreFault(spec=shown(spec), problem=problem)


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


def masked(text: str, spec: str) -> str:
    """``text`` without the password of ``spec``: a database's or a driver's words may quote
    the URL it was given (its password, however short, becomes ``***``)."""
    if not is_postgres(spec):
        return text
    try:
        password = urlsplit(spec).password
    except ValueError:
        password = None
    text = text.replace(spec, shown(spec))
    for secret in {password, unquote(password)} if password else ():
        text = text.replace(secret, "***")
    return text


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
        "APPLICATION_RECORDER_TOPIC": "engine.store.recorders_postgres:CampaignPostgresRecorder",
        "POSTGRES_CONNECT_TIMEOUT": query.get("connect_timeout", "10"),
        # One connection per process is what a command uses; a few more for a bot's threads.
        **pooled(COMMAND_POOL),
        "IS_SNAPSHOTTING_ENABLED": "y",
    }


COMMAND_POOL = 5  # the most connections a command's engine opens (it uses one)


def pooled(size: int) -> dict[str, str]:
    """The settings of a PostgreSQL pool of at most ``size`` connections: one kept open, more
    opened while threads wait for one (and closed again after ten idle minutes)."""
    return {"POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": str(max(0, size - 1))}


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
        "PERSISTENCE_MODULE": "engine.store.recorders:DurableSQLiteFactory",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "30",
        "APPLICATION_RECORDER_TOPIC": "engine.store.recorders:BulkSQLiteRecorder",
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


def open_store(spec: str, *, create: bool = True, pool: int | None = None) -> CampaignStore:
    """Open the store ``spec`` names; a SQLite file that is not there yet is made only when
    ``create`` (else ``NoSuchStore``). ``pool``: the most connections to a PostgreSQL server
    the store opens at once (``COMMAND_POOL`` unless given; a server process gives its own)."""
    a_file = spec != MEMORY and "://" not in spec and not spec.startswith("file:")
    if not create and a_file and not Path(spec).exists():
        missing = _missing_folder(spec)
        raise NoSuchStore(spec=spec, why=f" ({missing})" if missing else "")
    env = environment_for(spec)
    if pool is not None and is_postgres(spec):
        env.update(pooled(pool))
    try:
        if is_postgres(spec):
            return _open_postgres(env)
        return CampaignStore(env=env)
    except Exception as error:  # sqlite3, psycopg and OS errors surface as one line, exit 1
        fault = store_fault(error, spec)
        if fault is not None and type(fault) not in (StoreFault, StoreUnreachable):
            raise fault from error  # full, damaged, read-only, locked: say which
        raise StoreUnreadable(spec=shown(spec), problem=_unopened(spec, error)) from error


def _unopened(spec: str, error: BaseException) -> str:
    """Why a store did not open, in the user's terms where the path says more than SQLite."""
    return (None if is_postgres(spec) else _missing_folder(spec)) or masked(one_line(error), spec)


def _missing_folder(spec: str) -> str | None:
    """That a SQLite file's folder is not there, if it is not."""
    folder = Path(spec).parent
    return None if folder.is_dir() else f"its folder {str(folder)!r} does not exist"


class Datastore(Protocol):
    """What the tables kept beside the events (sign-in and dice secrets, replies, read models)
    use of eventsourcing's ``PostgresDatastore``: its pool and schema."""

    schema: str

    def transaction(self, *, commit: bool = False) -> AbstractContextManager[Any]: ...

    def cursor(self) -> AbstractContextManager[Any]: ...
