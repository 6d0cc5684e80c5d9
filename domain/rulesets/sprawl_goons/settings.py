"""Sprawl Goons' house rules (DIGEST §7 ``sg.*``), with the digest's recommended readings as
defaults."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping

from attrs import frozen

from domain.errors import InvalidHouseRule, UnknownHouseRule
from domain.events import HouseRule


class CriticalTrigger(enum.StrEnum):
    ON_REACH_ZERO = "onReachZero"  # Resilience reaching 0, and every later hit at 0 (SG-A1)
    ON_OVERFLOW = "onOverflow"  # only damage beyond 0


class CritBonusScope(enum.StrEnum):
    UNTREATED = "untreated"  # +3 while an earlier critical injury is untreated (SG-A4)
    EVER = "ever"  # +3 once any critical injury was ever taken


class GlitchUpgradeBoth(enum.StrEnum):
    CANCEL = "cancel"  # Glitch and Upgrade together roll a plain 2d6 (SG-A3)
    GLITCH_WINS = "glitchWins"
    UPGRADE_WINS = "upgradeWins"


class ShotgunFailureDamage(enum.StrEnum):
    MAX_SHORTFALL_ONCE = "maxShortfallOnce"  # one exposure: the largest shortfall (SG-A11)
    PER_TARGET = "perTarget"


class FirstAidLimit(enum.StrEnum):
    ONCE_PER_PATIENT_PER_SCENE = "oncePerPatientPerScene"  # SG-A7
    UNLIMITED = "unlimited"


@frozen(kw_only=True)
class Settings:
    critical_trigger: CriticalTrigger = CriticalTrigger.ON_REACH_ZERO
    crit_bonus_scope: CritBonusScope = CritBonusScope.UNTREATED
    glitch_upgrade_both: GlitchUpgradeBoth = GlitchUpgradeBoth.CANCEL
    system_ds_depletes: bool = False
    encumbrance_on_initiative: bool = True
    shotgun_failure_damage: ShotgunFailureDamage = ShotgunFailureDamage.MAX_SHORTFALL_ONCE
    first_aid_limit: FirstAidLimit = FirstAidLimit.ONCE_PER_PATIENT_PER_SCENE


def _bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on", "1"):
        return True
    if lowered in ("false", "no", "off", "0"):
        return False
    raise ValueError("true or false")


def _choices(kind: type[enum.StrEnum]) -> str:
    return " or ".join(member.value for member in kind)


# key -> (attribute, parser, what a valid value looks like)
_KEYS: dict[str, tuple[str, Callable[[str], object], str]] = {
    "criticalTrigger": ("critical_trigger", CriticalTrigger, _choices(CriticalTrigger)),
    "critBonusScope": ("crit_bonus_scope", CritBonusScope, _choices(CritBonusScope)),
    "glitchUpgradeBoth": ("glitch_upgrade_both", GlitchUpgradeBoth, _choices(GlitchUpgradeBoth)),
    "systemDsDepletes": ("system_ds_depletes", _bool, "true or false"),
    "encumbranceOnInitiative": ("encumbrance_on_initiative", _bool, "true or false"),
    "shotgunFailureDamage": (
        "shotgun_failure_damage",
        ShotgunFailureDamage,
        _choices(ShotgunFailureDamage),
    ),
    "firstAidLimit": ("first_aid_limit", FirstAidLimit, _choices(FirstAidLimit)),
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
            raise UnknownHouseRule(system="sprawl-goons", key=key, known=", ".join(_KEYS))
        attribute, parse, expected = _KEYS[key]
        try:
            values[attribute] = parse(text.strip())
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
