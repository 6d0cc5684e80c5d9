"""Checks shared by commands (to refuse) and by replay (to find histories that do not fit)."""

from __future__ import annotations

from domain.errors import CharacterDead, NotAPlayerCharacter
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import Pending, Quality, SimsCharacter
from domain.rulesets.sims.tables import MASTER_PLUS_MASTERS, REBIRTH_MASTERS, SheetKind


def check_alive(c: SimsCharacter, what: str) -> None:
    """A killed character does nothing more and nothing more is done to it (``what`` it was
    asked to do, for the refusal)."""
    if c.killed:
        raise CharacterDead(name=c.name, what=what, rule="Out for Blood")


def check_player_character(c: SimsCharacter) -> None:
    """Upgrades are earned and spent by player characters only (Characters Improvement)."""
    if c.kind is not SheetKind.PC:
        raise NotAPlayerCharacter(
            name=c.name, what="earn and spend upgrades", rule="Characters Improvement"
        )


def check_may_take_master_plus(c: SimsCharacter) -> None:
    """Master+ needs Master in at least three qualities (Master +)."""
    if c.masters < MASTER_PLUS_MASTERS:
        raise errors.NotEnoughMasters(
            what="Master+",
            required=MASTER_PLUS_MASTERS,
            name=c.name,
            count=c.masters,
            rule="Master +",
        )


def check_may_be_reborn(c: SimsCharacter) -> None:
    """Rebirth needs Master in at least six qualities and no Master+ quality (Rebirth)."""
    if c.has_master_plus:
        raise errors.HasMasterPlusQualities(name=c.name)
    if c.masters < REBIRTH_MASTERS:
        raise errors.NotEnoughMasters(
            what="Rebirth", required=REBIRTH_MASTERS, name=c.name, count=c.masters, rule="Rebirth"
        )


def check_nothing_owed(c: SimsCharacter) -> None:
    """Ranks to distribute, a tie to re-roll and recovered ranks to place come first."""
    if c.pending is not None:
        p = c.pending
        raise errors.AllocationPending(name=c.name, ranks=p.ranks, kind=p.kind)
    if c.ties:
        raise errors.TieRerollPending(name=c.name, defender=c.ties[0].setup.defender)
    if c.recovery_pending:
        raise errors.RecoveryChoicePending(name=c.name, count=c.recovery_pending)


def check_can_act(c: SimsCharacter) -> None:
    check_alive(c, "act")
    if c.out:
        raise errors.ActorOutOfScene(name=c.name)
    check_nothing_owed(c)


def check_can_be_hit(c: SimsCharacter) -> None:
    check_alive(c, "take ranks")
    if c.out:
        raise errors.TargetOutOfScene(name=c.name)
    if c.pending is not None:
        raise errors.AllocationPending(name=c.name, ranks=c.pending.ranks, kind=c.pending.kind)


def own_quality(c: SimsCharacter, name: str) -> Quality:
    quality = c.quality(name)
    if quality is None:
        own = ", ".join(q.name for q in c.qualities)
        raise errors.QualityNotOwned(name=c.name, quality=name, own=own)
    return quality


def check_allocation_open(c: SimsCharacter) -> Pending:
    if c.pending is None:
        raise errors.NoAllocationPending(name=c.name)
    return c.pending


def check_recoverable(c: SimsCharacter, quality: Quality) -> None:
    if quality.lost <= 0:
        raise errors.AboveBaseRank(quality=quality.name, base=quality.base)


def check_scene_can_end(c: SimsCharacter) -> None:
    if c.pending is not None:
        what = f"{c.pending.ranks} {c.pending.kind} Rank(s) to distribute"
        raise errors.SceneHasUnfinishedBusiness(name=c.name, what=what)
    if c.ties:
        what = f"the tied attack on {c.ties[0].setup.defender} is rolled again first"
        raise errors.SceneHasUnfinishedBusiness(name=c.name, what=what)
