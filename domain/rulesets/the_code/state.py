"""Replaying a hero from its events (strict: an event that does not fit the state raises)."""

from __future__ import annotations

from functools import singledispatch
from typing import Any

from attrs import evolve as replace

from domain.errors import ReplayMismatch
from domain.events import Event, RulingRetracted
from domain.rulesets.the_code import events as ev
from domain.rulesets.the_code.character import Reveal, SolvedProblem, StepRuling, TcHero
from domain.rulesets.the_code.checks import (
    check_exposure_unsettled,
    check_mo_unfollowed,
    check_motivation_dice,
    check_no_pending_task,
    check_pending_task,
    check_problem_open,
    check_reward_points,
    check_unrevealed,
)
from domain.rulesets.the_code.tables import Detail, ability_step, clamp


@singledispatch
def evolve(event: Event, state: TcHero | None) -> TcHero | None:
    """Apply one event. Raises a DomainError or ReplayMismatch when it does not fit the state."""
    raise TypeError(f"no The Code rule for {type(event).__name__}")


def _h(state: TcHero | None) -> TcHero:
    if state is None:
        raise ReplayMismatch("a hero's stream must start with HeroCreated")
    return state


def _expect(recorded: Any, actual: Any, what: str) -> None:
    if recorded != actual:
        raise ReplayMismatch(f"{what}: {recorded} recorded, {actual} in the state")


def _flag(c: TcHero, session: int | None, **changes: Any) -> TcHero:
    return replace(c, flags=replace(c.flags_for(session), **changes))


@evolve.register(RulingRetracted)
@evolve.register(ev.MotivationPurchaseRolled)
@evolve.register(ev.DayOffTaken)
@evolve.register(ev.TraitBlabbed)
def _audit_only(event: Event, state: TcHero | None) -> TcHero | None:
    return state


@evolve.register(ev.HeroCreated)
def _created(event: ev.HeroCreated, state: TcHero | None) -> TcHero:
    if state is not None:
        raise ReplayMismatch("a hero is created once")
    return TcHero(
        id=event.character_id,
        name=event.code_name,
        player=event.player,
        secret_identity=event.secret_identity,
        public_identity=event.public_identity,
        physical_description=event.physical_description,
        profession=event.profession,
        advantages=event.advantages,
        weakness=event.weakness,
        objective=event.objective,
        objective_score=event.objective_score,
        modus_operandi=event.modus_operandi,
        motivation=event.motivation,
        base_max=event.motivation,
        reward_points=event.reward_points,
        exposure=event.exposure,
        peak=event.exposure,
        popularity=event.popularity,
        violent=event.violent,
        secretive=event.secretive,
    )


@evolve.register(ev.NpcCreated)
def _npc(event: ev.NpcCreated, state: TcHero | None) -> TcHero:
    if state is not None:
        raise ReplayMismatch("a character is created once")
    motivation = 0 if event.motivation is None else event.motivation
    return TcHero(
        id=event.character_id,
        name=event.name,
        player="GM",
        secret_identity="",
        public_identity=False,
        physical_description="",
        profession=event.profession,
        advantages=event.advantages,
        weakness=event.weakness,
        objective="",
        objective_score=0,
        modus_operandi="",
        motivation=motivation,
        base_max=motivation,
        npc=True,
        has_motivation=event.motivation is not None,
    )


# --- Exposure and reveals -------------------------------------------------------------------------


@evolve.register(ev.DetailRevealed)
def _revealed(event: ev.DetailRevealed, state: TcHero | None) -> TcHero:
    c = _h(state)
    check_unrevealed(c, event.detail)
    if event.level is not None and not 2 <= event.level <= c.peak:
        raise ReplayMismatch(f"level {event.level} is not a reached rung (peak {c.peak})")
    _expect(event.exposure, c.exposure, "Exposure at the reveal")
    reveal = Reveal(
        detail=event.detail,
        level=event.level,
        cause=event.cause,
        value=event.value,
        session=event.session,
    )
    return replace(c, revealed=(*c.revealed, reveal))


@evolve.register(ev.IdentityMadePublic)
def _identity_public(event: ev.IdentityMadePublic, state: TcHero | None) -> TcHero:
    c = _h(state)
    if c.public_identity or not c.is_revealed(Detail.SECRET_IDENTITY):
        raise ReplayMismatch("only a revealed secret identity becomes public")
    return replace(c, public_identity=True)


@evolve.register(ev.ExposureChanged)
def _exposure(event: ev.ExposureChanged, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.before, c.exposure, "Exposure before")
    _expect(event.peak_before, c.peak, "peak Exposure before")
    _expect(event.after, clamp(event.before + event.delta), "Exposure after")
    _expect(event.peak_after, max(c.peak, event.after), "peak Exposure after")
    c = replace(c, exposure=event.after, peak=event.peak_after)
    if event.delta > 0 and event.session is not None:
        gains = c.flags_for(event.session).exposure_gains + 1
        c = _flag(c, event.session, exposure_gains=gains)
    return c


@evolve.register(ev.ExposureRolled)
def _exposure_rolled(event: ev.ExposureRolled, state: TcHero | None) -> TcHero:
    c = _h(state)
    check_exposure_unsettled(c, event.session)
    _expect(event.exposure, c.exposure, "Exposure rolled")
    if event.mo_die_included and not c.flags_for(event.session).mo_followed:
        raise ReplayMismatch("an MO die was rolled but the MO was not ruled followed")
    _expect(len(event.dice), c.exposure + int(event.mo_die_included), "Exposure dice")
    return _flag(c, event.session, exposure_settled=True)


@evolve.register(ev.SessionTakenOff)
def _session_off(event: ev.SessionTakenOff, state: TcHero | None) -> TcHero:
    c = _h(state)
    check_exposure_unsettled(c, event.session)
    return _flag(c, event.session, exposure_settled=True)


# --- GM calls -------------------------------------------------------------------------------------


@evolve.register(ev.MoFollowed)
def _mo_followed(event: ev.MoFollowed, state: TcHero | None) -> TcHero:
    c = _h(state)
    check_mo_unfollowed(c, event.session)
    return _flag(c, event.session, mo_followed=True)


@evolve.register(ev.WeaknessCameIntoPlay)
def _weakness(event: ev.WeaknessCameIntoPlay, state: TcHero | None) -> TcHero:
    return _flag(_h(state), event.session, weakness=True)


@evolve.register(ev.ConductRuled)
def _conduct(event: ev.ConductRuled, state: TcHero | None) -> TcHero:
    return replace(_h(state), violent=event.violent, secretive=event.secretive)


# --- Tasks and Motivation -------------------------------------------------------------------------


@evolve.register(ev.AbilityStepRuled)
def _step(event: ev.AbilityStepRuled, state: TcHero | None) -> TcHero:
    c = _h(state)
    made = ability_step(event.profession, event.advantage, event.weakness)
    _expect(event.step, made, "Ability step (from the calls on Profession, Advantage, Weakness)")
    before = c.step_for(event.task)
    _expect(event.previous, None if before is None else before.step, "step ruled before")
    ruled = StepRuling(
        task=event.task,
        profession=event.profession,
        advantage=event.advantage,
        weakness=event.weakness,
        step=event.step,
    )
    kept = tuple(s for s in c.steps if s is not before)
    return replace(c, steps=(*kept, ruled))


@evolve.register(ev.UnopposedActionResolved)
def _resolved(event: ev.UnopposedActionResolved, state: TcHero | None) -> TcHero:
    c = _h(state)
    check_no_pending_task(c, event.task)
    return replace(c, pending_task=None)


@evolve.register(ev.MotivationRequired)
def _required(event: ev.MotivationRequired, state: TcHero | None) -> TcHero:
    c = _h(state)
    check_no_pending_task(c)
    return replace(c, pending_task=event.task)


@evolve.register(ev.MotivationRolled)
def _motivation_rolled(event: ev.MotivationRolled, state: TcHero | None) -> TcHero:
    c = _h(state)
    check_pending_task(c, event.task)
    check_motivation_dice(c, len(event.dice))
    return replace(c, pending_task=None)


@evolve.register(ev.MotivationSpent)
def _spent(event: ev.MotivationSpent, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.before, c.motivation, "Motivation before")
    _expect(event.after, event.before - event.amount, "Motivation after")
    if event.amount < 1 or event.after < 0:
        raise ReplayMismatch(f"cannot spend {event.amount} of {event.before} Motivation")
    return replace(c, motivation=event.after)


@evolve.register(ev.ContestResolved)
def _contest(event: ev.ContestResolved, state: TcHero | None) -> TcHero:
    c = _h(state)
    own = [s for s in event.sides if s.character_id == c.id]
    if not own:
        raise ReplayMismatch("a contest is recorded on a side's stream")
    _expect(own[0].motivation, c.motivation_score, "Motivation in the contest")
    return c


@evolve.register(ev.MotivationRegained)
def _regained(event: ev.MotivationRegained, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.before, c.motivation, "Motivation before")
    _expect(event.after, min(c.max_motivation, event.before + event.amount), "Motivation after")
    return replace(c, motivation=event.after)


# --- Objective, Reward Points ---------------------------------------------------------------------


@evolve.register(ev.ObjectiveAccomplished)
def _accomplished(event: ev.ObjectiveAccomplished, state: TcHero | None) -> TcHero:
    c = _h(state)
    flags = c.flags_for(event.session)
    _expect((event.objective, event.score), (c.objective, c.objective_score), "Objective")
    _expect(event.mo_followed, flags.mo_followed, "MO followed this session")
    _expect(event.weakness, flags.weakness, "Weakness in play this session")
    return c


@evolve.register(ev.ObjectiveRewardRolled)
def _reward_rolled(event: ev.ObjectiveRewardRolled, state: TcHero | None) -> TcHero:
    c = _h(state)
    base = sum(1 for d in event.dice if d.role == "base")
    _expect(base, c.max_motivation, "base dice (maximum Motivation)")
    _expect(event.threshold, c.objective_score, "Objective score")
    return c


@evolve.register(ev.RewardPointsEarned)
def _earned(event: ev.RewardPointsEarned, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.before, c.reward_points, "Reward Points before")
    _expect(event.after, event.before + event.amount, "Reward Points after")
    return replace(c, reward_points=event.after)


@evolve.register(ev.RewardPointsSpent)
def _rp_spent(event: ev.RewardPointsSpent, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.before, c.reward_points, "Reward Points before")
    _expect(event.after, event.before - event.amount, "Reward Points after")
    check_reward_points(c, event.amount, event.purpose)
    return replace(c, reward_points=event.after)


@evolve.register(ev.CommunityProblemSolved)
def _solved(event: ev.CommunityProblemSolved, state: TcHero | None) -> TcHero:
    c = _h(state)
    solved = SolvedProblem(description=event.description, scale=event.scale, session=event.session)
    return replace(c, problems=(*c.problems, solved))


@evolve.register(ev.CommunityProblemRecurred)
def _recurred(event: ev.CommunityProblemRecurred, state: TcHero | None) -> TcHero:
    c = _h(state)
    problem = check_problem_open(c, event.description)
    _expect((event.scale, event.solved_in), (problem.scale, problem.session), "problem solved")
    back = replace(problem, recurred=True)
    return replace(c, problems=tuple(back if p is problem else p for p in c.problems))


@evolve.register(ev.MaxMotivationIncreased)
def _max_up(event: ev.MaxMotivationIncreased, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.before, c.max_motivation, "maximum Motivation before")
    _expect(event.after, event.before + 1, "maximum Motivation after")
    return replace(c, bonus_max=c.bonus_max + 1)


@evolve.register(ev.ObjectiveAltered)
def _altered(event: ev.ObjectiveAltered, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect((event.old_objective, event.old_score), (c.objective, c.objective_score), "Objective")
    return replace(c, objective=event.new_objective, objective_score=event.new_score)


@evolve.register(ev.MotivationReset)
def _reset(event: ev.MotivationReset, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.before, c.motivation, "Motivation before")
    _expect(event.bonus_lost, c.bonus_max, "Motivation bought with Reward Points")
    _expect(event.current, event.base_max, "Motivation after the reset")
    return replace(c, motivation=event.current, base_max=event.base_max, bonus_max=0)


# --- Popularity -----------------------------------------------------------------------------------


@evolve.register(ev.PopularityRolled)
def _popularity_rolled(event: ev.PopularityRolled, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(len(event.dice), c.popularity, "Popularity dice")
    return _flag(c, event.session, popularity_rolled=True)


@evolve.register(ev.PopularityChanged)
def _popularity(event: ev.PopularityChanged, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.before, c.popularity, "Popularity before")
    _expect(event.after, clamp(event.before + event.delta), "Popularity after")
    return replace(c, popularity=event.after)


@evolve.register(ev.PopularityReactionRolled)
def _reaction_rolled(event: ev.PopularityReactionRolled, state: TcHero | None) -> TcHero:
    c = _h(state)
    _expect(event.target, c.popularity, "Popularity (the reaction's target)")
    return c


@evolve.register(ev.ReactionResolved)
def _reaction(event: ev.ReactionResolved, state: TcHero | None) -> TcHero:
    return _h(state)
