"""The Code's tables (tables.py, DIGEST 4.1): the Exposure ladder's details, their names and the
0..10 range of the scores."""

from __future__ import annotations

import pytest

from domain.rulesets.the_code.tables import Detail, clamp, find_detail, ladder_detail


def test_each_level_of_the_ladder_names_its_detail() -> None:
    """Levels 2..10: description, code name, MO, Objective, Advantage, Weakness, Profession,
    Motivation, secret identity (DIGEST 4.1 Exposure ladder)."""
    assert list(Detail) == [ladder_detail(level) for level in range(2, 11)]


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        pytest.param(" Appearance ", Detail.PHYSICAL_DESCRIPTION, id="appearance"),
        pytest.param("description", Detail.PHYSICAL_DESCRIPTION, id="description"),
        pytest.param("physical", Detail.PHYSICAL_DESCRIPTION, id="physical"),
        pytest.param("physical description", Detail.PHYSICAL_DESCRIPTION, id="spaces"),
        pytest.param("code_name", Detail.CODE_NAME, id="underscore"),
        pytest.param("MO", Detail.MODUS_OPERANDI, id="mo"),
        pytest.param("identity", Detail.SECRET_IDENTITY, id="identity"),
        pytest.param("secret", Detail.SECRET_IDENTITY, id="secret"),
        pytest.param("Secret-Identity", Detail.SECRET_IDENTITY, id="value"),
        pytest.param("shoe size", None, id="unknown"),
    ],
)
def test_details_are_named_as_the_gm_says_them(text: str, detail: Detail | None) -> None:
    """A detail by its name, with spaces or underscores, in any case, or by an alias."""
    assert detail == find_detail(text)


@pytest.mark.parametrize(
    ("value", "clamped"), [(-3, 0), (0, 0), (7, 7), (10, 10), (12, 10)], ids=str
)
def test_scores_are_clamped_to_the_ladder(value: int, clamped: int) -> None:
    """Exposure and Popularity stay within 0..10 (TC-A24)."""
    assert clamped == clamp(value)
