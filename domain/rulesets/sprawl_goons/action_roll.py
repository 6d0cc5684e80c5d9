"""The Action Roll (and the Dangerous Action Roll): the referee calls a stat and a Difficulty
Score; in a dangerous roll a failure costs the shortfall in Resilience."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons.lookup import (
    after,
    character,
    difficulty,
    modifiers,
    settings,
    stat,
)
from domain.rulesets.sprawl_goons.rolls import RollSpec, action_roll, damage
from domain.rulesets.sprawl_goons.tables import Cause, Purpose


@frozen(kw_only=True)
class MakeActionRoll(Plain):
    """An Action Roll against a DS the referee sets. When it is dangerous, a failure costs the
    character the shortfall in Resilience (Dangerous Action Roll)."""

    name: ClassVar[str] = "roll"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    stat: str
    ds: str
    dangerous: bool = False
    items: tuple[str, ...] = ()
    bonuses: tuple[str, ...] = ()
    glitch: bool = False
    upgrade: bool = False
    vs_mono: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        rules = settings(view)
        spec = RollSpec(
            purpose=Purpose.GENERAL,
            stat=stat(self.stat),
            ds=difficulty(self.ds),
            dangerous=self.dangerous,
            items=self.items,
            modifiers=modifiers(self.bonuses),
            glitch=self.glitch,
            upgrade=self.upgrade,
            vs_mono=self.vs_mono,
        )
        rolled = action_roll(c, spec, rules, dice)
        events: list[Event] = [rolled]
        if self.dangerous and not rolled.success:
            events += damage(
                after(c, events),
                amount=-rolled.margin,
                cause=Cause.FAILED_ROLL,
                source=f"{spec.stat.title} roll short of DS {spec.ds}",
                rules=rules,
                dice=dice,
            )
        return tuple(Change(c.id, e) for e in events)
