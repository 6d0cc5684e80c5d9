"""The Sims house rules (settings.py): each pdq switch at the DIGEST's reading by default."""

from __future__ import annotations

import pytest

from domain.errors import UnknownHouseRule
from domain.rulesets.sims.settings import house_rules


def test_house_rules_default_to_the_digest_readings() -> None:
    """Every pdq switch is recorded with its default; unknown ones are refused."""
    expected = {
        "tieMussUp": "false",
        "failureRanksClearAtSceneEnd": "false",
        "forceBottomOutLast": "false",
        "offLadderTn": "extrapolate",
        "lethality": "default",
    }
    assert expected == {r.key: r.value for r in house_rules({})}
    with pytest.raises(UnknownHouseRule):
        house_rules({"exploding": "true"})
