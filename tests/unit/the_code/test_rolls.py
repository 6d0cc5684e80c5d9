"""The Code's dice (rolls.py): what a Motivation roll costs (R-TC-03), and how a contest's dice
are settled: ties removed (TC-A4), winning dice, stalemates (R-TC-04)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.rulesets.the_code.rolls import Settled, read_motivation, settle
from domain.rulesets.the_code.settings import TieRemoval


@given(st.lists(st.integers(1, 10), min_size=1, max_size=6))
def test_motivation_cost_never_exceeds_the_dice(faces: list[int]) -> None:
    """The cost is the dice above 5, and success needs a die of 5 or more."""
    result = read_motivation(tuple(faces))
    assert sum(1 for f in faces if f > 5) == result.cost
    assert any(f >= 5 for f in faces) == result.success


@pytest.mark.parametrize(
    ("removal", "winner", "removed"),
    [(TieRemoval.PAIRWISE, 0, ((9,), (9,))), (TieRemoval.ALL, 1, ((9, 9), (9,)))],
)
def test_tie_removal_by_house_rule(
    removal: TieRemoval, winner: int, removed: tuple[tuple[int, ...], ...]
) -> None:
    """9,9,4 vs 9,7: pairwise leaves 9,4 vs 7 (A wins); 'all' leaves 4 vs 7 (B wins)."""
    settled = settle((9, 9, 4), (9, 7), removal)
    assert (winner, removed) == (settled.winner, settled.removed)


@given(
    st.lists(st.integers(1, 10), min_size=1, max_size=5),
    st.lists(st.integers(1, 10), min_size=1, max_size=5),
)
def test_a_contest_never_removes_more_than_was_rolled(a: list[int], b: list[int]) -> None:
    """Removed and winning dice come from the pools; a stalemate means every die was tied away."""
    settled = settle(tuple(a), tuple(b), TieRemoval.PAIRWISE)
    assert len(settled.removed[0]) == len(settled.removed[1]) == len(settled.ties)
    if settled.winner is None:
        assert len(a) == len(b) == len(settled.ties)
    else:
        pool = a if settled.winner == 0 else b
        assert len(settled.winning) + len(settled.removed[settled.winner]) <= len(pool)


def test_a_stalemate_has_no_winning_dice() -> None:
    """Every die tied away: no winner and no winning dice (R-TC-04 step 5, G-TC-09)."""
    assert Settled(winner=None, removed=((8, 3), (8, 3)), winning=(), ties=(8, 3)) == settle(
        (3, 8), (8, 3), TieRemoval.PAIRWISE
    )


@pytest.mark.parametrize(
    ("a", "b", "winner", "winning"),
    [
        pytest.param((5, 1), (5,), 0, (1,), id="R-TC-04-a-one-wins-against-an-emptied-pool"),
        pytest.param((9, 4), (4,), 0, (9,), id="R-TC-04-only-dice-above-the-loser-win"),
    ],
)
def test_winning_dice_are_those_above_the_losers_best(
    a: tuple[int, ...], b: tuple[int, ...], winner: int, winning: tuple[int, ...]
) -> None:
    """Winning dice are strictly higher than the loser's highest left, any die against none
    (R-TC-04 step 6)."""
    settled = settle(a, b, TieRemoval.PAIRWISE)
    assert (winner, winning) == (settled.winner, settled.winning)
