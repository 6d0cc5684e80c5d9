"""Eight writer processes on one campaign: every command lands once, in some order, and the
result is what running those commands one after another in that order gives."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from multiprocessing.synchronize import Event as StartSignal
from pathlib import Path
from typing import Any

import pytest

from domain.audience import GMS
from domain.commands import Command
from domain.errors import ConcurrentWrites
from domain.events import Role
from domain.lifecycle import AddNote
from domain.rulesets.sprawl_goons.commands import ChangeCash, CreateCharacter
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.write import ledger
from tests.postgres import fresh_schema
from tests.stores import rerun, whole_rulings, writer_processes

WRITERS = 8
COMMANDS = 200
CAMPAIGN = "Docklands"
SHARED = "Tanner"
KIT = ("melee:Katana", "armour:Kevlar jacket", "penlight")


def command_for(writer: int, index: int) -> Command:
    """Writer ``writer``'s command ``index``: cash for the shared character, cash for its own,
    or a note; each names its writer and index, so the log shows which command a ruling is."""
    tag = f"w{writer}-{index}"
    match index % 3:
        case 0:
            return ChangeCash(character=SHARED, delta=1, reason=tag)
        case 1:
            return ChangeCash(character=f"Goon{writer}", delta=2, reason=tag)
        case _:
            return AddNote(text=tag)


def set_up(db: str) -> None:
    """The campaign, the shared character and one character per writer (30 cash each)."""
    with Engine(db) as engine:
        writers = {f"w{w}": Role.GM for w in range(WRITERS)}  # each may issue any command
        engine.create_campaign(CAMPAIGN, "sprawl-goons", gm="Rosa", members=writers)
        for name in [SHARED, *(f"Goon{w}" for w in range(WRITERS))]:
            create = CreateCharacter(
                character=name,
                player="p",
                morphology=1,
                reaction=1,
                cognition=1,
                equilibrium=1,
                items=KIT,
            )
            engine.execute(CAMPAIGN, create, dice=DiceSpec(faces=(1, 1, 1)))


def write(db: str, writer: int, start: StartSignal, results: Any) -> None:
    """One writer process: its commands in order; a command refused with CONCURRENT_WRITES
    (the engine's retries ran out) is reported and sent again, and so is every lost race (an
    attempt that loaded, decided, and found another writer's ruling saved first)."""
    reported = 0
    lost: list[int] = []
    with Engine(db, backoff=lost.append) as engine:
        start.wait()
        for index in range(COMMANDS):
            while True:
                try:
                    engine.execute(CAMPAIGN, command_for(writer, index), actor=f"w{writer}")
                    break
                except ConcurrentWrites:
                    reported += 1
    results.put((writer, (reported, len(lost))))


def run_writers(db: str) -> dict[int, tuple[int, int]]:
    """Start the writers together; returns how many CONCURRENT_WRITES each one reported and
    how many races it lost."""
    context = writer_processes()
    start = context.Event()
    results = context.Queue()
    processes = [
        context.Process(target=write, args=(db, w, start, results)) for w in range(WRITERS)
    ]
    for process in processes:
        process.start()
    start.set()
    for process in processes:
        process.join(timeout=240)
    assert [0] * WRITERS == [p.exitcode for p in processes]
    return dict(results.get(timeout=10) for _ in processes)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "campaign.db")
    else:
        with fresh_schema() as url:
            yield url


def tags(engine: Engine) -> Counter[str]:
    """How many rulings carry each writer's command tag."""
    counted: Counter[str] = Counter()
    for entry in engine.log(CAMPAIGN, audience=GMS):
        args = json.loads(entry.ruling.params).get("args", {})
        tag = args.get("reason") or args.get("text")
        if tag:
            counted[tag] += 1
    return counted


def test_eight_writers_record_every_command_exactly_once(store: str) -> None:
    """8 processes x 200 commands: 1600 rulings, none lost or doubled, none refused with
    CONCURRENT_WRITES and no race lost, verify clean, and every sheet equal to a sequential run
    of the same commands in the recorded order."""
    set_up(store)
    with Engine(store) as engine:
        before = engine.campaign(CAMPAIGN).rulings

    reported = run_writers(store)

    expected = {f"w{w}-{i}" for w in range(WRITERS) for i in range(COMMANDS)}
    with Engine(store) as engine:
        counted = tags(engine)
        shared = engine.character(CAMPAIGN, SHARED, audience=GMS)
        assert WRITERS * COMMANDS == engine.campaign(CAMPAIGN).rulings - before
        assert expected == set(counted)
        assert {1} == set(counted.values())
        assert 30 + WRITERS * len(range(0, COMMANDS, 3)) == shared.cash
        assert whole_rulings(engine, CAMPAIGN)
        assert engine.verify(CAMPAIGN).intact
        sequential = rerun(engine, CAMPAIGN)
        assert sequential.campaign(CAMPAIGN) == engine.campaign(CAMPAIGN)
        assert sequential.characters(CAMPAIGN, audience=GMS) == engine.characters(
            CAMPAIGN, audience=GMS
        )
    # Each writer waits its turn on the store's write lock before it loads: no race is lost,
    # so no command is decided twice and none ends with CONCURRENT_WRITES.
    assert {(0, 0)} == set(reported.values())


def test_the_backoff_waits_longer_after_each_lost_race(monkeypatch: pytest.MonkeyPatch) -> None:
    """No wait before the first retry, then up to 4 ms x 2^retry, never above 0.25 s."""
    waits: list[float] = []
    monkeypatch.setattr(ledger.time, "sleep", waits.append)
    monkeypatch.setattr(ledger.random, "uniform", lambda low, high: high)

    for retry in range(1, 8):
        ledger.jittered_backoff(retry)

    assert [0.016, 0.032, 0.064, 0.128, 0.25, 0.25] == waits
