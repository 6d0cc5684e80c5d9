"""Sprawl Goons house rules (settings.py): every key at the DIGEST's recommended reading."""

from __future__ import annotations

import pytest

from domain.errors import UnknownHouseRule
from domain.rulesets.sprawl_goons.settings import (
    CriticalTrigger,
    Settings,
    house_rules,
    settings_from,
)


def test_house_rules_fill_in_the_digest_defaults() -> None:
    """No house rules given: every key at the DIGEST's recommended reading."""
    assert Settings() == settings_from(house_rules({}))
    overflow = settings_from(house_rules({"criticalTrigger": "onOverflow"}))
    assert CriticalTrigger.ON_OVERFLOW == overflow.critical_trigger
    with pytest.raises(UnknownHouseRule):
        house_rules({"sg.criticalTrigger": "onOverflow"})
