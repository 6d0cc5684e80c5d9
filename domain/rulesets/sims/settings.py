"""The Sims RPG's house rules (DIGEST §7 pdq.*), defaults = the digest's recommended readings."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import frozen

from domain.events import HouseRule
from domain.plain import Plain
from domain.rulesets.house_rules import HouseRules, boolean
from domain.rulesets.sims.tables import Lethality, OffLadder


@frozen(kw_only=True)
class Settings(Plain):
    tie_muss_up: bool = False
    failure_ranks_clear_at_scene_end: bool = False
    force_bottom_out_last: bool = False
    off_ladder_tn: OffLadder = OffLadder.EXTRAPOLATE
    lethality: Lethality = Lethality.DEFAULT


# key -> (attribute, parser, what a valid value looks like)
_KEYS: dict[str, tuple[str, Callable[[str], object], str]] = {
    "tieMussUp": ("tie_muss_up", boolean, "true or false"),
    "failureRanksClearAtSceneEnd": ("failure_ranks_clear_at_scene_end", boolean, "true or false"),
    "forceBottomOutLast": ("force_bottom_out_last", boolean, "true or false"),
    "offLadderTn": ("off_ladder_tn", OffLadder, "extrapolate or clamp"),
    "lethality": ("lethality", Lethality, "default or choose-at-start"),
}


RULES = HouseRules("sims", Settings, _KEYS)


def house_rules(given: Mapping[str, str]) -> tuple[HouseRule, ...]:
    """Check the given house rules and return every rule with its value (defaults filled in)."""
    return RULES.check(given)


def settings_from(rules: tuple[HouseRule, ...]) -> Settings:
    return RULES.read(rules)
