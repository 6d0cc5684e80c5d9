"""The Code: superheroes with a Motivation score, Reward Points, Exposure and Popularity."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import Change, View
from domain.rulesets.base import RulesetBase
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.settings import RULES
from domain.rulesets.the_code.state import SCENE_BOUND, TcHero, evolve


class TheCode(RulesetBase):
    name = "the-code"
    title = "The Code"
    character_type = TcHero
    rules = RULES
    scene_bound = SCENE_BOUND
    replay = staticmethod(evolve)

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
