"""Regaining Motivation by taking days off from superheroics (R-TC-05)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.events import DayOffTaken, MotivationRegained
from domain.rulesets.the_code.lookup import character, settings
from domain.rulesets.the_code.ruling import HeroRuling
from domain.rulesets.the_code.tables import RegainCause


@frozen(kw_only=True)
class TakeDaysOff(Plain):
    """Days off from superheroics: each returns one point of Motivation, up to the maximum
    (an NPC's tracked Motivation comes back the same way)."""

    name: ClassVar[str] = "day-off"
    hero: str
    days: int = 1

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.hero)
        if self.days < 1:
            raise errors.DaysOutOfRange(days=self.days)
        if not c.has_motivation:
            raise errors.NoMotivationScore(name=c.name)
        ruling = HeroRuling(c, settings(view), view.campaign.session)
        ruling.add(DayOffTaken(days=self.days))
        amount = min(self.days, c.max_motivation - c.motivation)
        if amount:
            ruling.add(
                MotivationRegained(
                    amount=amount,
                    cause=RegainCause.DAY_OFF,
                    before=c.motivation,
                    after=c.motivation + amount,
                )
            )
        return ruling.changes()
