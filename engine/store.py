"""Where the log lives: a SQLite file by default, or memory for tests.

The store is chosen only by the spec given here (``--db`` / ``CAMPAIGN_DB``), never by stray
eventsourcing environment variables: an unset ``PERSISTENCE_MODULE`` would silently mean memory.
SQLite runs in WAL mode (the library's choice) with ``synchronous=FULL``: a recorded ruling
survives a power cut.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import EventStore
from eventsourcing.utils import Environment

from domain.errors import DomainError
from engine.mapper import EventMapper, SnapshotMapper

MEMORY = ":memory:"
DEFAULT_DB = "campaign.db"


class UnsupportedStore(DomainError):
    template = "{spec!r} is not a store this version opens: give a SQLite file path or :memory:"


class StoreUnreadable(DomainError):
    template = "cannot open the store at {spec!r}: {problem}"


def environment_for(spec: str) -> dict[str, str]:
    if spec == MEMORY:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo", "IS_SNAPSHOTTING_ENABLED": "y"}
    if "://" in spec:
        raise UnsupportedStore(spec=spec)
    path = Path(spec)
    if path.is_dir():
        raise StoreUnreadable(spec=spec, problem="it is a folder, not a file")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "30",
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


def open_store(spec: str) -> CampaignStore:
    env = environment_for(spec)
    try:
        return CampaignStore(env=env)
    except Exception as error:  # sqlite3 and OS errors surface as a one-line refusal
        raise StoreUnreadable(spec=spec, problem=str(error)) from error
