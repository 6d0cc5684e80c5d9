"""Code Green's house rules (settings.py): the DIGEST §7 defaults, the values each key takes,
and a campaign refused with a bad one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import DomainError, InvalidHouseRule, UnknownHouseRule
from domain.events import HouseRule
from domain.rulesets.code_green.settings import Settings, house_rules, settings_from
from domain.rulesets.code_green.tables import GridLayout
from engine import Engine
from tests.conftest import event_count


def test_house_rule_defaults_are_the_digest_recommendations() -> None:
    """With nothing given, every house rule is recorded at the DIGEST §7 default."""
    expected = (
        HouseRule(key="gridRanges", value="contiguous"),
        HouseRule(key="marksPersistAcrossScenes", value="false"),
        HouseRule(key="incapacitationEndsAtSceneEnd", value="true"),
        HouseRule(key="allowEnvironmentalStrain", value="false"),
        HouseRule(key="maxStrainPerTest", value="1"),
    )
    assert expected == house_rules({})
    defaults = Settings(
        grid=GridLayout.CONTIGUOUS,
        marks_persist=False,
        incapacitation_ends_at_scene_end=True,
        environmental_strain=False,
        max_strain_per_test=1,
    )
    assert defaults == settings_from(house_rules({})) == Settings()


def test_given_house_rules_are_parsed_and_recorded() -> None:
    """Given values are checked, stored as text, and read back as settings."""
    chosen = {
        "gridRanges": "die-per-axis",
        "marksPersistAcrossScenes": "yes",
        "incapacitationEndsAtSceneEnd": "off",
        "allowEnvironmentalStrain": "TRUE",
        "maxStrainPerTest": "0",
    }
    expected = Settings(
        grid=GridLayout.DIE_PER_AXIS,
        marks_persist=True,
        incapacitation_ends_at_scene_end=False,
        environmental_strain=True,
        max_strain_per_test=0,
    )
    assert expected == settings_from(house_rules(chosen))
    recorded = {rule.key: rule.value for rule in house_rules(chosen)}
    assert "true" == recorded["marksPersistAcrossScenes"]
    assert "0" == recorded["maxStrainPerTest"]


def test_unknown_house_rule_is_refused() -> None:
    """A key Code Green does not know is refused with UNKNOWN_HOUSE_RULE, naming it."""
    with pytest.raises(UnknownHouseRule) as raised:
        house_rules({"marksPersist": "true"})
    assert "UNKNOWN_HOUSE_RULE" == raised.value.code
    assert "marksPersist" == raised.value.data["key"]


KNOWN_KEYS = frozenset(rule.key for rule in house_rules({}))


@given(st.text().filter(lambda key: key not in KNOWN_KEYS))
def test_any_unknown_house_rule_key_is_refused(key: str) -> None:
    """Whatever the unknown key, it is refused rather than ignored."""
    with pytest.raises(UnknownHouseRule):
        house_rules({key: "true"})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("gridRanges", "hexagonal"),
        ("marksPersistAcrossScenes", "maybe"),
        ("incapacitationEndsAtSceneEnd", ""),
        ("allowEnvironmentalStrain", "2"),
        ("maxStrainPerTest", "-1"),
        ("maxStrainPerTest", "lots"),
        ("maxStrainPerTest", "1.5"),
    ],
)
def test_invalid_house_rule_value_is_refused(key: str, value: str) -> None:
    """A known key with a value it cannot take is refused with INVALID_HOUSE_RULE."""
    with pytest.raises(InvalidHouseRule) as raised:
        house_rules({key: value})
    assert "INVALID_HOUSE_RULE" == raised.value.code
    assert (key, value) == (raised.value.data["key"], raised.value.data["value"])


@pytest.mark.parametrize(
    ("rules", "error"),
    [
        pytest.param({"noSuchRule": "1"}, UnknownHouseRule, id="unknown"),
        pytest.param({"maxStrainPerTest": "many"}, InvalidHouseRule, id="invalid"),
    ],
)
def test_campaign_with_a_bad_house_rule_is_not_created(
    engine: Engine, rules: dict[str, str], error: type[DomainError]
) -> None:
    """A campaign whose house rules are refused records nothing at all."""
    with pytest.raises(error):
        engine.create_campaign("Lab", "code-green", house_rules=rules)
    assert 0 == event_count(engine)
