"""The Code: superheroes with a Motivation score, Reward Points, Exposure and Popularity."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from uuid import UUID

import attrs

from domain.commands import Change, View
from domain.events import Event
from domain.rulesets.base import RulesetBase
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.events import DetailRevealed
from domain.rulesets.the_code.settings import RULES
from domain.rulesets.the_code.state import evolve
from domain.rulesets.the_code.tables import Detail, RevealCause


class TheCode(RulesetBase[TcHero]):
    name = "the-code"
    title = "The Code"
    character_type = TcHero
    rules = RULES
    replay = staticmethod(evolve)

    def rederived(
        self,
        recorded: Mapping[UUID, tuple[Event, ...]],
        decided: Mapping[UUID, tuple[Event, ...]],
    ) -> Mapping[UUID, tuple[Event, ...]]:
        """A detail that a later ruling reveals only once an earlier gain is corrected is
        re-derived (DIGEST 5.2): appended with that cause, beside the voided one. A detail the
        ruling revealed before too keeps its cause."""

        def marked(stream: UUID, event: Event) -> Event:
            if isinstance(event, DetailRevealed) and event.detail not in revealed(stream):
                return attrs.evolve(event, cause=RevealCause.REDERIVED)
            return event

        def revealed(stream: UUID) -> set[Detail]:
            return {e.detail for e in recorded.get(stream, ()) if isinstance(e, DetailRevealed)}

        return {s: tuple(marked(s, e) for e in events) for s, events in decided.items()}

    def end_session(self, view: View) -> Sequence[Change]:
        """A session ends once every hero's Exposure roll (or session off) is recorded: the roll
        needs the GM's calls, so it is its own ruling (`campaign exposure`), made before. NPCs
        have no Exposure."""
        session = view.campaign.require_session()
        missing = []
        for entry in view.campaign.roster:
            hero: TcHero = view.character(entry.character_id)
            if not hero.npc and not hero.flags_for(session).exposure_settled:
                missing.append(hero.name)
        if missing:
            raise errors.ExposureRollMissing(session=session, names=", ".join(missing))
        return ()


RULESET = TheCode()
