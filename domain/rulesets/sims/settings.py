"""The Sims RPG's house rules (DIGEST §7 pdq.*), defaults = the digest's recommended readings."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import frozen

from domain.errors import InvalidHouseRule, UnknownHouseRule
from domain.events import HouseRule
from domain.rulesets.sims.tables import Lethality, OffLadder


@frozen(kw_only=True)
class Settings:
    tie_muss_up: bool = False
    failure_ranks_clear_at_scene_end: bool = False
    force_bottom_out_last: bool = False
    off_ladder_tn: OffLadder = OffLadder.EXTRAPOLATE
    lethality: Lethality = Lethality.DEFAULT


def _bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on", "1"):
        return True
    if lowered in ("false", "no", "off", "0"):
        return False
    raise ValueError("true or false")


# key -> (attribute, parser, what a valid value looks like)
_KEYS: dict[str, tuple[str, Callable[[str], object], str]] = {
    "tieMussUp": ("tie_muss_up", _bool, "true or false"),
    "failureRanksClearAtSceneEnd": ("failure_ranks_clear_at_scene_end", _bool, "true or false"),
    "forceBottomOutLast": ("force_bottom_out_last", _bool, "true or false"),
    "offLadderTn": ("off_ladder_tn", OffLadder, "extrapolate or clamp"),
    "lethality": ("lethality", Lethality, "default or choose-at-start"),
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
            raise UnknownHouseRule(system="sims", key=key, known=", ".join(_KEYS))
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
