"""Unopposed Challenges and Using Motivation: the GM's call on a task (it succeeds, or it needs
Motivation), then the hero's Motivation roll for it (R-TC-02, R-TC-03)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.character import StepRuling, TcHero
from domain.rulesets.the_code.checks import (
    check_motivation_dice,
    check_no_pending_task,
    check_pending_task,
)
from domain.rulesets.the_code.events import (
    MotivationRequired,
    MotivationRolled,
    MotivationSpent,
    UnopposedActionResolved,
    WeaknessCameIntoPlay,
)
from domain.rulesets.the_code.lookup import hero, parse_task, settings
from domain.rulesets.the_code.rolls import read_motivation, roll
from domain.rulesets.the_code.ruling import HeroRuling
from domain.rulesets.the_code.tables import (
    LOWEST_SKILLED_STEP,
    MOTIVATION_THRESHOLD,
    STEPS,
    MotivationUse,
    NeedReason,
    TaskOutcome,
)


@frozen(kw_only=True)
class RuleChallenge(Plain):
    """The GM's call on an unopposed task: it succeeds, or it needs Motivation (and why).

    ``weakness``: the hero's Weakness came into play (a session flag; no other penalty). A step
    the GM ruled for the task (`campaign step`) is used: step 5 (the Weakness applies) brings
    the Weakness into play; steps 1 to 3 (a relevant Profession or Advantage) leave no specific
    skill missing."""

    name: ClassVar[str] = "challenge"
    hero: str
    task: str
    needs_motivation: NeedReason | None = None
    weakness: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        task = parse_task(self.task)
        check_no_pending_task(c)
        ruled = c.step_for(task)
        weakness = self.weakness or (ruled is not None and ruled.weakness)
        if ruled is not None:
            _check_against_step(c, ruled, self.weakness, self.needs_motivation)
        session = view.campaign.session
        ruling = HeroRuling(c, settings(view), session)
        reason = self.needs_motivation
        if weakness:
            ruling.add(WeaknessCameIntoPlay(session=view.campaign.require_session(), task=task))
            reason = reason or NeedReason.WEAKNESS_IN_PLAY
        if reason is None:
            why = "a suitable task for the hero"
            if ruled is not None:
                why += f" (step {ruled.step}: {STEPS[ruled.step]})"
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


def _check_against_step(
    c: TcHero, ruled: StepRuling, weakness: bool, reason: NeedReason | None
) -> None:
    """The GM's calls on the task agree with the step ruled for it (The Ability Sequence)."""
    given = None
    if weakness and not ruled.weakness:
        given = "the Weakness in play"
    elif reason is NeedReason.SPECIFIC_SKILL_MISSING and ruled.step <= LOWEST_SKILLED_STEP:
        given = "a specific skill missing"
    if given is not None:
        raise errors.StepRulingContradicted(
            name=c.name, task=ruled.task, step=ruled.step, meaning=STEPS[ruled.step], given=given
        )


@frozen(kw_only=True)
class UseMotivation(Plain):
    """Roll Motivation dice for the task the GM ruled needs it: any die of 5 or more
    succeeds, and each die above 5 costs a point of Motivation (0 dice: the hero declines and
    the task fails)."""

    name: ClassVar[str] = "motivation"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    hero: str
    dice: int

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        task = check_pending_task(c)
        rules = settings(view)
        ruling = HeroRuling(c, rules, view.campaign.session)
        if self.dice == 0:
            why = "declined to use Motivation"
            ruling.add(
                UnopposedActionResolved(
                    task=task, outcome=TaskOutcome.FAILED, rolled=False, reason=why
                )
            )
            return ruling.changes()
        check_motivation_dice(c, self.dice)
        faces = roll(dice, self.dice, rules.die_sides)
        result = read_motivation(faces)
        ruling.add(
            MotivationRolled(
                task=task,
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
