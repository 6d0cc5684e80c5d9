"""Conflict turns: the turn order, whose turn it is, and the strategies that last a turn."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import ClassVar

from attrs import evolve, frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import check_can_act
from domain.rulesets.sims.events import (
    StrategyDeclared,
    StrategyExpired,
    TurnEnded,
    TurnOrderSet,
    TurnSlot,
    TurnStarted,
)
from domain.rulesets.sims.lookup import (
    character,
    check_table_clear,
    check_turn,
    split_ref,
    turn_holder,
    turn_number,
)
from domain.rulesets.sims.resolution import use
from domain.rulesets.sims.tables import SheetKind, Strategy, TieBreak

# --- Turn order ---------------------------------------------------------------------------------


def _start_turn(c: SimsCharacter, number: int) -> list[Change]:
    """A new turn ends the strategy played since the character's last turn."""
    expired = [Change(c.id, StrategyExpired(strategy=c.strategy))] if c.strategy else []
    return [*expired, Change(c.id, TurnStarted(number=number))]


def roll_off(tied: Sequence[TurnSlot], dice: DiceSource) -> list[TurnSlot]:
    """Each tied character rolls 1d6 (in the order listed), highest first; those who tie again
    roll again among themselves (PDQ-A11)."""
    if len(tied) < 2:
        return list(tied)
    faces = [dice.roll(6) for _ in tied]
    rolled = [evolve(s, roll_off=(*s.roll_off, f)) for s, f in zip(tied, faces, strict=True)]
    ordered: list[TurnSlot] = []
    for face in sorted(set(faces), reverse=True):
        ordered += roll_off([s for s in rolled if s.roll_off[-1] == face], dice)
    return ordered


def in_order(
    slots: Sequence[tuple[TurnSlot, SheetKind]], ties: TieBreak, dice: DiceSource
) -> tuple[TurnSlot, ...]:
    """Higher fighting-relevant rank first (Conflict example). Equal ranks: a PC before an NPC,
    then a 1d6 roll-off; or, when the GM says so, the order the GM listed (PDQ-A11)."""
    if ties is TieBreak.AS_LISTED:
        return tuple(s for s, _ in sorted(slots, key=lambda entry: -entry[0].rank))

    def place(entry: tuple[TurnSlot, SheetKind]) -> tuple[int, bool]:
        slot, kind = entry
        return -slot.rank, kind is not SheetKind.PC

    order: list[TurnSlot] = []
    for _, tied in groupby(sorted(slots, key=place), key=place):
        order += roll_off([s for s, _ in tied], dice)
    return tuple(order)


@frozen(kw_only=True)
class SetTurnOrder(Plain):
    """Start a conflict: an entry WHO:QUALITY for each side; the higher fighting-relevant rank
    goes first. At equal ranks a PC goes before an NPC, then tied characters roll 1d6 each in the
    order listed, highest first (PDQ-A11); or, with 'ties' as-listed, the GM's order stands."""

    name: ClassVar[str] = "turns"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    entries: tuple[str, ...]
    ties: TieBreak = TieBreak.ROLL_OFF

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        check_table_clear(view)
        slots: list[tuple[TurnSlot, SheetKind]] = []
        for entry in self.entries:
            who, quality = split_ref(entry)
            c = character(view, who)
            check_can_act(c)
            if any(s.character_id == c.id for s, _ in slots):
                raise errors.DefenderTwice(name=c.name)
            used = use(c, quality)
            slot = TurnSlot(character_id=c.id, name=c.name, quality=used.quality, rank=used.current)
            slots.append((slot, c.kind))
        if len(slots) < 2:
            raise errors.TurnOrderTooShort(count=len(slots))
        order = in_order(slots, TieBreak(self.ties), dice)
        changes: list[Change] = []
        holder = turn_holder(view)
        if holder is not None:
            changes.append(Change(holder.id, TurnEnded(number=holder.last_turn)))
        changes += [Change(s.character_id, TurnOrderSet(order=order)) for s in order]
        first = character(view, order[0].name)
        return (*changes, *_start_turn(first, 1))


def check_turn_order(view: View) -> SimsCharacter:
    """The character whose turn it is, in a scene with nothing owed (``next``)."""
    view.campaign.require_scene()
    check_table_clear(view)
    holder = turn_holder(view)
    if holder is None:
        raise errors.NoTurnOrder()
    return holder


@frozen(kw_only=True)
class EndTurn(Plain):
    """End the current turn; the next character in the order who can act takes its turn."""

    name: ClassVar[str] = "next"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        holder = check_turn_order(view)
        ids = [s.character_id for s in holder.order]
        start = ids.index(holder.id)
        following = ids[start + 1 :] + ids[: start + 1]
        candidates = [view.character(i) for i in following]
        up = next((c for c in candidates if not c.out and not c.killed), holder)
        number = turn_number(view) + 1
        ended = Change(holder.id, TurnEnded(number=holder.last_turn))
        return (ended, *_start_turn(up, number))


# --- Strategies ---------------------------------------------------------------------------------


@frozen(kw_only=True)
class DeclareStrategy(Plain):
    """Full Attack (on the character's turn) or Full Defense (also as a reaction to an attack),
    played until the character's next turn."""

    name: ClassVar[str] = "strategy"
    character: str
    strategy: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        check_table_clear(view)
        c = character(view, self.character)
        check_can_act(c)
        try:
            strategy = Strategy(self.strategy.strip().lower())
        except ValueError:
            raise errors.UnknownStrategy(text=self.strategy) from None
        if strategy is Strategy.FULL_ATTACK:
            check_turn(view, c)
        if c.strategy is not None:
            raise errors.StrategyAlreadyActive(name=c.name, strategy=c.strategy)
        return (Change(c.id, StrategyDeclared(strategy=strategy)),)
