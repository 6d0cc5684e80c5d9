"""Code Green's sheet projection: the d66 ranges of the Profile Grid, the one-line status, and the
values the JSON sheet adds (pure functions over a character's state)."""

from __future__ import annotations

from uuid import uuid4

import pytest
from attrs import evolve

from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.tables import Form, Function, GridLayout, Square, d66_range
from projections.code_green_sheet import sheet_extras, status, waiting_for

S1 = CgCharacter(
    id=uuid4(),
    name="31415",
    player="alice",
    form=(Form.LEGS, Form.TAIL, Form.TEETH),
    function=(Function.CRYPTIC, Function.INVULNERABLE, Function.PHASING),
)


@pytest.mark.parametrize(
    ("square", "layout", "expected"),
    [
        pytest.param(Square.R1C1, GridLayout.CONTIGUOUS, "11-14", id="CG-A1-first-square"),
        pytest.param(Square.R3C3, GridLayout.CONTIGUOUS, "63-66", id="CG-A1-last-square"),
        pytest.param(Square.R1C1, GridLayout.DIE_PER_AXIS, "11,12,21,22", id="die-per-axis"),
    ],
)
def test_a_square_shows_the_d66_results_that_name_it(
    square: Square, layout: GridLayout, expected: str
) -> None:
    """Four consecutive results read as a range; results apart are listed one by one."""
    assert expected == d66_range(square, layout)


def test_the_status_line_names_what_waits_then_tokens_and_marks_in_grid_order() -> None:
    """A placed character: its state first, then its tokens and its marks, sorted."""
    c = evolve(
        S1,
        tokens=frozenset({Square.R3C1, Square.R1C2, Square.R2C2}),
        marks=frozenset({Square.R3C3, Square.R1C1}),
        placed=True,
    )
    assert "tokens placed; tokens R1C2, R2C2, R3C1; marks R1C1, R3C3" == status(c)


def test_the_json_sheet_adds_sorted_squares_and_what_the_character_waits_for() -> None:
    """Tokens and marks as sorted lists of squares, and the same state `character list` shows."""
    c = evolve(S1, tokens=frozenset({Square.R2C2, Square.R1C1}), displacement=Square.R1C1)
    expected = {"tokens": ["R1C1", "R2C2"], "marks": [], "status": waiting_for(c)}
    assert expected == sheet_extras(c)
    assert "must displace the token on R1C1" == waiting_for(c)
