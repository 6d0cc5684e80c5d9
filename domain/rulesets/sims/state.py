"""Replaying a Sims character from its events (strict: a misfit raises)."""

from __future__ import annotations

from functools import singledispatch

from attrs import evolve as replace

from domain.errors import ReplayMismatch
from domain.events import Event, RulingRetracted
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.character import Pending, Quality, SimsCharacter
from domain.rulesets.sims.checks import (
    check_alive,
    check_allocation_open,
    check_can_act,
    check_can_be_hit,
    check_nothing_owed,
    own_quality,
)
from domain.rulesets.sims.tables import RankKind, Strategy


def qualities_from(specs: tuple[ev.QualitySpec, ...]) -> tuple[Quality, ...]:
    return tuple(Quality(name=s.name, area=s.area, base=s.rank) for s in specs)


@singledispatch
def evolve(event: Event, state: SimsCharacter | None) -> SimsCharacter | None:
    """Apply one event. Raises a DomainError when the event does not fit the state."""
    raise TypeError(f"no Sims rule for {type(event).__name__}")


def existing(state: SimsCharacter | None) -> SimsCharacter:
    if state is None:
        raise ReplayMismatch("a character stream must start with CharacterCreated")
    return state


@evolve.register(RulingRetracted)
def _audit_only(event: Event, state: SimsCharacter | None) -> SimsCharacter | None:
    return state


@evolve.register(ev.CharacterCreated)
def _created(event: ev.CharacterCreated, state: SimsCharacter | None) -> SimsCharacter:
    if state is not None:
        raise ReplayMismatch("a character is created once")
    return SimsCharacter(
        id=event.character_id,
        name=event.name,
        player=event.player,
        kind=event.kind,
        qualities=qualities_from(event.qualities),
        strengths=event.strengths,
        weaknesses=event.weaknesses,
        custom=event.custom,
    )


@evolve.register(ev.QualityReplaced)
def _replaced(event: ev.QualityReplaced, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    old = own_quality(c, event.old)
    if c.quality(event.new) is not None and event.new.lower() != old.name.lower():
        raise errors.DuplicateQualityName(quality=event.new)
    return replace(
        c,
        qualities=tuple(
            replace(q, name=event.new, area=event.area) if q is old else q for q in c.qualities
        ),
    )


@evolve.register(ev.SimpleSituationResolved)
def _simple(event: ev.SimpleSituationResolved, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_can_act(c)
    if not event.task or event.scene is None:
        return c
    earlier = c.simple if c.simple_scene == event.scene else ()
    return replace(c, simple=(*earlier, event.task), simple_scene=event.scene)


@evolve.register(ev.SituationEscalated)
@evolve.register(ev.ComplicatedSituationRolled)
def _acted(event: Event, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_can_act(c)
    return c


@evolve.register(ev.PrivateMessageSent)
def _messaged(event: ev.PrivateMessageSent, state: SimsCharacter | None) -> SimsCharacter:
    return existing(state)  # kept with the character; it changes nothing on the sheet


@evolve.register(ev.ConflictAttackRolled)
def _attacked(event: ev.ConflictAttackRolled, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if not event.reroll:
        check_can_act(c)
        return c
    tie = next((t for t in c.ties if t.setup == event.setup), None)
    if tie is None:
        raise errors.NoTieToReroll()
    return replace(c, ties=tuple(t for t in c.ties if t is not tie))


@evolve.register(ev.ConflictTied)
def _tied(event: ev.ConflictTied, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_alive(c, "tie an attack")
    return replace(c, ties=(*c.ties, event))


@evolve.register(ev.DamageRanksInflicted)
def _inflicted(event: ev.DamageRanksInflicted, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_can_be_hit(c)
    if event.ranks < 1:
        raise ReplayMismatch("ranks inflicted are at least 1")
    pending = Pending(
        ranks=event.ranks, kind=event.kind, source=event.source, killing=event.killing
    )
    return replace(c, pending=pending)


@evolve.register(ev.QualityDownshifted)
def _downshifted(event: ev.QualityDownshifted, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    pending = check_allocation_open(c)
    if c.out:
        raise errors.StepsAfterOutOfScene(name=c.name, quality=event.quality, step="an earlier")
    q = own_quality(c, event.quality)
    if (event.before, event.after) != (q.current, q.current - 1) or event.kind is not pending.kind:
        raise ReplayMismatch(f"{q.name} is at {q.current}, the step says {event.before}")
    if event.kind is RankKind.FAILURE:
        q = replace(q, lost_failure=q.lost_failure + 1)
    else:
        q = replace(q, lost_damage=q.lost_damage + 1)
    left = pending.ranks - 1
    return replace(
        c, qualities=c.with_quality(q), pending=replace(pending, ranks=left) if left else None
    )


@evolve.register(ev.CharacterOutOfScene)
def _out(event: ev.CharacterOutOfScene, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if not c.out:
        raise ReplayMismatch(f"no quality of {c.name} is below Poor")
    return replace(c, out_turn=event.turn)


@evolve.register(ev.RanksDiscarded)
def _discarded(event: ev.RanksDiscarded, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    pending = check_allocation_open(c)
    if not c.out or pending.ranks != event.count:
        raise ReplayMismatch(f"{pending.ranks} rank(s) were left, {event.count} discarded")
    return replace(c, pending=None)


@evolve.register(ev.CharacterKilled)
def _killed(event: ev.CharacterKilled, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_alive(c, "be killed again")
    if not c.out:
        raise errors.VictimNotOutOfScene(name=c.name)
    return replace(c, killed=True, pending=None)


@evolve.register(ev.CharacterReturnedToScene)
def _returned(event: ev.CharacterReturnedToScene, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if c.out:
        raise ReplayMismatch(f"{c.name} still has a quality below Poor")
    return replace(c, out_turn=None)


@evolve.register(ev.StrategyDeclared)
def _strategy(event: ev.StrategyDeclared, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_can_act(c)
    if c.strategy is not None:
        raise errors.StrategyAlreadyActive(name=c.name, strategy=c.strategy)
    penalty = c.defense_penalty or event.strategy is Strategy.FULL_DEFENSE
    return replace(c, strategy=event.strategy, defense_penalty=penalty)


@evolve.register(ev.StrategyExpired)
def _expired(event: ev.StrategyExpired, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if c.strategy is not event.strategy:
        raise ReplayMismatch(f"{c.name} does not play {event.strategy}")
    return replace(c, strategy=None)


@evolve.register(ev.FullDefensePenaltyConsumed)
def _consumed(event: ev.FullDefensePenaltyConsumed, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if not c.defense_penalty:
        raise ReplayMismatch(f"{c.name} owes no Full Defense downshift")
    return replace(c, defense_penalty=False)


@evolve.register(ev.TurnOrderSet)
def _order(event: ev.TurnOrderSet, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if c.id not in {slot.character_id for slot in event.order}:
        raise ReplayMismatch(f"{c.name} is not in the turn order")
    return replace(c, order=event.order, turn=False, last_turn=0)


@evolve.register(ev.TurnStarted)
def _turn_started(event: ev.TurnStarted, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_alive(c, "take a turn")
    if not c.order or c.turn or c.strategy is not None or event.number <= c.last_turn:
        raise ReplayMismatch(f"{c.name}'s turn {event.number} cannot start")
    return replace(c, turn=True, last_turn=event.number)


@evolve.register(ev.TurnEnded)
def _turn_ended(event: ev.TurnEnded, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if not c.turn or c.last_turn != event.number:
        raise ReplayMismatch(f"turn {event.number} is not {c.name}'s")
    check_nothing_owed(c)
    return replace(c, turn=False)
