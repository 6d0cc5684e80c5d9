"""Tasks: unopposed challenges, Motivation rolls, and the GM's calls for the session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import EmptyText
from domain.plain import Plain
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.events import (
    ConductRuled,
    DayOffTaken,
    MoFollowed,
    MotivationRegained,
    MotivationRequired,
    MotivationRolled,
    MotivationSpent,
    UnopposedActionResolved,
    WeaknessCameIntoPlay,
)
from domain.rulesets.the_code.lookup import hero, settings
from domain.rulesets.the_code.rules import read_motivation, roll
from domain.rulesets.the_code.ruling import HeroRuling
from domain.rulesets.the_code.tables import (
    MOTIVATION_THRESHOLD,
    MotivationUse,
    NeedReason,
    RegainCause,
    TaskOutcome,
)


def _task(text: str) -> str:
    task = text.strip()
    if not task:
        raise EmptyText(what="the task")
    return task


@frozen(kw_only=True)
class RuleChallenge(Plain):
    """The GM's call on an unopposed task: it succeeds, or it needs Motivation (and why).

    ``weakness``: the hero's Weakness came into play (a session flag; no other penalty)."""

    name: ClassVar[str] = "challenge"
    hero: str
    task: str
    needs_motivation: NeedReason | None = None
    weakness: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        task = _task(self.task)
        if c.pending_task is not None:
            raise errors.MotivationRollPending(name=c.name, task=c.pending_task)
        session = view.campaign.session
        ruling = HeroRuling(c, settings(view), session)
        reason = self.needs_motivation
        if self.weakness:
            ruling.add(WeaknessCameIntoPlay(session=view.campaign.require_session(), task=task))
            reason = reason or NeedReason.WEAKNESS_IN_PLAY
        if reason is None:
            why = "a suitable task for the hero"
            ruling.add(
                UnopposedActionResolved(
                    task=task, outcome=TaskOutcome.SUCCEEDED, rolled=False, reason=why
                )
            )
            return ruling.changes()
        ruling.add(MotivationRequired(task=task, reason=reason))
        if c.motivation == 0:
            why = "no Motivation left to roll (TC-A23)"
            ruling.add(
                UnopposedActionResolved(
                    task=task, outcome=TaskOutcome.FAILED, rolled=False, reason=why
                )
            )
        return ruling.changes()


@frozen(kw_only=True)
class UseMotivation(Plain):
    """Roll Motivation dice for the task the GM ruled needs it (0 dice: the hero declines)."""

    name: ClassVar[str] = "motivation"
    hero: str
    dice: int

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        if c.pending_task is None:
            raise errors.MotivationNotRequired(name=c.name)
        rules = settings(view)
        ruling = HeroRuling(c, rules, view.campaign.session)
        if self.dice == 0:
            why = "declined to use Motivation"
            ruling.add(
                UnopposedActionResolved(
                    task=c.pending_task, outcome=TaskOutcome.FAILED, rolled=False, reason=why
                )
            )
            return ruling.changes()
        if not 1 <= self.dice <= c.motivation:
            raise errors.DiceOutOfRange(name=c.name, dice=self.dice, current=c.motivation)
        faces = roll(dice, self.dice, rules.die_sides)
        result = read_motivation(faces)
        ruling.add(
            MotivationRolled(
                task=c.pending_task,
                dice=faces,
                threshold=MOTIVATION_THRESHOLD,
                success=result.success,
                cost=result.cost,
            )
        )
        if result.cost:
            after = c.motivation - result.cost
            ruling.add(
                MotivationSpent(
                    amount=result.cost,
                    use=MotivationUse.DICE_ABOVE_5,
                    before=c.motivation,
                    after=after,
                )
            )
        return ruling.changes()


@frozen(kw_only=True)
class FollowMo(Plain):
    """The GM rules that the hero followed their MO this session (an extra Exposure die; a
    bonus die when the Objective is accomplished)."""

    name: ClassVar[str] = "mo"
    hero: str
    description: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        session = view.campaign.require_session()
        if c.flags_for(session).mo_followed:
            raise errors.MoAlreadyFollowed(name=c.name, session=session)
        what = self.description.strip() or c.modus_operandi
        return (Change(c.id, MoFollowed(session=session, description=what)),)


@frozen(kw_only=True)
class WeaknessInPlay(Plain):
    """The GM rules that the hero's Weakness came into play this session."""

    name: ClassVar[str] = "weakness"
    hero: str
    task: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        session = view.campaign.require_session()
        return (Change(c.id, WeaknessCameIntoPlay(session=session, task=_task(self.task))),)


@frozen(kw_only=True)
class RuleConduct(Plain):
    """The GM rules whether the hero is violent or secretive (they lose Popularity on no evens)."""

    name: ClassVar[str] = "conduct"
    hero: str
    violent: bool
    secretive: bool

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        return (Change(c.id, ConductRuled(violent=self.violent, secretive=self.secretive)),)


@frozen(kw_only=True)
class TakeDaysOff(Plain):
    """Days off from superheroics: each returns one point of Motivation, up to the maximum."""

    name: ClassVar[str] = "day-off"
    hero: str
    days: int = 1

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        if self.days < 1:
            raise errors.DaysOutOfRange(days=self.days)
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
