"""Hacking: a Cognition roll with an interfaced cyberspace console against a system's DS."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.checks import check_can_act, check_usable
from domain.rulesets.sprawl_goons.events import SystemBreached
from domain.rulesets.sprawl_goons.lookup import after, character, modifiers, settings
from domain.rulesets.sprawl_goons.rolls import RollSpec, action_roll, damage
from domain.rulesets.sprawl_goons.tables import Category, Cause, Kind, Purpose, Stat


@frozen(kw_only=True)
class Hack(Plain):
    """Hack a system with an interfaced console: a Cognition roll against the system's DS, the
    console's bonus included. A failure against a secure system deals neural damage (Hacking)."""

    name: ClassVar[str] = "hack"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    system: str
    console: str | None = None
    items: tuple[str, ...] = ()
    bonuses: tuple[str, ...] = ()
    glitch: bool = False
    upgrade: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        check_can_act(c)
        rules = settings(view)
        if self.console is None:
            raise errors.ConsoleRequired(why=f"name the console {c.name} jacks in with")
        console = c.item(self.console)
        if console is None:
            raise errors.ConsoleRequired(why=f"{c.name} carries no {self.console!r}")
        if console.category is not Category.CONSOLE:
            raise errors.ConsoleRequired(why=f"{console.name} is not a cyberspace console")
        check_usable(console)
        s = character(view, self.system)
        if s.kind is not Kind.SYSTEM:
            raise errors.WrongTarget(name=s.name, kind=s.kind.upper(), what="hacked")
        if s.breached:
            raise errors.SystemAlreadyBreached(name=s.name)
        spec = RollSpec(
            purpose=Purpose.HACK,
            stat=Stat.COGNITION,
            ds=s.resilience,
            target=s.name,
            dangerous=s.neural,
            items=(console.name, *self.items),
            modifiers=modifiers(self.bonuses),
            glitch=self.glitch,
            upgrade=self.upgrade,
        )
        rolled = action_roll(c, spec, rules, dice)
        mine: list[Event] = [rolled]
        theirs: list[Event] = []
        if rolled.success and rules.system_ds_depletes:
            theirs += damage(
                s, amount=rolled.margin, cause=Cause.HIT, source=c.name, rules=rules, dice=dice
            )
        elif rolled.success:
            theirs.append(SystemBreached(by=c.name))
        elif s.neural:
            mine += damage(
                after(c, mine),
                amount=-rolled.margin,
                cause=Cause.NEURAL,
                source=s.name,
                rules=rules,
                dice=dice,
            )
        return (*(Change(c.id, e) for e in mine), *(Change(s.id, e) for e in theirs))
