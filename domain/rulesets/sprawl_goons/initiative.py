"""The Initiative Roll: who goes first in a fight."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple
from uuid import UUID

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.checks import check_alive, check_usable, find_item
from domain.rulesets.sprawl_goons.events import InitiativeRolled, ItemBonus
from domain.rulesets.sprawl_goons.lookup import character, modifiers, settings
from domain.rulesets.sprawl_goons.tables import Category, Kind, Stat


class _Row(NamedTuple):
    """One combatant's initiative, in the order named."""

    at: int
    id: UUID
    is_pc: bool
    die: int
    reaction: int
    burden: int
    total: int


def _standing(r: _Row) -> tuple[int, int, bool]:
    """Highest total first; ties: higher Reaction, then PCs before NPCs (SG-A10)."""
    return (-r.total, -r.reaction, not r.is_pc)


def _roll_offs(rows: list[_Row], dice: DiceSource) -> dict[int, tuple[int, ...]]:
    """The rest of SG-A10's ties: each tied combatant rolls a d6 (in the order named), higher
    first; those still level roll again. Groups are settled from the top of the order down."""
    faces: dict[int, tuple[int, ...]] = {r.at: () for r in rows}
    tied: dict[tuple[int, int, bool], list[int]] = {}
    for r in rows:
        tied.setdefault(_standing(r), []).append(r.at)
    todo = [group for _, group in sorted(tied.items()) if len(group) > 1]
    while todo:
        group = todo.pop(0)
        rolled = {index: dice.roll(6) for index in group}
        for index, face in rolled.items():
            faces[index] += (face,)
        again = [
            [index for index in group if rolled[index] == face]
            for face in sorted(set(rolled.values()), reverse=True)
        ]
        todo[:0] = [g for g in again if len(g) > 1]
    return faces


@frozen(kw_only=True)
class RollInitiative(Plain):
    """d6 + Reaction + 1 per relevant speedware augment or drug ('WHO:ITEM'), less
    encumbrance (SG-A9); the referee's modifiers ('WHO=+N') for NPCs. Highest goes first;
    ties: higher Reaction, then PCs before NPCs, then a d6 roll-off, rolled again by those
    still tied (SG-A10)."""

    name: ClassVar[str] = "initiative"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    combatants: tuple[str, ...]
    items: tuple[str, ...] = ()
    modifiers: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        rules = settings(view)
        if not self.combatants:
            raise errors.TargetRequired(what="initiative")
        cs = [character(view, ref) for ref in self.combatants]
        for index, c in enumerate(cs):
            check_alive(c, "fight")
            if c.kind is Kind.SYSTEM:
                raise errors.WrongTarget(name=c.name, kind="system", what="in a fight")
            if any(other.id == c.id for other in cs[:index]):
                raise errors.DuplicateTarget(name=c.name)
        ids = [c.id for c in cs]
        speedware: dict[int, list[ItemBonus]] = {i: [] for i in range(len(cs))}
        for text in self.items:
            who, _, name = text.partition(":")
            index = self._combatant(view, who, ids)
            item = find_item(cs[index], name)
            if item.category not in (Category.IMPLANT, Category.DRUG):
                raise errors.NotSpeedware(item=item.name)
            check_usable(item)
            speedware[index].append(ItemBonus(item=item.name, bonus=1))
        extra = dict.fromkeys(range(len(cs)), 0)
        for mod in modifiers(self.modifiers):
            extra[self._combatant(view, mod.source, ids)] += mod.value
        rows = []
        for index, c in enumerate(cs):
            die = dice.roll(6)
            reaction = c.stat(Stat.REACTION) + sum(b.value for b in c.boost(Stat.REACTION))
            burden = c.penalty(Stat.REACTION) if rules.encumbrance_on_initiative else 0
            bonus = sum(b.bonus for b in speedware[index])
            total = die + reaction + bonus + extra[index] - burden
            rows.append(_Row(index, c.id, c.is_pc, die, reaction, burden, total))
        faces = _roll_offs(rows, dice)
        order = sorted(rows, key=lambda r: (*_standing(r), tuple(-f for f in faces[r.at])))
        return tuple(
            Change(
                r.id,
                InitiativeRolled(
                    die=r.die,
                    reaction=r.reaction,
                    items=tuple(speedware[r.at]),
                    modifier=extra[r.at],
                    encumbrance=r.burden,
                    total=r.total,
                    place=order.index(r) + 1,
                    of=len(cs),
                    roll_off=faces[r.at],
                ),
            )
            for r in rows
        )

    @staticmethod
    def _combatant(view: View, ref: str, ids: list[UUID]) -> int:
        entry = view.campaign.find(ref.strip())
        if entry.character_id not in ids:
            raise errors.NotACombatant(name=entry.name)
        return ids.index(entry.character_id)
