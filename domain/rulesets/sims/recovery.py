"""Recovering from damage: danger at scene end, the 1d6 recovery roll and where the ranks go.

Scene end (the ``end_scene`` hook) gives every lost rank back to characters in momentary danger;
characters in continuing danger get a recovery roll, taken with `recover` (1d6) and placed by the
player. The GM declares continuing danger with `danger` before the scene ends (default momentary).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import evolve as replace
from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import check_alive, check_recoverable, own_quality
from domain.rulesets.sims.events import (
    CharacterReturnedToScene,
    DangerDeclared,
    RankRecovered,
    RankRestored,
    RanksRecovered,
    RecoveryRollAuthorized,
    RecoveryRolled,
    SceneWrappedUp,
)
from domain.rulesets.sims.lookup import character, everyone, settings
from domain.rulesets.sims.tables import Danger, RankKind


def place_recovered(c: SimsCharacter, count: int, steps: Sequence[str]) -> list[Event]:
    """The player brings back ``count`` lost ranks, one quality per rank, never above its base."""
    if len(steps) != count:
        raise errors.RecoveryStepCountMismatch(name=c.name, count=count, steps=len(steps))
    events: list[Event] = []
    qualities = {q.name: q for q in c.qualities}
    was_out = c.out
    for step in steps:
        q = qualities[own_quality(c, step).name]
        check_recoverable(c, q)
        before = q.current
        if q.lost_failure:
            q = replace(q, lost_failure=q.lost_failure - 1)
        else:
            q = replace(q, lost_damage=q.lost_damage - 1)
        qualities[q.name] = q
        events.append(RankRecovered(quality=q.name, before=before, after=q.current))
    if was_out and all(q.current >= 0 for q in qualities.values()):
        last = next(e.quality for e in events if isinstance(e, RankRecovered) and e.before < 0)
        events.append(CharacterReturnedToScene(quality=last))
    return events


def scene_end(view: View) -> list[Change]:
    """Momentary danger: every lost rank comes back. Continuing danger: a 1d6 recovery roll
    (house rule failureRanksClearAtSceneEnd: Failure Ranks come back at once either way)."""
    rules = settings(view)
    changes: list[Change] = []
    for c in everyone(view):
        if c.killed:
            continue
        if c.has_scene_state or c.lost:
            changes.append(Change(c.id, SceneWrappedUp(danger=c.danger)))
        if not c.lost:
            continue
        kind: RankKind | None = None
        if c.danger is Danger.CONTINUING:
            if not rules.failure_ranks_clear_at_scene_end or not any(
                q.lost_failure for q in c.qualities
            ):
                changes += _authorize(c, "continuing danger at the end of the scene")
                continue
            kind = RankKind.FAILURE
        changes += _restore_all(c, kind)
        if kind is RankKind.FAILURE and any(q.lost_damage for q in c.qualities):
            changes += _authorize(c, "continuing danger at the end of the scene")
    return changes


def _authorize(c: SimsCharacter, reason: str) -> list[Change]:
    if c.recovery_available:
        return []
    return [Change(c.id, RecoveryRollAuthorized(reason=reason))]


def _restore_all(c: SimsCharacter, kind: RankKind | None) -> list[Change]:
    restored: list[RankRestored] = []
    after: dict[str, int] = {}
    for q in c.qualities:
        kept = q.lost_damage if kind is RankKind.FAILURE else 0
        after[q.name] = max(-1, q.base.level - kept)
        if after[q.name] != q.current:
            restored.append(RankRestored(quality=q.name, before=q.current, after=after[q.name]))
    changes = [Change(c.id, RanksRecovered(restored=tuple(restored), kind=kind))]
    if c.out and all(v >= 0 for v in after.values()):
        zeroed = next(q.name for q in c.qualities if q.current < 0)
        changes.append(Change(c.id, CharacterReturnedToScene(quality=zeroed)))
    return changes


@frozen(kw_only=True)
class DeclareDanger(Plain):
    """The GM rules momentary danger (every lost rank back at scene end) or continuing danger
    (a 1d6 recovery roll) for characters (default: everyone)."""

    name: ClassVar[str] = "danger"
    danger: Danger
    characters: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        targets = [character(view, who) for who in self.characters] or everyone(view)
        event = DangerDeclared(danger=self.danger)
        return tuple(Change(c.id, event) for c in targets if not c.killed)


@frozen(kw_only=True)
class AuthorizeRecovery(Plain):
    """The GM tells a character in continuing danger to roll for recovery again."""

    name: ClassVar[str] = "authorize-recovery"
    character: str
    reason: str = "the GM says to roll again"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_alive(c, "recover")
        if c.recovery_available:
            raise errors.RecoveryAlreadyAuthorized(name=c.name)
        if not c.lost:
            raise errors.NothingToRecover(name=c.name)
        return (Change(c.id, RecoveryRollAuthorized(reason=self.reason.strip() or "GM ruling")),)


def check_may_recover(c: SimsCharacter) -> None:
    """A living character with ranks lost, the GM's leave to recover, and no recovered ranks
    still to place (``recover``)."""
    check_alive(c, "recover")
    if c.recovery_pending:
        raise errors.RecoveryChoicePending(name=c.name, count=c.recovery_pending)
    if not c.lost:
        raise errors.NothingToRecover(name=c.name)
    if not c.recovery_available:
        raise errors.RecoveryNotAuthorized(name=c.name)


def check_recovery_pending(c: SimsCharacter) -> None:
    """Recovered ranks waiting to be placed (``restore``)."""
    check_alive(c, "recover")
    if not c.recovery_pending:
        raise errors.NoRecoveryPending(name=c.name)


@frozen(kw_only=True)
class RollRecovery(Plain):
    """Roll 1d6: that many lost ranks come back (placed now with 'steps', or with `restore`)."""

    name: ClassVar[str] = "recover"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    steps: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_may_recover(c)
        die = dice.roll(6)
        restorable = min(die, c.lost)
        rolled = RecoveryRolled(
            die=die, lost=c.lost, restorable=restorable, wasted=die - restorable
        )
        events: list[Event] = [rolled]
        if self.steps:
            events += place_recovered(c, restorable, self.steps)
        return tuple(Change(c.id, e) for e in events)


@frozen(kw_only=True)
class PlaceRecovery(Plain):
    """Place the ranks a recovery roll brought back, one quality per rank."""

    name: ClassVar[str] = "restore"
    character: str
    steps: tuple[str, ...]

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_recovery_pending(c)
        events = place_recovered(c, c.recovery_pending, self.steps)
        return tuple(Change(c.id, e) for e in events)
