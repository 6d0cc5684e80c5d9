"""Code Green's house rules (DIGEST §7), with the digest's recommended readings as defaults."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import frozen

from domain.events import HouseRule
from domain.plain import Plain
from domain.rulesets.code_green.tables import GridLayout
from domain.rulesets.house_rules import HouseRules, boolean


@frozen(kw_only=True)
class Settings(Plain):
    grid: GridLayout = GridLayout.CONTIGUOUS
    marks_persist: bool = False
    incapacitation_ends_at_scene_end: bool = True
    environmental_strain: bool = False
    max_strain_per_test: int = 1  # 0 means no limit


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError("a whole number, 0 for no limit")
    return value


# key -> (attribute, parser, what a valid value looks like)
_KEYS: dict[str, tuple[str, Callable[[str], object], str]] = {
    "gridRanges": ("grid", GridLayout, "contiguous or die-per-axis"),
    "marksPersistAcrossScenes": ("marks_persist", boolean, "true or false"),
    "incapacitationEndsAtSceneEnd": ("incapacitation_ends_at_scene_end", boolean, "true or false"),
    "allowEnvironmentalStrain": ("environmental_strain", boolean, "true or false"),
    "maxStrainPerTest": ("max_strain_per_test", _count, "a whole number, 0 for no limit"),
}


RULES = HouseRules("code-green", Settings, _KEYS)


def house_rules(given: Mapping[str, str]) -> tuple[HouseRule, ...]:
    """Check the given house rules and return every rule with its value (defaults filled in)."""
    return RULES.check(given)


def settings_from(rules: tuple[HouseRule, ...]) -> Settings:
    return RULES.read(rules)
