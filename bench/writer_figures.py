"""Many writers on one campaign: ``writers`` processes each record ``per_writer`` rolls
(``bench.sizes``: 8 and 200 in `make bench`) as fast as they can, with the store's write lock (a
writer waits its turn before it loads) against the same run without it (every writer loads,
decides and races to save; the loser decides again), on SQLite and on PostgreSQL. The figure is
rulings per second; the lost races and the commands that ended with ``CONCURRENT_WRITES`` (and
were sent again) are counted beside it.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import dataset
from bench.common import Row, say
from bench.sizes import Sizes
from domain.errors import ConcurrentWrites
from engine import Engine
from engine.dice.sources import DiceSpec


def _writer(db: str, lock: bool, rolls: int, start: Any, results: Any) -> None:
    """One writer process: its rolls in order, once every writer has opened the store; counts
    its lost races and its refusals."""
    lost: list[int] = []
    refused = 0
    command = dataset.command()
    with Engine(db, lock_writes=lock, backoff=_counting(lost)) as engine:
        start.wait()
        for _ in range(rolls):
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


def run(db: str, lock: bool, sizes: Sizes) -> tuple[float, int, int]:
    """Rulings per second of all the writers together, lost races, CONCURRENT_WRITES. The clock
    starts when every writer has imported and opened the store (a barrier of them all)."""
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(sizes.writers + 1), context.Queue()
    writers = [
        context.Process(target=_writer, args=(db, lock, sizes.per_writer, start, results))
        for _ in range(sizes.writers)
    ]
    for writer in writers:
        writer.start()
    try:
        start.wait(timeout=120)
        began = time.perf_counter()
        counts = [results.get(timeout=600) for _ in writers]
        took = time.perf_counter() - began
    finally:
        for writer in writers:
            writer.join(timeout=60)
            if writer.is_alive():
                writer.kill()
    rulings = sizes.writers * sizes.per_writer
    return rulings / took, sum(c[0] for c in counts), sum(c[1] for c in counts)


def row(store: str, fresh: Callable[[], str], sizes: Sizes) -> Row:
    """The figure on one kind of store; ``fresh`` makes a seeded store and gives its spec."""
    writers, rolls = sizes.writers, sizes.per_writer
    say(f"  {writers} writers x {rolls} rolls on one {store} campaign, with and without lock")
    locked, locked_lost, locked_refused = run(fresh(), True, sizes)
    racing, racing_lost, racing_refused = run(fresh(), False, sizes)
    return Row(
        f"{store}: {writers} writers x {rolls} rolls on one campaign, write lock",
        "rulings/s",
        locked,
        racing,
        f"the same racing without the lock: {racing_lost} lost races, "
        f"{racing_refused} CONCURRENT_WRITES",
        "",
        note=f"{locked_lost} lost races, {locked_refused} CONCURRENT_WRITES",
    )


def sqlite_row(work: Path, sizes: Sizes) -> Row:
    runs = iter(range(2))

    def fresh() -> str:
        db = work / f"writers-{next(runs)}.db"
        dataset.seed(str(db))
        return str(db)

    return row("SQLite", fresh, sizes)
