"""What any import that builds the read models must do at least, measured beside `campaign import`.

Issue 32 asks `campaign import` to build every read model in its transaction and to run at 0.25x
of a raw `executemany` of its rows. These rows say what that costs before a single check: each
stored row decoded once with the program's converter, and every read model computed once over
the decoded records (``engine.transfer.read_models.ImportModels``, as an import in one process
computes them), in one process, with nothing checked and nothing written to the store."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

from eventsourcing.persistence import StoredEvent

from bench.common import Row, median_of, timed
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


def computed(records: list[Recorded]) -> None:
    """Every read model over ``records`` (the directory entry first, then the campaign's rows),
    into a scratch file, as an import computes them in one process."""
    from engine.reads.recaps import models

    with tempfile.TemporaryDirectory(prefix="campaign-bench-floor-") as folder:
        taken = ImportModels(Path(folder), list(models().values()))
        try:
            taken.start(records[0])
            for record in records[1:]:
                taken.add(record)
            for model in taken.computed:
                if model.failed is not None:
                    raise RuntimeError(f"{model.model.name} did not apply: {model.failed}")
                model.flush(taken.count)
            if taken.group or len(taken.computed) != len(models()):
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
    models: list[float] = []
    held: list[Recorded] = []

    def decode_all() -> None:
        held[:] = decoded(rows)

    for _ in range(repeat):
        decoding.append(_paused(decode_all))
        models.append(_paused(partial(computed, held)))
    decode, model = median_of(decoding), median_of(models)
    floor = decode + model
    events = len(rows)
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
    ]


def _paused(action: Callable[[], object]) -> float:
    """``action``'s time with the cyclic collector paused, as the import pauses it."""
    with collector_paused():
        return timed(action, 1)
