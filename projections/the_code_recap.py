"""What a The Code event is in a recap: its highlights and the scores it moved."""

from __future__ import annotations

from functools import singledispatch

from domain.events import Event
from domain.rulesets.the_code import events as tc
from projections.presentation import Moved

HIGHLIGHTS: dict[type[Event], str] = {
    tc.ObjectiveAccomplished: "objective",
    tc.RewardPointsEarned: "reward points",
    tc.RewardPointsSpent: "reward points",
    tc.CommunityProblemSolved: "community problem",
    tc.ExposureChanged: "exposure",
    tc.PopularityChanged: "popularity",
    tc.DetailRevealed: "detail revealed",
    tc.IdentityMadePublic: "identity public",
}


@singledispatch
def moved(event: Event) -> tuple[Moved, ...]:
    """The scores a The Code event moved: (score, before, after)."""
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
