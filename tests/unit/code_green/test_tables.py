"""Code Green's tables (tables.py): Table 1 and Table 2 of Character Creation, the d66 ranges of
the Profile Grid's squares (CG-A1), the squares a test consults and the result bands (R-CG-03)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.dice import d66_ordinal
from domain.rulesets.code_green.tables import (
    Band,
    Form,
    Function,
    GridLayout,
    Square,
    Table,
    band_for,
    consulted_squares,
    find_trait,
    square_for,
    trait_for,
)
from tests.unit.code_green.conftest import (
    CONTIGUOUS,
    R1C1,
    R1C2,
    R1C3,
    R2C1,
    R2C2,
    R2C3,
    R3C1,
    R3C2,
    R3C3,
)

ALL_D66 = tuple(10 * tens + ones for tens in range(1, 7) for ones in range(1, 7))

# Table 1 and Table 2 as printed in the rule text (Character Creation), two d66 results an entry.
FORM_TABLE = {
    (11, 12): "Blood", (13, 14): "Bones", (15, 16): "Brain", (21, 22): "Claws",
    (23, 24): "Ears", (25, 26): "Eyes", (31, 32): "Guts", (33, 34): "Hands",
    (35, 36): "Heart", (41, 42): "Hair", (43, 44): "Legs", (45, 46): "Lungs",
    (51, 52): "Nose", (53, 54): "Skin", (55, 56): "Tail", (61, 62): "Teeth",
    (63, 64): "Tongue", (65, 66): "Wings",
}  # fmt: skip
FUNCTION_TABLE = {
    (11, 12): "Accelerated", (13, 14): "Autonomous", (15, 16): "Auxiliary",
    (21, 22): "Cryogenic", (23, 24): "Cryptic", (25, 26): "Elastic",
    (31, 32): "Electric", (33, 34): "Entropic", (35, 36): "Invasive",
    (41, 42): "Invulnerable", (43, 44): "Kinetic", (45, 46): "Magnetic",
    (51, 52): "Phasing", (53, 54): "Polymorphic", (55, 56): "Projectile",
    (61, 62): "Pyrogenic", (63, 64): "Telescopic", (65, 66): "Toxic",
}  # fmt: skip


def _by_value(table: Mapping[tuple[int, int], str]) -> dict[int, str]:
    return {value: entry for values, entry in table.items() for value in values}


@pytest.mark.parametrize(
    ("table", "printed"),
    [
        pytest.param(Table.FORM, FORM_TABLE, id="form"),
        pytest.param(Table.FUNCTION, FUNCTION_TABLE, id="function"),
    ],
)
def test_every_d66_value_names_the_printed_trait(
    table: Table, printed: dict[tuple[int, int], str]
) -> None:
    """Each of the 36 d66 results names the entry printed for it in Table 1 / Table 2."""
    assert _by_value(printed) == {value: trait_for(table, value).value for value in ALL_D66}


# DIGEST CG-A1 alternative B: the tens die picks the row (1–2/3–4/5–6), the ones die the column.
DIE_PER_AXIS = {
    R1C1: (11, 12, 21, 22), R1C2: (13, 14, 23, 24), R1C3: (15, 16, 25, 26),
    R2C1: (31, 32, 41, 42), R2C2: (33, 34, 43, 44), R2C3: (35, 36, 45, 46),
    R3C1: (51, 52, 61, 62), R3C2: (53, 54, 63, 64), R3C3: (55, 56, 65, 66),
}  # fmt: skip
LAYOUTS = {GridLayout.CONTIGUOUS: CONTIGUOUS, GridLayout.DIE_PER_AXIS: DIE_PER_AXIS}


def _square_by_value(layout: Mapping[Square, tuple[int, ...]]) -> dict[int, Square]:
    return {value: square for square, values in layout.items() for value in values}


@pytest.mark.parametrize("layout", list(GridLayout))
def test_every_d66_value_lands_on_its_square(layout: GridLayout) -> None:
    """Each of the 36 d66 results lands on the square the layout gives it."""
    assert _square_by_value(LAYOUTS[layout]) == {
        value: square_for(value, layout) for value in ALL_D66
    }


@pytest.mark.parametrize("layout", list(GridLayout))
def test_each_square_gets_exactly_four_d66_values(layout: GridLayout) -> None:
    """36 results over 9 squares: every square is hit by exactly 4 (probability 1/9 each)."""
    counts = Counter(square_for(value, layout) for value in ALL_D66)
    assert dict.fromkeys(Square, 4) == dict(counts)


def test_contiguous_squares_are_numeric_ranges() -> None:
    """Under CG-A1 each square's four values are consecutive in d66 order (one numeric range)."""
    for square in Square:
        ordinals = sorted(
            d66_ordinal(v) for v in ALL_D66 if square_for(v, GridLayout.CONTIGUOUS) == square
        )
        assert list(range(ordinals[0], ordinals[0] + 4)) == ordinals


@given(tens=st.integers(1, 6), ones=st.integers(1, 6), layout=st.sampled_from(GridLayout))
def test_any_d66_maps_to_a_square_and_traits(tens: int, ones: int, layout: GridLayout) -> None:
    """Any d66 result lands on one of the nine squares and names a trait on both tables."""
    value = 10 * tens + ones
    assert square_for(value, layout) in set(Square)
    assert trait_for(Table.FORM, value) in set(Form)
    assert trait_for(Table.FUNCTION, value) in set(Function)


@pytest.mark.parametrize("square", list(Square))
def test_consulted_squares_are_the_row_and_column_once_each(square: Square) -> None:
    """A test consults the 3 squares of its row and the 3 of its column, the crossing once: 5."""
    consulted = consulted_squares(square.row, square.column)
    expected = {s for s in Square if s.row == square.row or s.column == square.column}
    assert (5, expected) == (len(consulted), set(consulted))


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (None, Band.LESS_THAN_HUMAN),
        (1, Band.LESS_THAN_HUMAN),
        (2, Band.LESS_THAN_HUMAN),
        (3, Band.LESS_THAN_HUMAN),
        (4, Band.MOSTLY_HUMAN),
        (5, Band.MOSTLY_HUMAN),
        (6, Band.MORE_THAN_HUMAN),
    ],
)
def test_band_for_every_result(result: int | None, expected: Band) -> None:
    """Nothing rolled reads as 1–3; 1–3 less than human, 4–5 mostly human, 6 more than human."""
    assert expected == band_for(result)


@pytest.mark.parametrize(
    ("table", "text", "expected"),
    [
        (Table.FORM, " legs ", Form.LEGS),
        (Table.FUNCTION, "CRYPTIC", Function.CRYPTIC),
        (Table.FORM, "Cryptic", None),
        (Table.FUNCTION, "Wheels", None),
    ],
)
def test_find_trait_ignores_case_and_spaces(table: Table, text: str, expected: Any) -> None:
    """Traits are found by name on their own table only, whatever the case."""
    assert expected == find_trait(table, text)
