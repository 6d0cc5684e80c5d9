"""Resolving an action: the effective rank or combined modifier, the dice mode, and the roll."""

from __future__ import annotations

from uuid import UUID

from domain.dice import DiceSource
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import own_quality
from domain.rulesets.sims.events import QualityUsed, Roll, Shift
from domain.rulesets.sims.tables import DiceMode, Rank, SheetKind, modifier

MASTER = Rank.MASTER.level


def default_use(character_id: UUID, name: str) -> QualityUsed:
    """No applicable quality: the default rank is Average [0] (Cypher, Simple Situation)."""
    return QualityUsed(
        character_id=character_id,
        character=name,
        quality=None,
        base=Rank.AVERAGE,
        current=Rank.AVERAGE.level,
        modifier=0,
    )


def use(c: SimsCharacter, quality: str | None) -> QualityUsed:
    """A quality by name (its current rank, after lost ranks), or None for the default Average."""
    if quality is None or quality.strip().lower() in ("", "none", "-"):
        if c.kind is SheetKind.SECONDARY:
            quality = c.qualities[0].name
        else:
            return default_use(c.id, c.name)
    q = own_quality(c, quality)
    return QualityUsed(
        character_id=c.id,
        character=c.name,
        quality=q.name,
        base=q.base,
        current=q.current,
        modifier=modifier(q.current),
    )


def effective(
    uses: tuple[QualityUsed, ...], shifts: tuple[Shift, ...]
) -> tuple[int | None, int, DiceMode]:
    """(effective rank, modifier, dice mode) for an action.

    One quality: its rank moves one step per shift; below Poor it auto-fails; a Master quality
    upshifted rolls 3d6+6 (further upshifts add nothing, PDQ-A6). Several qualities or
    characters: the modifiers add up, +2 per upshift and -2 per downshift, and a total below -2
    (beneath Poor) auto-fails (PDQ-A6, PDQ-X6)."""
    steps = sum(s.steps for s in shifts)
    if len(uses) == 1:
        index = uses[0].current + steps
        if index < 0:
            return index, modifier(index), DiceMode.AUTO_FAIL
        if index > MASTER:
            return index, modifier(MASTER), DiceMode.THREE_D6
        return index, modifier(index), DiceMode.TWO_D6
    combined = sum(u.modifier for u in uses) + 2 * steps
    if combined < modifier(0):
        return None, combined, DiceMode.AUTO_FAIL
    return None, combined, DiceMode.TWO_D6


def roll(dice: DiceSource, uses: tuple[QualityUsed, ...], shifts: tuple[Shift, ...]) -> Roll:
    index, mod, mode = effective(uses, shifts)
    count = {DiceMode.TWO_D6: 2, DiceMode.THREE_D6: 3, DiceMode.AUTO_FAIL: 0}[mode]
    faces = tuple(dice.roll(6) for _ in range(count))
    total = sum(faces) + mod if faces else None
    return Roll(
        qualities=uses,
        shifts=shifts,
        effective=index,
        modifier=mod,
        mode=mode,
        dice=faces,
        total=total,
    )


def reroll(dice: DiceSource, previous: Roll) -> Roll:
    """The same action rolled again with new dice (a tied conflict)."""
    count = len(previous.dice)
    faces = tuple(dice.roll(6) for _ in range(count))
    total = sum(faces) + previous.modifier if faces else None
    return Roll(
        qualities=previous.qualities,
        shifts=previous.shifts,
        effective=previous.effective,
        modifier=previous.modifier,
        mode=previous.mode,
        dice=faces,
        total=total,
    )
