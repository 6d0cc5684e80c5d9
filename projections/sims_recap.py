"""What a Sims event is in a recap: its highlights and the ranks it moved."""

from __future__ import annotations

from functools import singledispatch

from domain.events import Event
from domain.rulesets.sims import events as pdq
from domain.rulesets.sims.tables import rank_name
from projections.presentation import Moved

HIGHLIGHTS: dict[type[Event], str] = {
    pdq.CharacterOutOfScene: "out of the scene",
    pdq.CharacterReturnedToScene: "back in the scene",
    pdq.CharacterKilled: "killed",
    pdq.UpgradeGranted: "upgrade",
    pdq.QualityUpgraded: "upgrade",
    pdq.MasterPlusTaken: "master plus",
    pdq.CharacterReborn: "rebirth",
}


@singledispatch
def moved(event: Event) -> tuple[Moved, ...]:
    """The ranks a Sims event moved: (quality, before, after)."""
    return ()


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
