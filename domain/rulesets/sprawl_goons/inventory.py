"""Inventory: items joining and leaving a character's kit, the uses of consumables, cash, and
a ranged weapon's magazine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import evolve as replace
from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.checks import (
    check_alive,
    check_bulkiness,
    check_pc,
    check_ranged,
    find_item,
)
from domain.rulesets.sprawl_goons.creation import make_item
from domain.rulesets.sprawl_goons.events import (
    CashChanged,
    ItemAcquired,
    ItemBulkinessRuled,
    ItemDropped,
    ItemUsed,
    TempModifierApplied,
    WeaponReloaded,
)
from domain.rulesets.sprawl_goons.lookup import category, character


@frozen(kw_only=True)
class AddItem(Plain):
    """An item joins a character's kit (found, bought, looted), as the referee rules it."""

    name: ClassVar[str] = "item add"
    character: str
    item: str
    category: str
    bonus: int = 1
    uses: int | None = None
    bulky: bool | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_pc(c, "carry items")
        check_alive(c, "pick up items")
        if not self.item.strip():
            raise errors.NameRequired()
        if any(i.name.lower() == self.item.strip().lower() for i in c.items):
            raise errors.ItemAlreadyHeld(name=c.name, item=self.item)
        if self.uses is not None and self.uses < 1:
            raise errors.InvalidAmount(what="uses", value=self.uses)
        item = make_item(
            self.item.strip(),
            category(self.category),
            bonus=self.bonus,
            uses=self.uses,
            bulky=self.bulky,
        )
        return (Change(c.id, ItemAcquired(item=item)),)


@frozen(kw_only=True)
class DropItem(Plain):
    """An item leaves a character's kit (dropped, sold, lost)."""

    name: ClassVar[str] = "item drop"
    character: str
    item: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        return (Change(c.id, ItemDropped(item=find_item(c, self.item).name)),)


@frozen(kw_only=True)
class RuleBulkiness(Plain):
    """The referee rules whether an item is bulky, i.e. counts towards the Inventory Score
    (Inventory); implants never do (Implants/Augmentations)."""

    name: ClassVar[str] = "item bulk"
    character: str
    item: str
    bulky: bool
    reason: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_pc(c, "carry items")
        item = find_item(c, self.item)
        check_bulkiness(c, item, self.bulky)
        ruled = replace(item, bulky=self.bulky)
        kit = tuple(ruled if i is item else i for i in c.items)
        now = replace(c, items=kit)
        event = ItemBulkinessRuled(
            item=item.name,
            bulky=self.bulky,
            reason=self.reason.strip(),
            bulky_items=now.bulky_items,
            encumbrance=now.encumbrance,
        )
        return (Change(c.id, event),)


@frozen(kw_only=True)
class UseItem(Plain):
    """Spend one use of a consumable; a drug such as Hyperdex gives +1 for the scene."""

    name: ClassVar[str] = "use"  # as logged since the first campaigns
    verb: ClassVar[str] = "use-item"  # `campaign use` picks a campaign
    character: str
    item: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_alive(c, "use items")
        item = find_item(c, self.item)
        if item.uses is None:
            raise errors.NotConsumable(item=item.name)
        if item.uses < 1:
            raise errors.NoUsesLeft(item=item.name)
        events: list[Event] = [ItemUsed(item=item.name, before=item.uses, after=item.uses - 1)]
        if item.boost is not None:
            view.campaign.require_scene()
            events.append(TempModifierApplied(stat=item.boost, value=1, source=item.name))
        return tuple(Change(c.id, e) for e in events)


@frozen(kw_only=True)
class ChangeCash(Plain):
    """Cash spent (negative) or gained (positive), for a reason."""

    name: ClassVar[str] = "cash"
    character: str
    delta: int
    reason: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_pc(c, "carry cash")
        if self.delta == 0:
            raise errors.InvalidAmount(what="a change of cash", value=0)
        if c.cash + self.delta < 0:
            raise errors.InsufficientCash(name=c.name, cash=c.cash, amount=-self.delta)
        event = CashChanged(
            delta=self.delta,
            before=c.cash,
            after=c.cash + self.delta,
            reason=self.reason.strip() or "unstated",
        )
        return (Change(c.id, event),)


@frozen(kw_only=True)
class Reload(Plain):
    """A fresh magazine for a ranged weapon (the referee rules whether one is at hand)."""

    name: ClassVar[str] = "reload"
    character: str
    item: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_alive(c, "reload")
        item = find_item(c, self.item)
        check_ranged(item)
        return (Change(c.id, WeaponReloaded(item=item.name)),)
