"""Accomplishing and altering the Objective, spending Reward Points, and problems solved that
come back (R-TC-06..09)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import EmptyText
from domain.plain import Plain
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.checks import (
    check_objective_score,
    check_problem_open,
    check_reward_points,
)
from domain.rulesets.the_code.events import (
    CommunityProblemRecurred,
    CommunityProblemSolved,
    MaxMotivationIncreased,
    MotivationPurchaseRolled,
    MotivationRegained,
    MotivationReset,
    ObjectiveAccomplished,
    ObjectiveAltered,
    ObjectiveRewardRolled,
    RewardDie,
    RewardPointsEarned,
    RewardPointsSpent,
)
from domain.rulesets.the_code.lookup import hero, parse_details, settings
from domain.rulesets.the_code.ruling import HeroRuling
from domain.rulesets.the_code.tables import (
    MOTIVATION_PURCHASE,
    SCALE_COSTS,
    DieRole,
    ExposureCause,
    PopularityCause,
    RegainCause,
    Scale,
    is_even,
)


@frozen(kw_only=True)
class AccomplishObjective(Plain):
    """The GM rules the Objective accomplished: roll maximum Motivation, plus a die if the
    Weakness came into play and a die if the MO was followed this session. Each die at or above
    the Objective score earns Reward Points (the score each) and a point of Motivation; an even
    MO die costs a point of Exposure. Then the Popularity gain roll.

    ``reveal``: the GM's choice of detail if the MO die reveals one."""

    name: ClassVar[str] = "objective"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    hero: str
    reveal: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        session = view.campaign.require_session()
        choices = parse_details(self.reveal)
        rules = settings(view)
        flags = c.flags_for(session)
        ruling = HeroRuling(c, rules, session)
        ruling.add(
            ObjectiveAccomplished(
                session=session,
                objective=c.objective,
                score=c.objective_score,
                mo_followed=flags.mo_followed,
                weakness=flags.weakness,
            )
        )
        roles = [DieRole.BASE] * c.max_motivation
        roles += [DieRole.WEAKNESS_BONUS] * flags.weakness + [DieRole.MO_BONUS] * flags.mo_followed
        rolled = tuple(RewardDie(face=dice.roll(rules.die_sides), role=r) for r in roles)
        successes = sum(1 for d in rolled if d.face >= c.objective_score)
        ruling.add(
            ObjectiveRewardRolled(dice=rolled, threshold=c.objective_score, successes=successes)
        )
        if successes:
            amount = successes * c.objective_score
            ruling.add(
                RewardPointsEarned(
                    amount=amount, before=c.reward_points, after=c.reward_points + amount
                )
            )
        regained = min(successes, c.max_motivation - c.motivation)
        if regained:
            ruling.add(
                MotivationRegained(
                    amount=regained,
                    cause=RegainCause.OBJECTIVE,
                    before=c.motivation,
                    after=c.motivation + regained,
                )
            )
        mo_die = next((d for d in rolled if d.role is DieRole.MO_BONUS), None)
        if mo_die is not None and is_even(mo_die.face):
            ruling.change_exposure(1, ExposureCause.MO_BONUS_DIE, choices)
        elif choices:
            raise errors.RevealChoiceUnused(given=len(choices), levels=0)
        ruling.popularity_roll(dice)
        return ruling.changes()


@frozen(kw_only=True)
class SolveProblem(Plain):
    """Spend Reward Points on a community problem of the scale the GM rules: minor 25, general
    50, major 100 (Exposure and Popularity +1/+2/+3); critical problems cannot be solved. Then the
    Popularity gain roll. 'reveal': the GM's choice of details for the new Exposure levels."""

    name: ClassVar[str] = "solve"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    hero: str
    description: str
    scale: Scale
    reveal: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        session = view.campaign.require_session()
        choices = parse_details(self.reveal)
        description = self.description.strip()
        if not description:
            raise EmptyText(what="the problem's description")
        if self.scale is Scale.CRITICAL:
            raise errors.CriticalProblemNotSolvable()
        cost = SCALE_COSTS[self.scale]
        check_reward_points(c, cost.reward_points, f"a {self.scale} problem")
        ruling = HeroRuling(c, settings(view), session)
        ruling.add(
            RewardPointsSpent(
                amount=cost.reward_points,
                purpose=f"{self.scale} problem",
                before=c.reward_points,
                after=c.reward_points - cost.reward_points,
            )
        )
        ruling.add(
            CommunityProblemSolved(description=description, scale=self.scale, session=session)
        )
        ruling.change_exposure(cost.exposure, ExposureCause.PROBLEM_SOLVED, choices)
        ruling.change_popularity(cost.popularity, PopularityCause.PROBLEM_SOLVED)
        ruling.popularity_roll(dice)
        return ruling.changes()


@frozen(kw_only=True)
class RecurProblem(Plain):
    """The GM records that a community problem the hero solved has come back: "when a problem
    is solved, the solution is rarely permanent". Nothing the solution gained is lost; the hero
    (or another) may spend Reward Points on it again."""

    name: ClassVar[str] = "recur"
    hero: str
    description: str
    note: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        problem = check_problem_open(c, self.description.strip())
        recurred = CommunityProblemRecurred(
            description=problem.description,
            scale=problem.scale,
            solved_in=problem.session,
            session=view.campaign.session,
            note=self.note.strip(),
        )
        return (Change(c.id, recurred),)


@frozen(kw_only=True)
class BuyMotivation(Plain):
    """Spend 25 Reward Points to roll one die: even raises the maximum Motivation by one."""

    name: ClassVar[str] = "buy-motivation"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    hero: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        check_reward_points(c, MOTIVATION_PURCHASE, "a Motivation die")
        rules = settings(view)
        ruling = HeroRuling(c, rules, view.campaign.session)
        ruling.add(
            RewardPointsSpent(
                amount=MOTIVATION_PURCHASE,
                purpose="Motivation",
                before=c.reward_points,
                after=c.reward_points - MOTIVATION_PURCHASE,
            )
        )
        die = dice.roll(rules.die_sides)
        ruling.add(MotivationPurchaseRolled(die=die, even=is_even(die)))
        if is_even(die):
            ruling.add(MaxMotivationIncreased(before=c.max_motivation, after=c.max_motivation + 1))
        return ruling.changes()


@frozen(kw_only=True)
class AlterObjective(Plain):
    """Change the Objective (description, score or both): Motivation becomes half the new
    score, and Motivation bought with Reward Points is lost."""

    name: ClassVar[str] = "alter-objective"
    hero: str
    objective: str | None = None
    score: int | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        objective = c.objective if self.objective is None else self.objective.strip()
        if not objective:
            raise errors.MissingHeroField(field="an Objective")
        score = c.objective_score if self.score is None else self.score
        check_objective_score(score)
        if (objective, score) == (c.objective, c.objective_score):
            raise errors.ObjectiveUnchanged(name=c.name, objective=objective, score=score)
        base = settings(view).half(score)
        altered = ObjectiveAltered(
            old_objective=c.objective,
            old_score=c.objective_score,
            new_objective=objective,
            new_score=score,
        )
        reset = MotivationReset(
            base_max=base, bonus_lost=c.bonus_max, before=c.motivation, current=base
        )
        return (Change(c.id, altered), Change(c.id, reset))
