"""The Code's house rules (DIGEST §7 ``tc.*``); defaults are the digest's recommended readings."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping

from attrs import frozen

from domain.events import HouseRule
from domain.plain import Plain
from domain.rulesets.house_rules import HouseRules, boolean


class Rounding(enum.StrEnum):
    FLOOR = "floor"  # TC-A7: Objective 7 gives Motivation 3
    CEIL = "ceil"


class TieRemoval(enum.StrEnum):
    PAIRWISE = "pairwise"  # TC-A4: one die of the tied value from each side
    ALL = "all"  # every die showing the tied value


class RevealPolicy(enum.StrEnum):
    HIGH_WATER = "high-water"  # TC-A12: only levels above the peak reveal
    EVERY_INCREASE = "every-increase"  # every level gained above 1 reveals


@frozen(kw_only=True)
class Settings(Plain):
    die_sides: int = 10
    half_rounding: Rounding = Rounding.FLOOR
    tie_removal: TieRemoval = TieRemoval.PAIRWISE
    popularity_roll_once_per_session: bool = False
    revealed_identity_becomes_public: bool = True
    reveal_policy: RevealPolicy = RevealPolicy.HIGH_WATER
    # R-TC-14, TC-A27: the MO followed is the GM's ruling; true lets a player record it for
    # their own hero (``domain.policy``: the `mo` row's ``opened_by``)
    players_record_mo: bool = False

    def half(self, score: int) -> int:
        return score // 2 if self.half_rounding is Rounding.FLOOR else (score + 1) // 2


def _sides(text: str) -> int:
    value = int(text)
    if value not in (6, 10):
        raise ValueError("6 or 10")
    return value


# key -> (attribute, parser, what a valid value looks like)
_KEYS: dict[str, tuple[str, Callable[[str], object], str]] = {
    "dieSides": ("die_sides", _sides, "6 or 10"),
    "halfRounding": ("half_rounding", Rounding, "floor or ceil"),
    "tieRemoval": ("tie_removal", TieRemoval, "pairwise or all"),
    "popularityRollOncePerSession": ("popularity_roll_once_per_session", boolean, "true or false"),
    "revealedIdentityBecomesPublic": ("revealed_identity_becomes_public", boolean, "true or false"),
    "revealPolicy": ("reveal_policy", RevealPolicy, "high-water or every-increase"),
    "playersRecordMo": ("players_record_mo", boolean, "true or false"),
}


RULES = HouseRules("the-code", Settings, _KEYS)


def house_rules(given: Mapping[str, str]) -> tuple[HouseRule, ...]:
    """Check the given house rules and return every rule with its value (defaults filled in)."""
    return RULES.check(given)


def settings_from(rules: tuple[HouseRule, ...]) -> Settings:
    return RULES.read(rules)
