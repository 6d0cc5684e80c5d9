"""The Code's house rules (settings.py): every §7 switch with its default, the values each takes,
and halving the Objective by the rounding chosen (TC-A7)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidHouseRule, UnknownHouseRule
from domain.rulesets.the_code.settings import Rounding, Settings, house_rules


def test_every_house_rule_is_listed_with_its_default() -> None:
    """With nothing given, every §7 switch is recorded at the digest's recommended reading."""
    rules = {r.key: r.value for r in house_rules({})}
    expected = {
        "dieSides": "10",
        "halfRounding": "floor",
        "tieRemoval": "pairwise",
        "popularityRollOncePerSession": "false",
        "revealedIdentityBecomesPublic": "true",
        "revealPolicy": "high-water",
        "playersRecordMo": "false",
    }
    assert expected == rules


KNOWN_KEYS = {
    "dieSides",
    "halfRounding",
    "tieRemoval",
    "popularityRollOncePerSession",
    "revealedIdentityBecomesPublic",
    "revealPolicy",
    "playersRecordMo",
}


@given(st.text().filter(lambda key: key not in KNOWN_KEYS))
def test_unknown_house_rules_are_refused(key: str) -> None:
    """A key that is not one of The Code's switches is refused."""
    with pytest.raises(UnknownHouseRule):
        house_rules({key: "true"})


@pytest.mark.parametrize(("key", "value"), [("dieSides", "8"), ("tieRemoval", "some")])
def test_bad_house_rule_values_are_refused(key: str, value: str) -> None:
    """A switch set to a value it does not take is refused."""
    with pytest.raises(InvalidHouseRule):
        house_rules({key: value})


@pytest.mark.parametrize(("rounding", "expected"), [(Rounding.FLOOR, 3), (Rounding.CEIL, 4)])
def test_half_the_objective_rounds_by_house_rule(rounding: Rounding, expected: int) -> None:
    """Objective 7 gives Motivation 3 (floor, TC-A7) or 4 (ceil)."""
    assert expected == Settings(half_rounding=rounding).half(7)
