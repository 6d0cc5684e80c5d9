"""Sprawl Goons' house rules (DIGEST §7 ``sg.*``), with the digest's recommended readings as
defaults."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping

from attrs import frozen

from domain.events import HouseRule
from domain.plain import Plain
from domain.rulesets.house_rules import HouseRules, boolean


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
class Settings(Plain):
    critical_trigger: CriticalTrigger = CriticalTrigger.ON_REACH_ZERO
    crit_bonus_scope: CritBonusScope = CritBonusScope.UNTREATED
    glitch_upgrade_both: GlitchUpgradeBoth = GlitchUpgradeBoth.CANCEL
    system_ds_depletes: bool = False
    encumbrance_on_initiative: bool = True
    shotgun_failure_damage: ShotgunFailureDamage = ShotgunFailureDamage.MAX_SHORTFALL_ONCE
    first_aid_limit: FirstAidLimit = FirstAidLimit.ONCE_PER_PATIENT_PER_SCENE


def _choices(kind: type[enum.StrEnum]) -> str:
    return " or ".join(member.value for member in kind)


# key -> (attribute, parser, what a valid value looks like)
_KEYS: dict[str, tuple[str, Callable[[str], object], str]] = {
    "criticalTrigger": ("critical_trigger", CriticalTrigger, _choices(CriticalTrigger)),
    "critBonusScope": ("crit_bonus_scope", CritBonusScope, _choices(CritBonusScope)),
    "glitchUpgradeBoth": ("glitch_upgrade_both", GlitchUpgradeBoth, _choices(GlitchUpgradeBoth)),
    "systemDsDepletes": ("system_ds_depletes", boolean, "true or false"),
    "encumbranceOnInitiative": ("encumbrance_on_initiative", boolean, "true or false"),
    "shotgunFailureDamage": (
        "shotgun_failure_damage",
        ShotgunFailureDamage,
        _choices(ShotgunFailureDamage),
    ),
    "firstAidLimit": ("first_aid_limit", FirstAidLimit, _choices(FirstAidLimit)),
}


RULES = HouseRules("sprawl-goons", Settings, _KEYS)


def house_rules(given: Mapping[str, str]) -> tuple[HouseRule, ...]:
    """Check the given house rules and return every rule with its value (defaults filled in)."""
    return RULES.check(given)


def settings_from(rules: tuple[HouseRule, ...]) -> Settings:
    return RULES.read(rules)
