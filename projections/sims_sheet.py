"""A Sims character as the table reads it: the one-line status, the sheet, and the derived values
the JSON sheet adds to the character's own fields (each quality's current rank by name)."""

from __future__ import annotations

from typing import Any

import attrs

from domain.rulesets.sims.character import Quality, SimsCharacter
from domain.rulesets.sims.tables import rank_name


def owed(c: SimsCharacter) -> list[str]:
    """What the character must do before play goes on: ranks to allocate, a tie to re-roll."""
    notes = []
    if c.pending is not None:
        notes.append(f"must allocate {c.pending.ranks} {c.pending.kind} Rank(s)")
    if c.ties:
        notes.append(f"must re-roll the tied attack on {c.ties[0].setup.defender}")
    if c.recovery_pending:
        notes.append(f"must place {c.recovery_pending} recovered rank(s)")
    return notes


def status(c: SimsCharacter) -> str:
    """What the character is waiting for or doing, or 'ready' (or 'killed')."""
    if c.killed:
        return "killed"
    notes = owed(c)
    if c.out:
        notes.append("out of the scene")
    if c.recovery_available:
        notes.append("may roll for recovery")
    if c.turn:
        notes.append(f"has turn {c.last_turn}")
    if c.strategy:
        notes.append(f"plays {c.strategy}")
    if c.upgrades:
        notes.append(f"{c.upgrades} upgrade(s) to spend")
    return "; ".join(notes) or "ready"


def sheet_text(c: SimsCharacter) -> str:
    """The sheet: each quality's area, base rank and current rank with the ranks it lost."""
    lines = [f"{c.name} ({c.kind}, played by {c.player}): {status(c)}"]
    lines.append(f"  {'quality':<22}{'area':<14}{'base':<9}current")
    for q in c.qualities:
        lost = f"  (-{q.lost_damage} Damage)" if q.lost_damage else ""
        lost += f"  (-{q.lost_failure} Failure)" if q.lost_failure else ""
        lines.append(f"  {q.name:<22}{q.area:<14}{q.base:<9}{rank_name(q.current)}{lost}")
    if c.strengths:
        lines.append(f"  strengths: {', '.join(c.strengths)}")
    if c.weaknesses:
        lines.append(f"  weaknesses: {', '.join(c.weaknesses)}")
    return "\n".join(lines)


def _quality(q: Quality) -> dict[str, Any]:
    return {**attrs.asdict(q), "current": rank_name(q.current)}


def sheet_extras(c: SimsCharacter) -> dict[str, Any]:
    """The values the JSON sheet adds: out of the scene, the status, and the qualities with
    their current rank by name."""
    return {"qualities": [_quality(q) for q in c.qualities], "out": c.out, "status": status(c)}
