"""Undo figures: undoing the latest ruling costs the same in a long campaign as in a short one,
and undoing a ruling far back costs per later ruling decided again.

Undo decides every ruling after the undone one again (``engine.corrections.redecide``): the latest
has none after it, so its undo reads only the tail of the campaign stream; a ruling ``back``
rulings back (``bench.sizes``) has that many roll rulings after it, each decided again from its
recorded command and dice. The stores come from ``bench.dataset`` (Sprawl Goons, imported roll
rulings).
"""

from __future__ import annotations

from pathlib import Path

from bench import dataset
from bench.common import Row, say, timed
from bench.sizes import Sizes
from engine import Engine
from engine.dice.sources import DiceSpec

BOUND = 0.002  # seconds per ruling decided again (the target)


def undo_latest(engine: Engine, repeat: int) -> float:
    """The median time to undo the latest ruling (one more roll recorded, untimed, before each)."""
    command = dataset.command()
    dice = DiceSpec(faces=(3, 3))

    def one_more() -> None:
        engine.execute(dataset.NAME, command, dice=dice)

    return timed(lambda: engine.undo(dataset.NAME, reason="bench"), repeat, setup=one_more)


def amend_latest(engine: Engine, repeat: int) -> float:
    """The median time to amend the latest ruling (a roll recorded, untimed, before each)."""
    command = dataset.command()
    dice = DiceSpec(faces=(3, 3))
    latest: list[int] = []

    def one_more() -> None:
        latest.append(engine.execute(dataset.NAME, command, dice=dice).number)

    def amend() -> None:
        engine.amend(dataset.NAME, latest[-1], {"ds": "12"}, reason="bench")

    return timed(amend, repeat, setup=one_more)


def undo_back(engine: Engine, repeat: int, back: int) -> float:
    """The median time to undo the ruling ``back`` rulings before the latest (each time another:
    the previous undo is the latest then), every later ruling decided again."""

    def undo() -> None:
        latest = engine.campaign(dataset.NAME).rulings
        engine.undo(dataset.NAME, latest - back, reason="bench")

    return timed(undo, repeat)


def figures(work: Path, sizes: Sizes) -> list[Row]:
    repeat, large, short = sizes.repeat, sizes.events, sizes.small
    say(f"  building {short:,} and {large:,} rulings for the undo figures")
    small_db, large_db = work / "undo-small.db", work / "undo-large.db"
    dataset.build(small_db, short)
    dataset.build(large_db, large)
    with Engine(str(small_db)) as engine:
        small = undo_latest(engine, repeat * 10)
        small_amend = amend_latest(engine, repeat * 10)
        back = undo_back(engine, repeat, sizes.back)
    with Engine(str(large_db)) as engine:
        latest = undo_latest(engine, repeat * 10)
        large_amend = amend_latest(engine, repeat * 10)
    return [
        Row(
            f"undo of the latest ruling, {large:,} rulings",
            "s",
            latest,
            small,
            f"the same in a campaign of {short:,} rulings",
            "<= 2",
        ),
        Row(
            f"amend of the latest ruling, {large:,} rulings",
            "s",
            large_amend,
            small_amend,
            f"the same in a campaign of {short:,} rulings",
            "<= 2",
        ),
        far_row(back, sizes.back, "SQLite"),
    ]


def far_row(took: float, back: int, store: str) -> Row:
    return Row(
        f"{store} undo {back:,} rulings back, per ruling decided again",
        "s",
        took / back,
        BOUND,
        "2 ms a ruling (the bound set for it)",
        "<= 1",
    )
