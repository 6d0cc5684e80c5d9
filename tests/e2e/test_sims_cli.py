"""The Sims RPG's verbs through the real `campaign` command on a SQLite file."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.e2e.conftest import Run

SETUP = [
    'init "Bar Fight" --system sims --gm Lotus',
    "session start",
    'scene start "The Rusty Spanner"',
    'character create Kristov --player kim --custom --quality "Dirty Fighter:Combat:Good" '
    "--quality Brawler:Combat:Good --quality Rockstar:Professional:Average",
    "character create Jefferson --npc --quality Biker:Combat:Expert",
    'turns "Kristov:Dirty Fighter" Jefferson:Biker',
]


@pytest.fixture
def bar(run: Run) -> Run:
    for line in SETUP:
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    return run


def test_show_lists_base_and_current_rank(bar: Run) -> None:
    """After a hit and an allocation the sheet shows each quality's base and current rank."""
    hit = bar('attack Jefferson Biker --target "Kristov:Dirty Fighter" --badass --dice 3,3')
    assert "hit by 3: 3 Damage Rank(s)" in hit.output
    assert 0 == bar("allocate Kristov Brawler Brawler Rockstar").exit_code
    shown = bar("character show Kristov").output
    assert "Brawler               Combat        Good     Poor  (-2 Damage)" in shown
    assert "Dirty Fighter         Combat        Good     Good" in shown


def test_a_refusal_exits_2_and_records_nothing(bar: Run, count: Callable[[], int]) -> None:
    """Attacking out of turn is refused with the rule's reason; no event is appended."""
    before = count()
    result = bar("attack Kristov --target Jefferson:Biker --dice 3,4")
    assert 2 == result.exit_code
    assert "NOT_YOUR_TURN" in result.stderr
    assert before == count()


def test_the_allocation_must_come_first(bar: Run) -> None:
    """Pending ranks block the next turn until they are distributed."""
    bar('attack Jefferson Biker --target "Kristov:Dirty Fighter" --dice 6,6')
    blocked = bar("next")
    assert 2 == blocked.exit_code
    assert "ALLOCATION_PENDING" in blocked.stderr


def test_sheet_json_has_current_ranks(bar: Run) -> None:
    """--json shows the sheet with each quality's current rank by name."""
    result = bar("--json character show Jefferson")
    data = json.loads(result.output)
    assert [("Biker", "Expert", "Expert")] == [
        (q["name"], q["base"], q["current"]) for q in data["qualities"]
    ]


def test_recovery_in_continuing_danger(bar: Run) -> None:
    """Continuing danger at scene end allows one 1d6 recovery roll, placed by the player."""
    bar('attack Jefferson Biker --target "Kristov:Dirty Fighter" --dice 4,4')
    bar("allocate Kristov Brawler Brawler Rockstar")
    bar("danger continuing Kristov")
    ended = bar("scene end")
    assert "may roll 1d6 for recovery" in ended.output
    recovered = bar("recover Kristov Brawler Brawler --dice 2")
    assert "Brawler Average -> Good (recovered)" in recovered.output
    assert 2 == bar("recover Kristov --dice 1").exit_code
