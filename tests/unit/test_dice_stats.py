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


@pytest.mark.parametrize(
    ("x", "dof", "p"),
    [(4.2, 5, 0.52099), (23.209, 10, 0.01), (31.410, 20, 0.05), (123.225, 99, 0.05)],
)
def test_chi_square_survival_matches_more_table_values(x: float, dof: int, p: float) -> None:
    """chi-square 4.2 on a d6 (5 dof) is p = 0.521; the 1% point of 10 dof, the 5% points of 20
    and 99 dof (a d100) give 0.01 and 0.05."""
    assert p == pytest.approx(chi_square_survival(x, dof), abs=1e-4)


@given(st.floats(0.001, 300))
def test_one_degree_of_freedom_is_the_normal_tail(x: float) -> None:
    """For 1 dof, P(X >= x) = erfc(sqrt(x / 2)), the closed form (series and continued fraction
    alike)."""
    assert math.erfc(math.sqrt(x / 2)) == pytest.approx(
        chi_square_survival(x, 1), rel=1e-9, abs=1e-15
    )


@given(st.floats(0.001, 300), st.integers(1, 50))
def test_even_degrees_of_freedom_are_a_poisson_sum(x: float, half: int) -> None:
    """For 2k dof, P(X >= x) = e^(-x/2) * sum of (x/2)^i / i! for i < k, the closed form."""
    m = x / 2
    expected = math.fsum(math.exp(-m + i * math.log(m) - math.lgamma(i + 1)) for i in range(half))
    assert expected == pytest.approx(chi_square_survival(x, 2 * half), rel=1e-8, abs=1e-14)


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
