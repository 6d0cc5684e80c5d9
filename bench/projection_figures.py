"""The projection figures: the recap read model catching up over a long log, and the cost of
keeping it up to date after one more ruling with a long history against a short one.

The read model is the one `campaign recap` reads (``cli.recap_views.RECAPS``), kept in the
store's own SQLite file by ``engine.reads.models``. The stores come from ``bench.dataset``: a
Sprawl Goons campaign in a running session and scene, then imported roll rulings (two events
each: the roll on Tanner's stream, the ``RulingMade`` header on the campaign's), all of them in
session 1, so the one session's recap grows with the history.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from bench import dataset
from bench.common import Row, say, timed
from bench.sizes import Sizes
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.reads.recaps import RECAPS

BASELINE = "sqlite3 read + json.loads of the same rows"


def _store(work: Path, events: int) -> tuple[Path, int]:
    """A store of about ``events`` events (seeded, then ``events // 2`` rulings): its path and
    how many events its log holds."""
    db = work / f"projection-{events}.db"
    dataset.build(db, events // 2)
    with closing(sqlite3.connect(db)) as connection:
        count = connection.execute("SELECT MAX(rowid) FROM stored_events").fetchone()[0]
    return db, int(count)


def _raw_read(db: Path) -> None:
    """The baseline: every stored event read in log order and its JSON parsed."""
    with closing(sqlite3.connect(db)) as connection:
        for (state,) in connection.execute("SELECT state FROM stored_events ORDER BY rowid"):
            json.loads(state)


def _incremental(engine: Engine, repeat: int) -> float:
    """The median time of ``catch_up`` after one more `roll` ruling (saved untimed), the recap
    being up to date before each."""
    views = engine.read_models.views
    engine.read_models.catch_up(RECAPS, views=views)
    dice = DiceSpec(faces=(3, 3))
    command = dataset.command()

    def one_more() -> None:
        engine.execute(dataset.NAME, command, dice=dice)

    def update() -> None:
        processed = engine.read_models.catch_up(RECAPS, views=views)
        assert processed == 2, f"one ruling is two events, not {processed}"

    return timed(update, repeat, setup=one_more)


def figures(work: Path, sizes: Sizes) -> list[Row]:
    """The recap's catch-up rate over ``sizes.events`` events (a rebuild from the first event),
    and its incremental update after one ruling with that many against ``sizes.small`` events of
    history.

    The catch-up rate has no target: it is bounded by decoding the events, the replay figure's
    cost, before the recap does any work of its own."""
    repeat, events = sizes.repeat, sizes.events
    say(f"  building {sizes.small:,} and {events:,} events for the projection figures")
    small_db, small_count = _store(work, sizes.small)
    large_db, large_count = _store(work, events)
    with Engine(str(small_db)) as engine:
        small = _incremental(engine, repeat * 10)
        engine.read_models.close()
    with Engine(str(large_db)) as engine:
        rebuilt = timed(lambda: engine.read_models.rebuild(RECAPS), repeat)
        large = _incremental(engine, repeat * 10)  # the recap is up to date after the rebuilds
        engine.read_models.close()
    baseline = timed(lambda: _raw_read(large_db), repeat)
    return [
        Row(
            f"projection: recap catch-up over {large_count:,} events",
            "events/s",
            large_count / rebuilt,
            large_count / baseline,
            BASELINE,
        ),
        Row(
            f"projection: incremental update after one new ruling, {large_count:,}-event history",
            "s",
            large,
            small,
            f"the same update with a {small_count:,}-event history",
            "<= 2",
        ),
    ]
