"""What any import that builds the read models must do at least, measured beside `campaign import`.

Issue 32 asks `campaign import` to build every read model in its transaction and to run at 0.25x
of a raw `executemany` of its rows. These rows say what that costs before a single check: each
stored row decoded once with the program's converter, and every read model computed once over
the decoded records (``engine.transfer.read_models.ImportModels``, as an import in one process
computes them), in one process, with nothing checked and nothing written to the store.

An import may spread that work over processes, but a process computing a read model needs the
decoded records, and handing a decoded record to another process costs more than decoding it
again (it is pickled). So the best spread is one process a core, each decoding every row and
computing its share of the read models, the shares balanced by each model's cost measured alone
(``spread_row``): timed from the moment every process is ready (rows loaded, modules imported) to
the last one done."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from eventsourcing.persistence import StoredEvent

from bench.common import Row, median_of, timed
from engine.reads.recaps import models
from engine.store.mapper import EventMapper
from engine.store.records import Recorded
from engine.transfer.export_import import collector_paused
from engine.transfer.read_models import ImportModels

StoredRow = tuple[str, int, str, bytes]


def decoded(rows: list[StoredRow]) -> list[Recorded]:
    """Every row as the record it was written from (its id, version, topic and body decoded)."""
    mapper = EventMapper()
    return [
        mapper.to_domain_event(StoredEvent(stream, version, topic, state))
        for stream, version, topic, state in rows
    ]


def computed(records: list[Recorded], names: Sequence[str] | None = None) -> None:
    """Every read model (or those ``names``) over ``records`` (the directory entry first, then
    the campaign's rows), into a scratch file, as an import computes them in one process."""
    chosen = [model for name, model in models().items() if names is None or name in names]
    with tempfile.TemporaryDirectory(prefix="campaign-bench-floor-") as folder:
        taken = ImportModels(Path(folder), chosen)
        try:
            taken.start(records[0])
            for record in records[1:]:
                taken.add(record)
            for model in taken.computed:
                if model.failed is not None:
                    raise RuntimeError(f"{model.model.name} did not apply: {model.failed}")
                model.flush(taken.count)
            if taken.group or len(taken.computed) != len(chosen):
                raise RuntimeError("the records did not end on a whole ruling")
        finally:
            taken.close()


def floor_rows(
    rows: list[StoredRow], repeat: int, imported: float, raw: float, count: int
) -> list[Row]:
    """The floor (decoding, then the read models, each timed; collector paused, as the import
    pauses it) against the raw insert of the same rows and against `campaign import`
    (``imported``: its median wall time; ``raw``: the baseline's)."""
    decoding: list[float] = []
    modelling: list[float] = []
    held: list[Recorded] = []

    def decode_all() -> None:
        held[:] = decoded(rows)

    for _ in range(repeat):
        decoding.append(_paused(decode_all))
        modelling.append(_paused(partial(computed, held)))
    decode, model = median_of(decoding), median_of(modelling)
    floor = decode + model
    events = len(rows)
    costs = {name: _paused(partial(computed, held, [name])) for name in models()}
    return [
        Row(
            f"floor of an import of {events:,} events: decoding each row once, no check",
            "events/s",
            events / decode,
            events / raw,
            "sqlite3 executemany of the same rows, one transaction",
        ),
        Row(
            f"floor of an import of {events:,} events: every read model computed once over the"
            " decoded records, no check, no write",
            "events/s",
            events / model,
            events / raw,
            "sqlite3 executemany of the same rows, one transaction",
        ),
        Row(
            f"bulk import: `campaign import` of {count:,} events, against its floor in one process",
            "s",
            imported,
            floor,
            "decoding each row once, then every read model computed once (the rows above)",
        ),
        spread_row(rows, repeat, costs, raw, events),
    ]


def _paused(action: Callable[[], object]) -> float:
    """``action``'s time with the cyclic collector paused, as the import pauses it."""
    with collector_paused():
        return timed(action, 1)


def shares(costs: dict[str, float], processes: int) -> list[list[str]]:
    """The read models (name -> seconds alone) dealt to ``processes`` shares of near-equal cost:
    the dearest first, each to the share that costs least so far."""
    dealt: list[list[str]] = [[] for _ in range(processes)]
    totals = [0.0] * processes
    for name in sorted(costs, key=lambda n: (-costs[n], n)):
        least = totals.index(min(totals))
        dealt[least].append(name)
        totals[least] += costs[name]
    return [share for share in dealt if share]


def _worker(path: str, names: list[str], ready: Any, results: Any) -> None:
    """Load the rows, then (once every process is ready) decode them and compute ``names``'
    read models; send back when it finished (``time.perf_counter``: one clock for the machine)."""
    with open(path, "rb") as file:
        rows = pickle.load(file)
    models()  # every system's presentation imported before the clock starts
    ready.wait()
    with collector_paused():
        computed(decoded(rows), names)
    results.put(time.perf_counter())


def spread(path: Path, share: list[list[str]]) -> float:
    """The wall time of ``share``'s processes working at once over the rows pickled at ``path``
    (see the module)."""
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(len(share) + 1)
    results = context.Queue()
    workers = [
        context.Process(target=_worker, args=(str(path), names, ready, results)) for names in share
    ]
    for worker in workers:
        worker.start()
    try:
        ready.wait(timeout=120)
        start = time.perf_counter()
        ends: list[float] = [results.get(timeout=600) for _ in workers]
    finally:
        for worker in workers:
            worker.join(timeout=60)
            if worker.is_alive():
                worker.kill()
    if any(worker.exitcode for worker in workers):
        raise RuntimeError("a process of the spread floor failed")
    return max(ends) - start


def spread_row(
    rows: Sequence[StoredRow], repeat: int, costs: dict[str, float], raw: float, count: int
) -> Row:
    """The floor spread over this machine's cores (``costs``: each read model's time alone),
    against the raw insert of the same rows (``raw``: its median wall time)."""
    processes = max(1, min(os.cpu_count() or 1, len(costs)))
    share = shares(costs, processes)
    with tempfile.TemporaryDirectory(prefix="campaign-bench-spread-") as folder:
        path = Path(folder) / "rows.pickle"  # written once, read by every process of every run
        path.write_bytes(pickle.dumps(list(rows), protocol=pickle.HIGHEST_PROTOCOL))
        took = median_of([spread(path, share) for _ in range(repeat)])
    dealt = "; ".join(", ".join(names) for names in share)
    return Row(
        f"floor of an import of {count:,} events spread over {len(share)} processes (one a core):"
        " each decodes every row and computes its share of the read models, no check",
        "events/s",
        count / took,
        count / raw,
        "sqlite3 executemany of the same rows, one transaction",
        note=f"shares: {dealt}",
    )
