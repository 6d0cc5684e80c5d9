"""Sprawl Goons tables (tables.py): the location die (R-SG-06 Body Locations), the starting item
list (R-SG-01), and which implants are cybernetic limbs (Special Rules)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.rulesets.sprawl_goons.tables import Location, catalogued, limb_of, location_for


@given(die=st.integers(1, 6))
def test_every_location_die_names_a_location(die: int) -> None:
    """1 leg, 2-4 torso, 5 arm, 6 head."""
    assert location_for(die).value in ("leg", "torso", "arm", "head")


def test_starting_items_are_found_by_key_or_name() -> None:
    """Picks name list entries by key or by part of their name."""
    assert "lazarus" == catalogued("Lazarus").key  # type: ignore[union-attr]
    assert "credit-card" == catalogued("Stolen Credit Card").key  # type: ignore[union-attr]
    assert None is catalogued("plasma rifle")


@pytest.mark.parametrize(
    ("name", "limb"),
    [
        ("Cybernetic arm", Location.ARM),
        ("Cyber leg", Location.LEG),
        ("Cyberarm Mk II", Location.ARM),
        ("cyberleg", Location.LEG),
        ("Cyber eye", None),
        ("Reflex booster arm", None),
        ("Leg brace", None),
    ],
)
def test_a_cybernetic_limb_is_an_implant_named_so(name: str, limb: Location | None) -> None:
    """Special Rules (cybernetic limbs): an implant is an arm or a leg when its name says
    cyber(netic) and arm or leg (or cyberarm, cyberleg)."""
    assert limb == limb_of(name)
