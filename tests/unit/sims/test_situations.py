"""Simple and complicated situations (situations.py, R-PDQ-03, R-PDQ-04, R-PDQ-10, R-PDQ-11):
the GM's simple success, a complicated roll against the difficulty's TN, hazards, strategies
and helpers."""

from __future__ import annotations

import pytest

from domain.errors import InvalidDieFace
from domain.events import Event
from domain.lifecycle import EndScene, StartScene
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import DeclareStrategy, JudgeSimple, RollComplicated
from domain.rulesets.sims.tables import DiceMode, Rank, RankKind, ShiftSource
from domain.rulesets.sims.values import Roll, Shift
from engine import Engine
from tests.golden.test_sims import NAME, of, refused, run
from tests.unit.sims.conftest import quality_used


@pytest.mark.parametrize(
    ("quality", "difficulty", "simple", "rank"),
    [
        pytest.param("Cutlass", "Average", True, 2, id="G-PDQ-03-good-beats-average"),
        pytest.param("Cutlass", "Good", False, 2, id="G-PDQ-03-good-meets-good"),
        pytest.param(None, "Poor", True, 1, id="G-PDQ-04-default-average-beats-poor"),
        pytest.param(None, "average", False, 1, id="G-PDQ-04-default-meets-average"),
    ],
)
def test_a_simple_situation_records_the_ranks_compared(
    game: Engine, quality: str | None, difficulty: str, simple: bool, rank: int
) -> None:
    """Higher rank than the difficulty: a simple success, recorded with the scene; otherwise the
    situation escalates to a complicated one (R-PDQ-03)."""
    command = JudgeSimple(character="Neo", quality=quality, difficulty=difficulty, task=" wall ")
    events = run(game, command)
    level = Rank(difficulty.capitalize())
    expected: Event = (
        ev.SimpleSituationResolved(
            task="wall", quality=quality, rank=rank, difficulty=level, scene=1
        )
        if simple
        else ev.SituationEscalated(task="wall", quality=quality, rank=rank, difficulty=level)
    )
    assert [expected] == list(events)


def test_a_simple_success_needs_no_roll_only_in_its_scene(game: Engine) -> None:
    """The GM's simple success holds for that task in that scene: the next scene may roll it
    (R-PDQ-04 SimpleSituationNoRollNeeded)."""
    run(game, JudgeSimple(character="Neo", quality="Cutlass", difficulty="Poor", task="wall"))
    roll = RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Good", task="wall")
    refused(game, roll, errors.SimpleSituationNoRollNeeded, 3, 3)
    other = RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Good", task="gap")
    assert 1 == len(run(game, other, 3, 3))
    game.execute(NAME, EndScene())
    game.execute(NAME, StartScene(stage="the roof"))
    assert 1 == len(run(game, roll, 3, 3))


def test_a_complicated_roll_is_recorded_whole(game: Engine) -> None:
    """Good Athletics, Badass and one GM penalty (net +0): 2d6+2 = 9 meets Good's 9, a success
    (R-PDQ-04, G-PDQ-29: ties succeed)."""
    command = RollComplicated(
        character="Neo",
        qualities=("athletics",),
        difficulty="Good",
        task=" leap ",
        badass=True,
        penalties=("slippery",),
    )
    (rolled,) = run(game, command, 3, 4)
    athletics = quality_used(game, "Neo", "Athletics", Rank.GOOD, 2)
    shifts = (
        Shift(source=ShiftSource.BADASS, steps=1),
        Shift(source=ShiftSource.GM_PENALTY, steps=-1, note="slippery"),
    )
    roll = Roll(
        qualities=(athletics,),
        shifts=shifts,
        effective=2,
        modifier=2,
        mode=DiceMode.TWO_D6,
        dice=(3, 4),
        total=9,
    )
    assert (
        ev.ComplicatedSituationRolled(
            task="leap", roll=roll, difficulty=Rank.GOOD, tn=9, success=True, hazardous=False
        )
        == rolled
    )


def test_a_complicated_roll_is_on_six_sided_dice(game: Engine) -> None:
    """2d6: a 7 is no face of a d6 (InvalidDieFace), nothing is recorded."""
    command = RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Good")
    refused(game, command, InvalidDieFace, 7, 1)


@pytest.mark.parametrize(
    ("strategy", "source"),
    [
        pytest.param("full-attack", ShiftSource.FULL_ATTACK_PENALTY, id="R-PDQ-10-full-attack"),
        pytest.param("full-defense", ShiftSource.FULL_DEFENSE_PENALTY, id="R-PDQ-10-full-defense"),
    ],
)
def test_a_strategy_downshifts_other_actions(game: Engine, strategy: str, source: str) -> None:
    """Until the next turn, a strategy downshifts non-conflict actions: 8 with Good Athletics
    at Average misses Good's 9 (R-PDQ-10)."""
    run(game, DeclareStrategy(character="Neo", strategy=strategy))
    command = RollComplicated(character="Neo", qualities=("Athletics",), difficulty="Good")
    (rolled,) = run(game, command, 4, 4)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert ((Shift(source=ShiftSource(source), steps=-1),), 8, False) == (
        rolled.roll.shifts,
        rolled.roll.total,
        rolled.success,
    )


def test_an_auto_failed_hazard_deals_the_shortfall_from_the_lowest_roll(game: Engine) -> None:
    """Poor Charisma with a GM penalty bottoms out: no dice; on a hazardous task the shortfall
    counts from the lowest total possible, 2 + (-4): Poor's TN 5 + 2 = 7 Damage Ranks
    (R-PDQ-04 hazardous, PDQ-A7)."""
    command = RollComplicated(
        character="Neo",
        qualities=("Charisma",),
        difficulty="Poor",
        task="bluff the guard",
        hazardous=True,
        penalties=("awkward",),
    )
    result = game.execute(NAME, command)
    rolled, inflicted = result.events
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert (DiceMode.AUTO_FAIL, None, -1, -4, False) == (
        rolled.roll.mode,
        rolled.roll.total,
        rolled.roll.effective,
        rolled.roll.modifier,
        rolled.success,
    )
    assert (
        ev.DamageRanksInflicted(
            ranks=7,
            kind=RankKind.DAMAGE,
            source="environment (bluff the guard)",
            bonus_ranks=0,
            killing=False,
        )
        == inflicted
    )


def test_a_hazard_without_a_task_names_the_hazard(game: Engine) -> None:
    """A failed hazardous roll with no task named: 'environment (hazard)', TN - total ranks."""
    command = RollComplicated(
        character="Neo", qualities=("Hiding",), difficulty="Good", hazardous=True
    )
    events = run(game, command, 1, 2)
    assert [(6, "environment (hazard)")] == [
        (e.ranks, e.source) for e in of(events, ev.DamageRanksInflicted)
    ]


def test_a_secondary_npc_falling_takes_its_ranks_at_once(game: Engine) -> None:
    """A hazardous fall of the Ninja (Average, +0): 2 against Good's 9 is 7 Damage Ranks; his one
    track takes two and he is out, the rest discarded (R-PDQ-04 hazardous, PDQ-A16)."""
    command = RollComplicated(
        character="Ninja", qualities=(), difficulty="Good", task="the roof", hazardous=True
    )
    events = run(game, command, 1, 1)
    assert [(1, 0), (0, -1)] == [(e.before, e.after) for e in of(events, ev.QualityDownshifted)]
    assert [ev.CharacterOutOfScene(quality="Henchman", turn=0)] == of(
        events, ev.CharacterOutOfScene
    )
    assert [ev.RanksDiscarded(count=5)] == of(events, ev.RanksDiscarded)


def test_the_same_quality_twice_is_refused(game: Engine) -> None:
    """Combining qualities means different ones (Using Multiple Qualities)."""
    command = RollComplicated(character="Neo", qualities=("Cutlass", "cutlass"), difficulty="Good")
    error = refused(game, command, errors.DuplicateQualityName, 3, 3)
    assert {"quality": "Cutlass, cutlass"} == error.data


def test_a_helper_joins_with_the_quality_named(game: Engine) -> None:
    """Teamwork: the Boss's Good Brawler joins Neo's Good Cutlass, +4; only Neo rolls
    (R-PDQ-11, G-PDQ-17)."""
    command = RollComplicated(
        character="Neo", qualities=("Cutlass",), difficulty="Expert", helpers=("boss:brawler",)
    )
    (rolled,) = run(game, command, 3, 4)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert (
        ["Neo", "Boss"],
        ["Cutlass", "Brawler"],
        None,
        4,
        11,
        True,
    ) == (
        [u.character for u in rolled.roll.qualities],
        [u.quality for u in rolled.roll.qualities],
        rolled.roll.effective,
        rolled.roll.modifier,
        rolled.roll.total,
        rolled.success,
    )
