"""Free rolls recorded before the whole notation was taken (``FreeRollMade`` and ``PostWritten``
version 1, by their terms: each term's faces, what keep-highest or -lowest dropped, its value)
load upcast (``domain.rolls_by_terms``), import, and read as they did. The file is an export
written by the release before (``tests/fixtures/free-rolls-by-terms.jsonl``: three free rolls,
``4d6kh3-2``, ``d20+3 adv`` and ``d%``, and a post rolling ``[2d6+1 for the climb]`` and
``[1d4--1]``)."""

from __future__ import annotations

from pathlib import Path

from domain.audience import GMS
from domain.events import FreeRollMade, PostWritten
from engine import Engine
from projections.describe import describe

FIXTURE = Path(__file__).parents[1] / "fixtures" / "free-rolls-by-terms.jsonl"

AS_THEY_READ = [  # what the release that wrote the file read
    "free roll 4d6kh3-2 [6,~1~,5,3] - 2 = 12: stats",
    "free roll 2d20kh1+3 [~7~,15] + 3 = 18: the lock",
    "free roll d% [42] = 42: weather",
    "narration: Rosa rolls [2d6+1: [3,4] + 1 = 8, for the climb] and [1d4--1: [2] + 1 = 3].",
]


def imported(engine: Engine) -> None:
    engine.import_campaign(FIXTURE.read_text().splitlines())


def lines(engine: Engine) -> list[str]:
    return [
        text
        for entry in engine.log("Lab", audience=GMS)
        if entry.retraction is None
        for record in entry.standing
        if (text := describe(record.event)) is not None
    ][1:]


def test_rolls_recorded_by_their_terms_import_and_read_as_they_did(engine: Engine) -> None:
    imported(engine)
    assert AS_THEY_READ == lines(engine)
    events = [r.event for entry in engine.log("Lab", audience=GMS) for r in entry.standing]
    assert [
        FreeRollMade(
            expression="4d6kh3-2",
            why="stats",
            faces=(6, 1, 5, 3),
            breakdown="[6,~1~,5,3] - 2",
            total=12,
        ),
        FreeRollMade(
            expression="2d20kh1+3",
            why="the lock",
            faces=(7, 15),
            breakdown="[~7~,15] + 3",
            total=18,
        ),
        FreeRollMade(expression="d%", why="weather", faces=(42,), breakdown="[42]", total=42),
    ] == [e for e in events if isinstance(e, FreeRollMade)]
    (post,) = [e for e in events if isinstance(e, PostWritten)]
    assert [((3, 4), "[3,4] + 1", 8), ((2,), "[2] + 1", 3)] == [
        (r.faces, r.breakdown, r.total) for r in post.rolls
    ]
    assert engine.verify("Lab").intact


def test_an_old_roll_is_the_event_its_expression_rolls_again_over_its_faces(
    engine: Engine,
) -> None:
    """An older ruling undone decides the later ones again: a roll recorded by its terms, rolled
    again with its own dice, is the same event, so it does not stand on the undone ruling."""
    imported(engine)
    engine.undo("Lab", 2, reason="not a roll of this table")
    assert [*AS_THEY_READ[1:], "ruling 2 undone: not a roll of this table"] == lines(engine)


def test_an_old_roll_amended_is_decided_again_with_its_own_dice(engine: Engine) -> None:
    """Amending a roll recorded by its terms rolls its expression again over the faces it
    recorded: the same faces, breakdown and total (``d%`` a d100, as it was)."""
    imported(engine)
    engine.amend("Lab", 2, {"why": "the ability scores"}, reason="named")
    engine.amend("Lab", 4, {"why": "the weather"}, reason="named")
    assert "free roll 4d6kh3-2 [6,~1~,5,3] - 2 = 12: the ability scores" in lines(engine)
    assert "free roll d% [42] = 42: the weather" in lines(engine)
    (latest,) = [e for e in engine.log("Lab", audience=GMS) if e.ruling.number == 2]
    (made,) = [r.event for r in latest.standing if isinstance(r.event, FreeRollMade)]
    assert ((6, 1, 5, 3), "[6,~1~,5,3] - 2") == (made.faces, made.breakdown)


def test_an_old_post_edited_keeps_its_rolls(engine: Engine) -> None:
    imported(engine)
    engine.amend(
        "Lab",
        5,
        {"text": "Rosa climbs: [2d6+1 for the climb] and [1d4--1]."},
        reason="typo",
    )
    assert (
        "narration: Rosa climbs: [2d6+1: [3,4] + 1 = 8, for the climb] and [1d4--1: [2] + 1 = 3]."
    ) in lines(engine)
