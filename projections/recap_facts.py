"""What a recap takes from each event: whether the public may see it, whether it is a highlight,
and which score it moved (before and after), all read from the event alone (DIGEST §5.1)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import singledispatch
from typing import Any, Protocol
from uuid import UUID

from domain.events import (
    CampaignRegistered,
    DiceCommitted,
    DiceRevealed,
    Event,
    NoteAdded,
    RulingAmended,
    RulingMade,
    RulingRetracted,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionSealed,
    SessionStarted,
)
from domain.rulesets.code_green import events as cg
from domain.rulesets.sims import events as pdq
from domain.rulesets.sims.tables import rank_name
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.the_code import events as tc


class Envelope(Protocol):
    """A recorded event as projections read it (the engine's ``Recorded`` fits)."""

    @property
    def originator_id(self) -> UUID: ...

    @property
    def originator_version(self) -> int: ...

    @property
    def timestamp(self) -> datetime: ...

    @property
    def ruling(self) -> int: ...

    @property
    def actor(self) -> str: ...

    @property
    def session(self) -> int | None: ...

    @property
    def scene(self) -> int | None: ...

    @property
    def event(self) -> Event: ...


# Events a recap reads as structure (sessions, scenes, corrections) or not at all (the dice
# commitments and seals are for `campaign verify`, not for readers of a recap).
STRUCTURE: tuple[type[Event], ...] = (
    CampaignRegistered,
    RulingMade,
    RulingRetracted,
    RulingAmended,
    SessionStarted,
    SessionEnded,
    SceneStarted,
    SceneEnded,
    DiceCommitted,
    DiceRevealed,
    SessionSealed,
)


@singledispatch
def gm_only(event: Event) -> bool:
    """Whether only the GM may read an event (never in a public recap or timeline)."""
    return False


@gm_only.register
def _note(event: NoteAdded) -> bool:
    return event.gm_only


HIGHLIGHTS: dict[type[Event], str] = {
    cg.Incapacitated: "incapacitated",
    cg.Recovered: "recovered",
    sg.CriticalInjuryRolled: "critical injury",
    sg.DeathClockStarted: "dying",
    sg.CharacterDied: "death",
    sg.ArmourSlagged: "armour slagged",
    sg.CyberLimbDisabled: "cyber limb down",
    sg.SystemBreached: "system breached",
    sg.MedicalAttentionReceived: "medical attention",
    sg.MissionCompleted: "mission",
    sg.LevelGained: "level up",
    pdq.CharacterOutOfScene: "out of the scene",
    pdq.CharacterReturnedToScene: "back in the scene",
    pdq.CharacterKilled: "killed",
    pdq.UpgradeGranted: "upgrade",
    pdq.QualityUpgraded: "upgrade",
    pdq.MasterPlusTaken: "master plus",
    pdq.CharacterReborn: "rebirth",
    tc.ObjectiveAccomplished: "objective",
    tc.RewardPointsEarned: "reward points",
    tc.RewardPointsSpent: "reward points",
    tc.CommunityProblemSolved: "community problem",
    tc.ExposureChanged: "exposure",
    tc.PopularityChanged: "popularity",
    tc.DetailRevealed: "detail revealed",
    tc.IdentityMadePublic: "identity public",
}


def highlight(event: Event) -> str | None:
    """The kind of highlight an event is (``level up``, ``detail revealed``), or None."""
    return HIGHLIGHTS.get(type(event))


Moved = tuple[str, Any, Any]


@singledispatch
def moved(event: Event) -> tuple[Moved, ...]:
    """The scores an event moved: (score, before, after), for end-of-session deltas."""
    return ()


@moved.register(tc.ExposureChanged)
def _exposure(event: tc.ExposureChanged) -> tuple[Moved, ...]:
    return (("Exposure", event.before, event.after), ("Exposure peak", *_peak(event)))


def _peak(event: tc.ExposureChanged) -> tuple[int, int]:
    return event.peak_before, event.peak_after


@moved.register(tc.MotivationSpent)
@moved.register(tc.MotivationRegained)
def _motivation(event: tc.MotivationSpent | tc.MotivationRegained) -> tuple[Moved, ...]:
    return (("Motivation", event.before, event.after),)


@moved.register(tc.MotivationReset)
def _reset(event: tc.MotivationReset) -> tuple[Moved, ...]:
    return (("Motivation", event.before, event.current),)


@moved.register(tc.MaxMotivationIncreased)
def _max(event: tc.MaxMotivationIncreased) -> tuple[Moved, ...]:
    return (("maximum Motivation", event.before, event.after),)


@moved.register(tc.RewardPointsEarned)
@moved.register(tc.RewardPointsSpent)
def _rp(event: tc.RewardPointsEarned | tc.RewardPointsSpent) -> tuple[Moved, ...]:
    return (("Reward Points", event.before, event.after),)


@moved.register(tc.PopularityChanged)
def _popularity(event: tc.PopularityChanged) -> tuple[Moved, ...]:
    return (("Popularity", event.before, event.after),)


@moved.register(sg.ResilienceLost)
@moved.register(sg.ResilienceRestored)
def _resilience(event: sg.ResilienceLost | sg.ResilienceRestored) -> tuple[Moved, ...]:
    return (("Resilience", event.before, event.after),)


@moved.register(sg.CashChanged)
def _cash(event: sg.CashChanged) -> tuple[Moved, ...]:
    return (("cash", event.before, event.after),)


@moved.register(sg.ItemUsed)
def _uses(event: sg.ItemUsed) -> tuple[Moved, ...]:
    return ((f"{event.item} uses", event.before, event.after),)


@moved.register(sg.LevelGained)
def _level(event: sg.LevelGained) -> tuple[Moved, ...]:
    return (("level", event.level - 1, event.level),)


@moved.register(pdq.QualityDownshifted)
@moved.register(pdq.RankRecovered)
def _rank(event: pdq.QualityDownshifted | pdq.RankRecovered) -> tuple[Moved, ...]:
    return ((event.quality, rank_name(event.before), rank_name(event.after)),)


@moved.register(pdq.QualityUpgraded)
def _upgraded(event: pdq.QualityUpgraded) -> tuple[Moved, ...]:
    return ((event.quality, event.before.value, event.after.value),)


@moved.register(pdq.RanksRecovered)
def _recovered(event: pdq.RanksRecovered) -> tuple[Moved, ...]:
    return tuple((r.quality, rank_name(r.before), rank_name(r.after)) for r in event.restored)


def amendments_by_ruling(records: Iterable[Envelope]) -> list[list[Envelope]]:
    """A correction's ``RulingAmended`` records, grouped by the ruling each one amends (an undo
    or an amendment that re-decides later rulings amends several), in the order recorded."""
    groups: dict[int, list[Envelope]] = {}
    for record in records:
        if isinstance(record.event, RulingAmended):
            groups.setdefault(record.event.ruling, []).append(record)
    return list(groups.values())
