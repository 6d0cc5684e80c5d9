"""The Sims Master Chart (tables.py, DIGEST 3.1): each rung's modifier and target number, off the
ladder extrapolated or clamped (PDQ-A8), and ranks and areas read as the rules name them."""

from __future__ import annotations

import pytest

from domain.rulesets.sims import tables
from domain.rulesets.sims.tables import Area, Rank


@pytest.mark.parametrize(
    ("index", "modifier", "tn", "clamped", "name"),
    [
        pytest.param(-1, -4, 3, 5, "zeroed", id="PDQ-A8-below-poor"),
        pytest.param(0, -2, 5, 5, "Poor", id="3.1-poor"),
        pytest.param(1, 0, 7, 7, "Average", id="3.1-average"),
        pytest.param(2, 2, 9, 9, "Good", id="3.1-good"),
        pytest.param(3, 4, 11, 11, "Expert", id="3.1-expert"),
        pytest.param(4, 6, 13, 13, "Master", id="PDQ-X7-master"),
        pytest.param(5, 8, 15, 13, "Master+1", id="PDQ-A8-master-upshifted"),
        pytest.param(6, 10, 17, 13, "Master+2", id="PDQ-A8-twice-above-master"),
    ],
)
def test_the_master_chart_reads_each_rung(
    index: int, modifier: int, tn: int, clamped: int, name: str
) -> None:
    """modifier = 2·idx − 2 and TN = 2·idx + 5 along the ladder, extrapolated off it or clamped
    to 5..13 (DIGEST 3.1, PDQ-A8); the rung's name as the sheet shows it."""
    assert (modifier, tn, clamped, name) == (
        tables.modifier(index),
        tables.target_number(index),
        tables.target_number(index, clamp=True),
        tables.rank_name(index),
    )


def test_each_rank_knows_its_level_and_modifier() -> None:
    """Poor..Master are levels 0..4 with modifiers -2..+6 (Master Chart)."""
    assert [(0, -2), (1, 0), (2, 2), (3, 4), (4, 6)] == [(r.level, r.modifier) for r in Rank]


@pytest.mark.parametrize(
    ("text", "rank"),
    [(" good ", Rank.GOOD), ("MASTER", Rank.MASTER), ("Poor", Rank.POOR), ("great", None)],
)
def test_ranks_are_read_whatever_the_case(text: str, rank: Rank | None) -> None:
    """A rank is named as the chart names it, in any case, with spaces around (Ranks)."""
    assert rank == tables.find_rank(text)


@pytest.mark.parametrize(
    ("text", "area"),
    [(" combat ", Area.COMBAT), ("MASTER+", Area.MASTER_PLUS), ("Sea", None)],
)
def test_areas_are_read_whatever_the_case(text: str, area: Area | None) -> None:
    """An area is named as the rules name it, in any case (Qualities)."""
    assert area == tables.find_area(text)
