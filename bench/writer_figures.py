"""Many writers on one campaign: ``WRITERS`` processes each record ``PER_WRITER`` rolls as fast as
they can, with the store's write lock (a writer waits its turn before it loads) against the same
run without it (every writer loads, decides and races to save; the loser decides again), on
SQLite and on PostgreSQL. The figure is rulings per second; the lost races and the commands that
ended with ``CONCURRENT_WRITES`` (and were sent again) are counted beside it.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import dataset
from bench.common import Row, say
from domain.errors import ConcurrentWrites
from engine import Engine
from engine.dice.sources import DiceSpec

WRITERS = 8
PER_WRITER = 200


def _writer(db: str, lock: bool, start: Any, results: Any) -> None:
    """One writer process: its rolls in order; counts its lost races and its refusals."""
    lost: list[int] = []
    refused = 0
    command = dataset.command()
    with Engine(db, lock_writes=lock, backoff=_counting(lost)) as engine:
        start.wait()
        for _ in range(PER_WRITER):
            while True:
                try:
                    engine.execute(dataset.NAME, command, dice=DiceSpec(faces=(3, 3)))
                    break
                except ConcurrentWrites:
                    refused += 1
    results.put((len(lost), refused))


def _counting(lost: list[int]) -> Callable[[int], None]:
    from engine.write.ledger import jittered_backoff

    def backoff(retry: int) -> None:
        lost.append(retry)
        jittered_backoff(retry)

    return backoff


def run(db: str, lock: bool) -> tuple[float, int, int]:
    """Rulings per second of all the writers together, lost races, CONCURRENT_WRITES."""
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    writers = [
        context.Process(target=_writer, args=(db, lock, start, results)) for _ in range(WRITERS)
    ]
    for writer in writers:
        writer.start()
    time.sleep(2)  # let every process import and open the store before the clock starts
    began = time.perf_counter()
    start.set()
    counts = [results.get(timeout=600) for _ in writers]
    took = time.perf_counter() - began
    for writer in writers:
        writer.join()
    return WRITERS * PER_WRITER / took, sum(c[0] for c in counts), sum(c[1] for c in counts)


def row(store: str, fresh: Callable[[], str]) -> Row:
    """The figure on one kind of store; ``fresh`` makes a seeded store and gives its spec."""
    say(f"  {WRITERS} writers x {PER_WRITER} rolls on one {store} campaign, with and without lock")
    locked, locked_lost, locked_refused = run(fresh(), lock=True)
    racing, racing_lost, racing_refused = run(fresh(), lock=False)
    return Row(
        f"{store}: {WRITERS} writers x {PER_WRITER} rolls on one campaign, write lock",
        "rulings/s",
        locked,
        racing,
        f"the same racing without the lock: {racing_lost} lost races, "
        f"{racing_refused} CONCURRENT_WRITES",
        "",
        note=f"{locked_lost} lost races, {locked_refused} CONCURRENT_WRITES",
    )


def sqlite_row(work: Path) -> Row:
    runs = iter(range(2))

    def fresh() -> str:
        db = work / f"writers-{next(runs)}.db"
        dataset.seed(str(db))
        return str(db)

    return row("SQLite", fresh)
