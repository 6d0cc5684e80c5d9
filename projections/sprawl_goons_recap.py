"""What a Sprawl Goons event is in a recap: its highlights and the scores it moved."""

from __future__ import annotations

from functools import singledispatch

from domain.events import Event
from domain.rulesets.sprawl_goons import events as sg
from projections.presentation import Moved

HIGHLIGHTS: dict[type[Event], str] = {
    sg.CriticalInjuryRolled: "critical injury",
    sg.DeathClockStarted: "dying",
    sg.CharacterDied: "death",
    sg.ArmourSlagged: "armour slagged",
    sg.CyberLimbDisabled: "cyber limb down",
    sg.SystemBreached: "system breached",
    sg.MedicalAttentionReceived: "medical attention",
    sg.MissionCompleted: "mission",
    sg.LevelGained: "level up",
}


@singledispatch
def moved(event: Event) -> tuple[Moved, ...]:
    """The scores a Sprawl Goons event moved: (score, before, after)."""
    return ()


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
