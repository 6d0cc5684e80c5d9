"""How a Sims action rolls (resolution.py, R-PDQ-04, R-PDQ-06): the qualities used and the
shifts on them give 2d6 plus a modifier, 3d6+6 above Master (PDQ-A6) or an automatic failure,
and a tie is rolled again the same way (PDQ-A1)."""

from __future__ import annotations

from uuid import UUID

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.dice import EnteredDice
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import Attack, CreateCharacter, Reroll, RollComplicated
from domain.rulesets.sims.resolution import effective, roll
from domain.rulesets.sims.tables import DiceMode, Outcome, Rank, SheetKind, ShiftSource
from domain.rulesets.sims.values import QualityUsed, Shift
from engine import Engine
from tests.golden.test_sims import of, run


def _use(current: int) -> QualityUsed:
    base = list(Rank)[max(current, 0)]
    return QualityUsed(
        character_id=UUID(int=1),
        character="x",
        quality="q",
        base=base,
        current=current,
        modifier=2 * current - 2,
    )


shifts_strategy = st.lists(st.sampled_from([-1, 1]), max_size=6).map(
    lambda steps: tuple(Shift(source=ShiftSource.GM_PENALTY, steps=s) for s in steps)
)


@given(
    current=st.integers(0, 4),
    shifts=shifts_strategy,
    faces=st.lists(st.integers(1, 6), min_size=3, max_size=3),
)
def test_a_single_quality_rolls_within_its_bounds(
    current: int, shifts: tuple[Shift, ...], faces: list[int]
) -> None:
    """Below Poor auto-fails; above Master rolls 3d6+6; otherwise 2d6 + the rank's modifier."""
    index, modifier, mode = effective((_use(current),), shifts)
    assert index is not None
    rolled = roll(EnteredDice(tuple(faces)), (_use(current),), shifts)
    if index < 0:
        assert (DiceMode.AUTO_FAIL, None) == (mode, rolled.total)
    elif index > 4:
        assert (DiceMode.THREE_D6, 6) == (mode, modifier)
        assert rolled.total is not None
        assert 9 <= rolled.total <= 24
    else:
        assert (DiceMode.TWO_D6, 2 * index - 2) == (mode, modifier)
        assert rolled.total is not None
        assert 2 + modifier <= rolled.total <= 12 + modifier


@given(currents=st.lists(st.integers(0, 4), min_size=2, max_size=4), shifts=shifts_strategy)
def test_combined_qualities_add_modifiers_and_fail_below_poor(
    currents: list[int], shifts: tuple[Shift, ...]
) -> None:
    """Combined: the modifiers add, +-2 per shift; a total below -2 auto-fails, never 3d6."""
    index, modifier, mode = effective(tuple(_use(c) for c in currents), shifts)
    expected = sum(2 * c - 2 for c in currents) + 2 * sum(s.steps for s in shifts)
    assert (None, expected) == (index, modifier)
    assert (DiceMode.AUTO_FAIL if expected < -2 else DiceMode.TWO_D6) == mode


@pytest.mark.parametrize("named", ["none", " - ", ""])
def test_no_applicable_quality_is_the_default_average(game: Engine, named: str) -> None:
    """'none', '-' or nothing names no quality: Neo acts at Average, +0 (Cypher, L91)."""
    command = RollComplicated(character="Neo", qualities=(named,), difficulty="Average")
    (rolled,) = run(game, command, 3, 4)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    (used,) = rolled.roll.qualities
    assert (None, Rank.AVERAGE, 1, 0, 7, True) == (
        used.quality,
        used.base,
        used.current,
        used.modifier,
        rolled.roll.total,
        rolled.success,
    )


def test_a_secondary_npc_always_acts_with_its_one_rank(game: Engine) -> None:
    """The Ninja names no quality: he rolls his Average Henchman rank (PDQ-A16)."""
    command = RollComplicated(character="Ninja", qualities=(), difficulty="Average")
    (rolled,) = run(game, command, 3, 4)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert ["Henchman"] == [u.quality for u in rolled.roll.qualities]


def test_a_tied_three_dice_attack_is_rolled_again_with_three_dice(game: Engine) -> None:
    """A Master Kung Fu upshifted by Badass rolls 3d6+6 (PDQ-A6): 1,1,1 + 6 ties Neo's Good 9;
    the re-roll is 3d6+6 again (PDQ-A1)."""
    run(
        game,
        CreateCharacter(
            character="Agent", player="GM", qualities=("Kung Fu:Combat:Master",), kind=SheetKind.NPC
        ),
    )
    command = Attack(
        attacker="Agent", qualities=("Kung Fu",), targets=("Neo:Cutlass",), badass=True
    )
    (tied,) = of(run(game, command, 1, 1, 1), ev.ConflictAttackRolled)
    assert (DiceMode.THREE_D6, 5, 6, 9, Outcome.TIE) == (
        tied.roll.mode,
        tied.roll.effective,
        tied.roll.modifier,
        tied.roll.total,
        tied.outcome,
    )
    (again,) = of(run(game, Reroll(), 2, 1, 1), ev.ConflictAttackRolled)
    assert ((2, 1, 1), 10, Outcome.HIT, 1, True) == (
        again.roll.dice,
        again.roll.total,
        again.outcome,
        again.ranks,
        again.reroll,
    )
