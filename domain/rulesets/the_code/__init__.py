"""The Code: superheroes with a Motivation score, Reward Points, Exposure and Popularity."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.commands import Change, View
from domain.events import Event, HouseRule
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.settings import house_rules
from domain.rulesets.the_code.state import SCENE_BOUND, TcHero, evolve


class TheCode:
    name = "the-code"
    title = "The Code"
    character_type = TcHero

    def house_rules(self, given: Mapping[str, str]) -> tuple[HouseRule, ...]:
        return house_rules(given)

    def evolve_character(self, event: Event, state: Any) -> Any:
        return evolve(event, state)

    def needs_scene(self, event: Event) -> bool:
        return isinstance(event, SCENE_BOUND)

    def end_scene(self, view: View) -> Sequence[Change]:
        """The Code keeps nothing per scene."""
        return ()

    def end_session(self, view: View) -> Sequence[Change]:
        """A session ends once every hero's Exposure roll (or session off) is recorded: the roll
        needs the GM's calls, so it is its own ruling (`campaign exposure`), made before."""
        session = view.campaign.require_session()
        missing = []
        for entry in view.campaign.roster:
            hero: TcHero = view.character(entry.character_id)
            if not hero.flags_for(session).exposure_settled:
                missing.append(hero.name)
        if missing:
            raise errors.ExposureRollMissing(session=session, names=", ".join(missing))
        return ()


RULESET = TheCode()
