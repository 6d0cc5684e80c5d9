"""The Sims RPG (PDQ): ten qualities in five ranks, 2d6 against target numbers, conflicts with
Failure and Damage Ranks the defender distributes, strategies, recovery and upgrades."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.commands import Change, View
from domain.events import Event, HouseRule
from domain.rulesets.sims.checks import check_scene_can_end
from domain.rulesets.sims.lookup import everyone
from domain.rulesets.sims.recovery import scene_end
from domain.rulesets.sims.settings import house_rules
from domain.rulesets.sims.state import SCENE_BOUND, SimsCharacter, evolve


class Sims:
    name = "sims"
    title = "Sims: Role Playing Game (PDQ)"
    character_type = SimsCharacter

    def house_rules(self, given: Mapping[str, str]) -> tuple[HouseRule, ...]:
        return house_rules(given)

    def evolve_character(self, event: Event, state: Any) -> Any:
        return evolve(event, state)

    def needs_scene(self, event: Event) -> bool:
        return isinstance(event, SCENE_BOUND)

    def end_scene(self, view: View) -> Sequence[Change]:
        """Strategies and turns end; lost ranks come back by the danger the GM declared."""
        for c in everyone(view):
            check_scene_can_end(c)
        return scene_end(view)

    def end_session(self, view: View) -> Sequence[Change]:
        """Nothing happens between sessions in the Sims RPG."""
        return ()


RULESET = Sims()
