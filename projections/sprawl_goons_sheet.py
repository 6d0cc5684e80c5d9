"""A Sprawl Goons character as the table reads it: the one-line status, the sheet, and the derived
values the JSON sheet adds to the character's own fields (the status and the encumbrance)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.tables import (
    BURSTS_PER_MAGAZINE,
    DEADLY_BAND,
    Condition,
    Kind,
    Stat,
)
from domain.rulesets.sprawl_goons.values import Item
from projections.describe import plural
from projections.sprawl_goons import burden


def status(c: SgCharacter) -> str:
    """A PC's level, Resilience and what weighs on it; an NPC's or a system's DS and state."""
    if c.kind is not Kind.PC:
        state = "dead" if c.dead else ("breached" if c.breached else "active")
        return f"{c.kind.upper()} DS {c.resilience}/{c.resilience_max}, {state}"
    parts = [f"level {c.level}", f"Resilience {c.resilience}/{c.resilience_max}"]
    if c.dead:
        parts.append("dead")
    elif c.death_clock is not None:
        parts.append("dying")
    if c.must_glitch:
        parts.append("Glitch dice until treated")
    if c.levels_due:
        parts.append(f"{c.levels_due} level(s) to take")
    return ", ".join(parts)


def _item(i: Item) -> str:
    """An item with its kind and bonus, uses, bursts left, condition and bulk."""
    notes = [f"{i.category} +{i.bonus}"]
    if i.uses is not None:
        notes.append(plural(i.uses, "use"))
    if i.bursts_fired is not None:
        left = BURSTS_PER_MAGAZINE - i.bursts_fired
        notes.append("magazine empty" if left <= 0 else f"{left} bursts left")
    if i.condition is not Condition.INTACT:
        notes.append(i.condition.value)
    if not i.bulky:
        notes.append("not bulky")
    return f"{i.name} ({', '.join(notes)})"


def sheet_text(c: SgCharacter) -> str:
    """The sheet: stats, Resilience, Inventory and encumbrance, cash, items, boosts, injuries,
    and what runs in the scene (dying, aiming, burning). An NPC or a system has its status."""
    lines = [f"{c.name} (played by {c.player}): {status(c)}"]
    if c.kind is not Kind.PC:
        return "\n".join(lines)
    lines.append("  ".join(f"{s.title} {c.stat(s)}" for s in Stat))
    lines.append(
        f"Resilience {c.resilience}/{c.resilience_max}  Inventory Score {c.inventory} "
        f"({c.bulky_items} bulky, {burden(c.encumbrance)})  Cash {c.cash}"
    )
    lines.append("Items: " + ("; ".join(_item(i) for i in c.items) or "none"))
    for b in c.boosts:
        lines.append(f"Boost: {b.source} +{b.value} {b.stat} this scene")
    for i in c.injuries:
        band = f"{DEADLY_BAND}+" if i.band == DEADLY_BAND else str(i.band)
        how = (
            f"negated by {i.negated_by}"
            if i.negated_by
            else ("treated" if i.treated else "untreated")
        )
        lines.append(f"Injury {i.number}: {band} {i.location}, {i.effect} ({how})")
    if c.death_clock is not None:
        lines.append(f"Dying: {c.death_clock} round end(s) left")
    if c.aim is not None:
        lines.append(f"Aiming at {c.aim.target}: +{c.aim.rounds}")
    if c.fire is not None:
        lines.append(f"On fire: {c.fire.damage} a round, {c.fire.rounds_left} round(s) left")
    return "\n".join(lines)


def sheet_extras(c: SgCharacter) -> dict[str, Any]:
    """What the JSON sheet adds to the character's own fields."""
    return {"status": status(c), "encumbrance": c.encumbrance}
