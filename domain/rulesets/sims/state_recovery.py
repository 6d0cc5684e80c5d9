"""Replaying the Sims events of scene ends, recovery and improvement (registered on ``evolve``)."""

from __future__ import annotations

from attrs import evolve as replace

from domain.errors import ReplayMismatch
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import (
    check_alive,
    check_may_be_reborn,
    check_may_take_master_plus,
    check_player_character,
    check_recoverable,
    check_scene_can_end,
    own_quality,
)
from domain.rulesets.sims.state import evolve, existing, qualities_from
from domain.rulesets.sims.tables import Danger, Rank, RankKind


@evolve.register(ev.DangerDeclared)
def _danger(event: ev.DangerDeclared, state: SimsCharacter | None) -> SimsCharacter:
    return replace(existing(state), danger=event.danger, danger_declared=True)


@evolve.register(ev.SceneWrappedUp)
def _wrapped(event: ev.SceneWrappedUp, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_scene_can_end(c)
    return replace(
        c,
        strategy=None,
        defense_penalty=False,
        order=(),
        turn=False,
        last_turn=0,
        danger=Danger.MOMENTARY,
        danger_declared=False,
    )


@evolve.register(ev.RanksRecovered)
def _recovered(event: ev.RanksRecovered, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    qualities = list(c.qualities)
    for restored in event.restored:
        q = own_quality(c, restored.quality)
        if event.kind is RankKind.FAILURE:
            q = replace(q, lost_failure=0)
        elif event.kind is RankKind.DAMAGE:
            q = replace(q, lost_damage=0)
        else:
            q = replace(q, lost_failure=0, lost_damage=0)
        if q.current != restored.after:
            raise ReplayMismatch(f"{q.name} comes back to {q.current}, not {restored.after}")
        qualities = [q if old.name == q.name else old for old in qualities]
    return replace(
        c,
        qualities=tuple(qualities),
        recovery_available=c.recovery_available and any(q.lost for q in qualities),
    )


@evolve.register(ev.RecoveryRollAuthorized)
def _authorized(event: ev.RecoveryRollAuthorized, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_alive(c, "recover")
    if c.recovery_available:
        raise errors.RecoveryAlreadyAuthorized(name=c.name)
    if not c.lost:
        raise errors.NothingToRecover(name=c.name)
    return replace(c, recovery_available=True)


@evolve.register(ev.RecoveryRolled)
def _recovery_rolled(event: ev.RecoveryRolled, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_alive(c, "recover")
    if not c.recovery_available:
        raise errors.RecoveryNotAuthorized(name=c.name)
    if event.restorable != min(event.die, c.lost):
        raise ReplayMismatch(f"{c.name} lost {c.lost} rank(s), {event.restorable} recorded")
    return replace(c, recovery_available=False, recovery_pending=event.restorable)


@evolve.register(ev.RankRecovered)
def _rank_recovered(event: ev.RankRecovered, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if not c.recovery_pending:
        raise errors.NoRecoveryPending(name=c.name)
    q = own_quality(c, event.quality)
    check_recoverable(c, q)
    if q.lost_failure:
        q = replace(q, lost_failure=q.lost_failure - 1)
    else:
        q = replace(q, lost_damage=q.lost_damage - 1)
    if (event.before, event.after) != (q.current - 1, q.current):
        raise ReplayMismatch(f"{q.name} comes back to {q.current}, not {event.after}")
    return replace(c, qualities=c.with_quality(q), recovery_pending=c.recovery_pending - 1)


@evolve.register(ev.AdventureCompleted)
def _adventure(event: ev.AdventureCompleted, state: SimsCharacter | None) -> SimsCharacter:
    return existing(state)  # a milestone of the story: nothing on the sheet changes


@evolve.register(ev.UpgradeMissionAnnounced)
def _announced(event: ev.UpgradeMissionAnnounced, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    if event.mission in c.missions:
        raise errors.MissionAlreadyAnnounced(name=c.name, mission=event.mission)
    return replace(c, missions=(*c.missions, event.mission))


@evolve.register(ev.UpgradeGranted)
def _granted(event: ev.UpgradeGranted, state: SimsCharacter | None) -> SimsCharacter:
    c = existing(state)
    check_player_character(c)
    missions = c.missions
    if event.mission is not None:
        if event.mission not in missions:
            raise errors.MissionNotAnnounced(name=c.name, mission=event.mission)
        missions = tuple(m for m in missions if m != event.mission)
    return replace(c, upgrades=c.upgrades + 1, missions=missions)


def _spend(c: SimsCharacter) -> SimsCharacter:
    if c.upgrades < 1:
        raise errors.NoUpgradeAvailable(name=c.name)
    return replace(c, upgrades=c.upgrades - 1)


@evolve.register(ev.QualityUpgraded)
def _upgraded(event: ev.QualityUpgraded, state: SimsCharacter | None) -> SimsCharacter:
    c = _spend(existing(state))
    q = own_quality(c, event.quality)
    if q.base is Rank.MASTER:
        raise errors.QualityAlreadyMaster(quality=q.name)
    if (q.base, event.after.level) != (event.before, q.base.level + 1):
        raise ReplayMismatch(f"{q.name} is {q.base}, the upgrade says {event.before}")
    return replace(c, qualities=c.with_quality(replace(q, base=event.after)))


@evolve.register(ev.MasterPlusTaken)
def _master_plus(event: ev.MasterPlusTaken, state: SimsCharacter | None) -> SimsCharacter:
    c = _spend(existing(state))
    check_may_take_master_plus(c)
    return replace(c, qualities=(*c.qualities, *qualities_from(event.qualities)))


@evolve.register(ev.CharacterReborn)
def _reborn(event: ev.CharacterReborn, state: SimsCharacter | None) -> SimsCharacter:
    c = _spend(existing(state))
    check_may_be_reborn(c)
    return replace(c, qualities=qualities_from(event.qualities), rebirths=c.rebirths + 1)
