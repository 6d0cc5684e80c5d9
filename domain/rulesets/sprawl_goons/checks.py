"""Checks shared by commands (to refuse) and by replay (to find histories that do not fit)."""

from __future__ import annotations

from domain.errors import CharacterDead, NotAPlayerCharacter
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.tables import BURSTS_PER_MAGAZINE, Category, Condition
from domain.rulesets.sprawl_goons.values import Item


def check_alive(c: SgCharacter, what: str = "act") -> None:
    if c.dead:
        raise CharacterDead(name=c.name, what=what, rule="Character Death")


def check_pc(c: SgCharacter, what: str = "make Action Rolls") -> None:
    if not c.is_pc:
        raise NotAPlayerCharacter(name=c.name, what=what, rule="Game Structure")


def check_can_act(c: SgCharacter, what: str = "act") -> None:
    check_pc(c)
    check_alive(c, what)


def find_item(c: SgCharacter, name: str) -> Item:
    item = c.item(name)
    if item is None:
        carried = ", ".join(i.name for i in c.items) or "nothing"
        raise errors.ItemNotOwned(name=c.name, item=name, carried=carried)
    return item


def is_empty(item: Item) -> bool:
    return item.bursts_fired is not None and item.bursts_fired >= BURSTS_PER_MAGAZINE


def check_usable(item: Item) -> None:
    """Slagged armour, a shut-down limb, a used-up consumable and an empty gun add nothing."""
    if item.condition is Condition.SLAGGED:
        raise errors.ItemUnusable(item=item.name, why="slagged")
    if item.condition is Condition.BROKEN:
        raise errors.ItemUnusable(item=item.name, why="broken (shut down)")
    if item.uses is not None and item.uses <= 0:
        raise errors.NoUsesLeft(item=item.name)
    if is_empty(item):
        raise errors.MagazineEmpty(item=item.name)


def check_ranged(item: Item) -> None:
    if item.category is not Category.RANGED or item.bursts_fired is None:
        raise errors.NotARangedWeapon(item=item.name)


def check_armour_intact(item: Item) -> None:
    if item.category is not Category.ARMOUR:
        raise errors.NotArmour(item=item.name)
    if item.condition is not Condition.INTACT:
        raise errors.ArmourAlreadySlagged(item=item.name)


def check_bulkiness(c: SgCharacter, item: Item, bulky: bool) -> None:
    """A ruling on an item's bulk must change it; implants never count (Inventory)."""
    if item.category is Category.IMPLANT:
        raise errors.ImplantNeverBulky(item=item.name)
    if item.bulky == bulky:
        counts = "counts" if bulky else "does not count"
        raise errors.BulkinessUnchanged(item=item.name, counts=counts, name=c.name)
