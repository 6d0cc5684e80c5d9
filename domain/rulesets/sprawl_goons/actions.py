"""Action Rolls outside combat: a plain (or dangerous) roll, hacking, and first aid."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.checks import (
    check_alive,
    check_can_act,
    check_pc,
    check_usable,
)
from domain.rulesets.sprawl_goons.events import (
    FirstAidReceived,
    ResilienceRestored,
    SystemBreached,
)
from domain.rulesets.sprawl_goons.lookup import (
    after,
    character,
    difficulty,
    modifiers,
    settings,
    stat,
)
from domain.rulesets.sprawl_goons.rolls import RollSpec, action_roll, damage
from domain.rulesets.sprawl_goons.settings import FirstAidLimit
from domain.rulesets.sprawl_goons.tables import (
    FIRST_AID_HEAL,
    Category,
    Cause,
    Kind,
    Purpose,
    Stat,
)


@frozen
class ActionRoll(Plain):
    """An Action Roll against a DS the referee sets. When it is dangerous, a failure costs the
    character the shortfall in Resilience (Dangerous Action Roll)."""

    name: ClassVar[str] = "roll"
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


@frozen
class Hack(Plain):
    """Hack a system with an interfaced console: a Cognition roll against the system's DS, the
    console's bonus included. A failure against a secure system deals neural damage (Hacking)."""

    name: ClassVar[str] = "hack"
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


@frozen
class FirstAid(Plain):
    """An allied character with a first aid kit makes a Cognition roll (DS the referee's call,
    default Moderate 10); success gains the patient 2 Resilience (Healing)."""

    name: ClassVar[str] = "first aid"
    healer: str
    patient: str
    kit: str | None = None
    ds: str = "10"
    items: tuple[str, ...] = ()
    bonuses: tuple[str, ...] = ()
    glitch: bool = False
    upgrade: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        scene = view.campaign.require_scene()
        h = character(view, self.healer)
        check_can_act(h)
        p = character(view, self.patient)
        if p.id == h.id:
            raise errors.HealerMustBeAlly()
        check_pc(p, "receive first aid")
        check_alive(p, "receive first aid")
        if self.kit is None:
            raise errors.FirstAidKitRequired(why=f"name the kit {h.name} uses")
        kit = h.item(self.kit)
        if kit is None:
            raise errors.FirstAidKitRequired(why=f"{h.name} carries no {self.kit!r}")
        check_usable(kit)
        rules = settings(view)
        limited = rules.first_aid_limit is FirstAidLimit.ONCE_PER_PATIENT_PER_SCENE
        if limited and p.first_aid_scene == scene:
            raise errors.FirstAidAlreadyGiven(name=p.name)
        spec = RollSpec(
            purpose=Purpose.FIRST_AID,
            stat=Stat.COGNITION,
            ds=difficulty(self.ds),
            target=p.name,
            items=self.items,
            modifiers=modifiers(self.bonuses),
            glitch=self.glitch,
            upgrade=self.upgrade,
        )
        rolled = action_roll(h, spec, rules, dice)
        theirs: list[Event] = [FirstAidReceived(healer=h.name, scene=scene, success=rolled.success)]
        if rolled.success:
            theirs.append(
                ResilienceRestored(
                    amount=FIRST_AID_HEAL,
                    cause="first aid",
                    before=p.resilience,
                    after=min(p.resilience_max, p.resilience + FIRST_AID_HEAL),
                )
            )
        return (Change(h.id, rolled), *(Change(p.id, e) for e in theirs))
