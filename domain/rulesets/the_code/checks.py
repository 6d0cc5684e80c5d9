"""Checks shared by commands (to refuse) and by replay (to find histories that no longer fit)."""

from __future__ import annotations

from domain.rulesets.the_code import errors
from domain.rulesets.the_code.character import SolvedProblem, TcHero
from domain.rulesets.the_code.tables import MAX_SCORE, Detail


def check_objective_score(score: int) -> None:
    if not 1 <= score <= MAX_SCORE:
        raise errors.ObjectiveScoreOutOfRange(score=score)


def check_unrevealed(c: TcHero, detail: Detail) -> None:
    """A detail is revealed once: it cannot be 'unrevealed', nor revealed again."""
    if c.is_revealed(detail):
        raise errors.DetailAlreadyPublic(name=c.name, detail=detail)


def check_exposure_unsettled(c: TcHero, session: int) -> None:
    """One end-of-session Exposure roll (or session off) per hero and session."""
    if c.flags_for(session).exposure_settled:
        raise errors.ExposureAlreadySettled(name=c.name, session=session)


def check_mo_unfollowed(c: TcHero, session: int) -> None:
    """The GM rules the MO followed once a session."""
    if c.flags_for(session).mo_followed:
        raise errors.MoAlreadyFollowed(name=c.name, session=session)


def check_no_pending_task(c: TcHero, task: str | None = None) -> None:
    """No task waits for a Motivation roll (other than ``task``, the one being resolved)."""
    if c.pending_task is not None and c.pending_task != task:
        raise errors.MotivationRollPending(name=c.name, task=c.pending_task)


def check_pending_task(c: TcHero, task: str | None = None) -> str:
    """The task the GM ruled needs Motivation (``task``, if one is named): the one to roll for."""
    if c.pending_task is None or task not in (None, c.pending_task):
        raise errors.MotivationNotRequired(name=c.name)
    return c.pending_task


def check_motivation_dice(c: TcHero, dice: int, least: int = 1) -> None:
    """Motivation dice: at least ``least``, at most the hero's current Motivation."""
    if not least <= dice <= c.motivation:
        raise errors.DiceOutOfRange(name=c.name, dice=dice, current=c.motivation)


def check_reward_points(c: TcHero, cost: int, what: str) -> None:
    if c.reward_points < cost:
        raise errors.InsufficientRewardPoints(
            name=c.name, what=what, cost=cost, held=c.reward_points
        )


def check_problem_open(c: TcHero, description: str) -> SolvedProblem:
    """A problem comes back only once the hero has solved it (and until it is solved again)."""
    problem = c.open_problem(description)
    if problem is None:
        held = [p.description for p in c.problems if not p.recurred]
        known = ", ".join(repr(d) for d in held) or "none"
        raise errors.ProblemNotOpen(name=c.name, description=description, known=known)
    return problem
