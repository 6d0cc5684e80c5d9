"""A writer killed with SIGKILL mid-command leaves a store that opens, holds only whole rulings
(never half of one), verifies and replays; the next writer carries on where it stopped."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.audience import GMS
from domain.commands import Command
from domain.events import Role
from domain.lifecycle import AddNote
from domain.rulesets.sprawl_goons.commands import ChangeCash, CreateCharacter
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.store.campaign_store import is_postgres
from tests.postgres import fresh_schema
from tests.stores import replays_from_scratch, rerun, whole_rulings, writer_processes

COMMANDS = 100
CAMPAIGN = "Docklands"
SETUP = 2  # rulings before the writers start: the campaign and Tanner
PLAN_SEED = 2026  # the kill points are drawn from a fixed seed: the same run every time

# Where a writer dies: anywhere (its parent kills it while a command runs), inside the
# transaction that stores a ruling (rows written, not committed; on PostgreSQL, whose save sends
# its rows and its COMMIT as one query, as that query is about to go), or right after the commit.
MODES = ("anywhere", "before-commit", "after-commit")


def command_for(index: int) -> Command:
    tag = f"c{index}"
    return (
        ChangeCash(character="Tanner", delta=1 + index % 3, reason=tag)
        if index % 2
        else AddNote(text=tag)
    )


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def arm(engine: Engine, mode: str, at: int) -> None:
    """Make this process kill itself in the ``at``-th ruling it stores (1 = the first)."""
    stored = 0
    recorder: Any = engine.store.recorder
    if mode == "after-commit":  # the engine saves a ruling with one insert_events call
        target, name = recorder, "insert_events"
    elif is_postgres(engine.db):  # a save's rows and its COMMIT go in one query: just before it
        target, name = recorder, "_saved"
    else:
        target, name = recorder, "_insert_events"
    original = getattr(target, name)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        nonlocal stored
        result = original(*args, **kwargs)
        stored += 1
        if stored == at:
            die()
        return result

    setattr(target, name, wrapped)


def write(db: str, mode: str, at: int, progress: Any) -> None:
    """Carry on with the workload from the first command not yet in the store."""
    with Engine(db) as engine:
        if mode != "anywhere":
            arm(engine, mode, at)
        done = engine.campaign(CAMPAIGN).rulings - SETUP
        for index in range(done, COMMANDS):
            engine.execute(CAMPAIGN, command_for(index), actor="writer")
            progress.put(index)
    progress.put(None)


def run_once(db: str, mode: str, at: int) -> tuple[int | None, int]:
    """One writer, killed at its ``at``-th ruling; returns the exit code (None: finished) and
    how many commands it reported done (with ``anywhere``, it may have run on a few more
    before the kill landed: they are reported too, and drained here)."""
    context = writer_processes()
    progress = context.Queue()
    process = context.Process(target=write, args=(db, mode, at, progress))
    process.start()
    reported = 0
    if mode == "anywhere":  # kill it as soon as it reported ``at`` commands, mid-next-command
        while reported < at and progress.get(timeout=60) is not None:
            reported += 1
        if reported == at:
            os.kill(process.pid or 0, signal.SIGKILL)
    process.join(timeout=60)
    with contextlib.suppress(queue.Empty):
        while mode == "anywhere" and progress.get(timeout=1) is not None:
            reported += 1
    return process.exitcode, reported


def tag(params: str) -> str:
    """The workload index a ruling's command carries (its note text or cash reason)."""
    args = json.loads(params)["args"]
    return str(args.get("reason") or args.get("text"))


def recorded(db: str) -> int:
    with Engine(db) as engine:
        return engine.campaign(CAMPAIGN).rulings - SETUP


def intact(db: str) -> bool:
    """The store opens, holds only whole rulings, replays from scratch and verifies."""
    if not is_postgres(db):
        with sqlite3.connect(db) as connection:
            if [("ok",)] != connection.execute("PRAGMA integrity_check").fetchall():
                return False
    with Engine(db) as engine:
        return (
            whole_rulings(engine, CAMPAIGN)
            and replays_from_scratch(engine, CAMPAIGN)
            and engine.verify(CAMPAIGN).intact
        )


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "campaign.db")
    else:
        with fresh_schema() as url:
            yield url


def test_killed_writers_leave_only_whole_rulings(store: str) -> None:
    """SIGKILL at drawn points of 100 commands: after each kill the store opens intact with
    exactly the rulings committed before it; at the end it equals a sequential run."""
    with Engine(store) as engine:
        engine.create_campaign(CAMPAIGN, "sprawl-goons", gm="Rosa", members={"writer": Role.GM})
        create = CreateCharacter(
            character="Tanner",
            player="ana",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        )
        engine.execute(CAMPAIGN, create, dice=DiceSpec(faces=(1, 1, 1)))
    plan = random.Random(PLAN_SEED)
    kills: list[tuple[str, int]] = []
    while (before := recorded(store)) < COMMANDS:
        mode, at = plan.choice(MODES), plan.randint(1, 12)
        code, reported = run_once(store, mode, at)
        after = recorded(store)
        if code == 0:  # the workload ended before the kill point
            assert COMMANDS == after
            break
        kills.append((mode, at))
        assert -signal.SIGKILL == code
        assert intact(store), (mode, at)
        if mode == "before-commit":
            assert before + at - 1 == after
        elif mode == "after-commit":
            assert before + at == after
        else:  # every command reported is in; the one it was in when killed may be too
            assert after in (before + reported, before + reported + 1)

    assert COMMANDS == recorded(store)
    assert len(kills) >= 8
    assert set(MODES) == {mode for mode, _ in kills}
    with Engine(store) as engine:
        tags = [tag(e.ruling.params) for e in engine.log(CAMPAIGN, audience=GMS)[SETUP:]]
        assert [f"c{i}" for i in range(COMMANDS)] == tags
        sequential = rerun(engine, CAMPAIGN)
        assert sequential.characters(CAMPAIGN, audience=GMS) == engine.characters(
            CAMPAIGN, audience=GMS
        )
