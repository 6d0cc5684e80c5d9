"""Dice fairness statistics: counts per die size and source, chi-square and its p-value."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.dice import Die, Provenance
from projections.dice_stats import FaceCounts, chi_square_survival, tally


@pytest.mark.parametrize(
    ("x", "dof", "p"),
    [(3.8415, 1, 0.05), (11.0705, 5, 0.05), (16.919, 9, 0.05), (1.0, 2, math.exp(-0.5))],
)
def test_chi_square_survival_matches_the_tables(x: float, dof: int, p: float) -> None:
    """The p-value of the classic 5% critical values is 0.05 (and e^-x/2 for two dof)."""
    assert p == pytest.approx(chi_square_survival(x, dof), abs=1e-5)


@given(st.floats(0, 200), st.integers(1, 30))
def test_p_values_are_probabilities(x: float, dof: int) -> None:
    """Always between 0 and 1."""
    assert 0.0 <= chi_square_survival(x, dof) <= 1.0


def test_counts_are_kept_per_size_and_source() -> None:
    """Two d6 sources and a d10 stay apart; faces are counted in order."""
    dice = [
        (Die(sides=6, face=1), Provenance.PHYSICAL),
        (Die(sides=6, face=6), Provenance.PHYSICAL),
        (Die(sides=6, face=6), Provenance.COMMITTED),
        (Die(sides=10, face=3), Provenance.COMMITTED),
    ]
    rows = {(r.sides, r.source): r.counts for r in tally(dice)}
    assert (1, 0, 0, 0, 0, 1) == rows[(6, Provenance.PHYSICAL)]
    assert (0, 0, 0, 0, 0, 1) == rows[(6, Provenance.COMMITTED)]
    assert (0, 0, 1, 0, 0, 0, 0, 0, 0, 0) == rows[(10, Provenance.COMMITTED)]


def test_a_loaded_die_is_flagged_and_a_fair_spread_is_not() -> None:
    """60 rolls of a d6 that only shows 6 has a tiny p; an even spread has p = 1."""
    loaded = FaceCounts(6, Provenance.PHYSICAL, (0, 0, 0, 0, 0, 60))
    fair = FaceCounts(6, Provenance.PHYSICAL, (10, 10, 10, 10, 10, 10))
    assert (True, 1.0) == (loaded.p_value < 1e-6, fair.p_value)
    assert (True, True) == (loaded.enough, fair.enough)


def test_the_chart_page_has_a_bar_per_face_and_escapes_names() -> None:
    """One SVG bar per face with its count; the campaign name is escaped."""
    from projections.dice_chart import page

    html = page("<b>Lab</b>", [FaceCounts(6, Provenance.PHYSICAL, (1, 2, 3, 4, 5, 6))])
    assert 6 == html.count('class="bar"')
    assert 'data-face="6" data-count="6"' in html
    assert "&lt;b&gt;Lab&lt;/b&gt;" in html
    assert "<b>Lab</b>" not in html
