"""Code Green's house rules (DIGEST §7), with the digest's recommended readings as defaults."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import frozen

from domain.errors import InvalidHouseRule, UnknownHouseRule
from domain.events import HouseRule
from domain.rulesets.code_green.tables import GridLayout


@frozen(kw_only=True)
class Settings:
    grid: GridLayout = GridLayout.CONTIGUOUS
    marks_persist: bool = False
    incapacitation_ends_at_scene_end: bool = True
    environmental_strain: bool = False
    max_strain_per_test: int = 1  # 0 means no limit


def _bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on", "1"):
        return True
    if lowered in ("false", "no", "off", "0"):
        return False
    raise ValueError("true or false")


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError("a whole number, 0 for no limit")
    return value


# key -> (attribute, parser, what a valid value looks like)
_KEYS: dict[str, tuple[str, Callable[[str], object], str]] = {
    "gridRanges": ("grid", GridLayout, "contiguous or die-per-axis"),
    "marksPersistAcrossScenes": ("marks_persist", _bool, "true or false"),
    "incapacitationEndsAtSceneEnd": ("incapacitation_ends_at_scene_end", _bool, "true or false"),
    "allowEnvironmentalStrain": ("environmental_strain", _bool, "true or false"),
    "maxStrainPerTest": ("max_strain_per_test", _count, "a whole number, 0 for no limit"),
}


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def house_rules(given: Mapping[str, str]) -> tuple[HouseRule, ...]:
    """Check the given house rules and return every rule with its value (defaults filled in)."""
    values: dict[str, object] = {}
    for key, text in given.items():
        if key not in _KEYS:
            raise UnknownHouseRule(system="code-green", key=key, known=", ".join(_KEYS))
        attribute, parse, expected = _KEYS[key]
        try:
            values[attribute] = parse(text)
        except ValueError:
            raise InvalidHouseRule(key=key, value=text, expected=expected) from None
    settings = Settings(**values)  # type: ignore[arg-type]
    return tuple(
        HouseRule(key=key, value=_text(getattr(settings, attribute)))
        for key, (attribute, _, _) in _KEYS.items()
    )


def settings_from(rules: tuple[HouseRule, ...]) -> Settings:
    values: dict[str, object] = {}
    for rule in rules:
        attribute, parse, _ = _KEYS[rule.key]
        values[attribute] = parse(rule.value)
    return Settings(**values)  # type: ignore[arg-type]
