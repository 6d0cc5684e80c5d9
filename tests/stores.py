"""Helpers shared by the store tests: a sequential replay of a campaign's rulings, checks
that a store holds only whole rulings that replay to the state it loads, and a SQLite store's
write lock held as another process holds it."""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any
from unittest.mock import patch
from uuid import UUID

from eventsourcing.utils import resolve_topic

from domain.audience import GMS
from domain.events import Role, RulingMade
from engine import Engine
from engine.corrections.undo import LoggedRuling
from engine.dice.sources import DiceSpec
from engine.store.mapper import converter
from engine.store.records import DIRECTORY_ID


def created_streams(log: list[LoggedRuling]) -> Iterator[UUID]:
    """The streams in the order the rulings created them (version 1 written)."""
    for entry in log:
        if entry.ruling.command == "init":
            yield entry.header.originator_id
        for span in entry.ruling.touched:
            if span.first == 1 and span.stream != entry.header.originator_id:
                yield span.stream


@contextmanager
def engine_on(kind: str, tmp_path: Path) -> Iterator[Engine]:
    """An engine on a fresh store of ``kind``: a SQLite file in ``tmp_path``, or a schema of
    its own on the test PostgreSQL server."""
    from tests.postgres import fresh_schema

    if kind == "sqlite":
        with Engine(str(tmp_path / "campaign.db")) as engine:
            yield engine
    else:
        with fresh_schema() as url, Engine(url) as engine:
            yield engine


def no_wait(retry: int) -> None:
    """A backoff that does not sleep (one writer never races)."""


def rerun(source: Engine, name: str) -> Engine:
    """Run every ruling of campaign ``name`` again, one after another in recorded order, on a
    fresh in-memory engine: the same commands, actors and dice, and the same stream ids."""
    log = source.log(name, audience=GMS)
    ids = iter(list(created_streams(log)))
    target = Engine(new_id=lambda: next(ids), backoff=no_wait)
    for entry in log:
        ruling: RulingMade = entry.ruling
        params: dict[str, Any] = json.loads(ruling.params)
        if ruling.command == "init":
            seated = {who: Role(role) for who, role in params.get("members", {}).items()}
            target.create_campaign(
                params["name"],
                params["system"],
                gm=params["gm"],
                house_rules=params["house_rules"],
                members=seated,
            )
            continue
        command = converter.structure(params["args"], resolve_topic(params["topic"]))
        faces = tuple(die.face for die in ruling.dice)
        dice = DiceSpec(faces=faces) if faces else None
        target.execute(name, command, actor=entry.header.actor, dice=dice)
    return target


def replays_from_scratch(engine: Engine, name: str) -> bool:
    """Whether every stream of the campaign, folded from its first event without snapshots,
    gives the state the engine loads (snapshot + later events)."""
    campaign = engine.campaign(name)
    streams = [campaign.id, *(entry.character_id for entry in campaign.roster)]
    for stream in streams:
        evolve = engine.evolver(campaign, stream)
        if engine.streams.replay(engine.streams.records(stream), evolve) != (
            engine.streams.load(stream, evolve).state
        ):
            return False
    return True


def whole_rulings(engine: Engine, name: str) -> bool:
    """Whether the campaign's streams hold exactly the events its ruling headers name (no event
    outside a ruling, none missing from one), and the ruling numbers run 1..N without a gap."""
    log = engine.log(name, audience=GMS)
    if [entry.ruling.number for entry in log] != list(range(1, len(log) + 1)):
        return False
    named: dict[UUID, dict[int, int]] = {}
    for entry in log:
        header = entry.header
        named.setdefault(header.originator_id, {})[header.originator_version] = header.ruling
        for span in entry.ruling.touched:
            for version in range(span.first, span.last + 1):
                named.setdefault(span.stream, {})[version] = header.ruling
    stored = {
        stream: {r.originator_version: r.ruling for r in engine.streams.records(stream)}
        for stream in named
    }
    # The directory is shared by every campaign of the store: only this campaign's part counts.
    directory = stored.get(DIRECTORY_ID, {})
    stored[DIRECTORY_ID] = {v: r for v, r in directory.items() if v in named[DIRECTORY_ID]}
    return named == stored


def writer_processes() -> BaseContext:
    """Processes for writer tests: forked from a server that imported the engine once (a
    spawned child would import everything again; forking pytest itself would copy its threads)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["engine", "domain.rulesets", "tests.stores", "psycopg"])
    return context


@contextmanager
def head_reads(engine: Engine) -> Iterator[list[Any]]:
    """The streams whose head a load read from the store (one row, newest first) meanwhile."""
    read: list[Any] = []
    recorder = engine.store.recorder
    original = recorder.select_events

    def spy(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("desc") and kwargs.get("limit") == 1 and kwargs.get("gt") is None:
            read.append(args[0] if args else kwargs.get("originator_id"))
        return original(*args, **kwargs)

    with patch.object(recorder, "select_events", spy):
        yield read


@contextmanager
def held_elsewhere(db: str) -> Iterator[None]:
    """The SQLite store ``db``'s write lock (``engine.store.write_lock.FileLock``) held as
    another process (a CLI, another server) holds it: on a descriptor of its own."""
    fd = os.open(f"{db}-lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
