"""Making characters, NPCs and systems, and keeping their kit: items, uses, cash, magazines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import CharacterJoined, Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.checks import (
    check_alive,
    check_pc,
    check_ranged,
    find_item,
)
from domain.rulesets.sprawl_goons.events import (
    CashChanged,
    CharacterCreated,
    Item,
    ItemAcquired,
    ItemDropped,
    ItemUsed,
    NpcCreated,
    StartingCashRolled,
    Stats,
    TempModifierApplied,
    WeaponReloaded,
)
from domain.rulesets.sprawl_goons.lookup import character, difficulty
from domain.rulesets.sprawl_goons.tables import (
    CATALOGUE_KEYS,
    STARTING_INVENTORY,
    STARTING_ITEMS,
    STARTING_RESILIENCE,
    STAT_POINTS,
    Category,
    Kind,
    Stat,
    catalogued,
    find_category,
    limb_of,
)


def _name(view: View, text: str) -> str:
    name = text.strip()
    if not name:
        raise errors.NameRequired()
    if any(e.name.lower() == name.lower() for e in view.campaign.roster):
        raise errors.NameTaken(name=name)
    return name


def make_item(
    name: str,
    category: Category,
    *,
    bonus: int = 1,
    uses: int | None = None,
    bulky: bool | None = None,
    boost: Stat | None = None,
) -> Item:
    """Implants do not count towards the Inventory; ranged weapons start with a full magazine."""
    return Item(
        name=name,
        category=category,
        bonus=bonus,
        bulky=category is not Category.IMPLANT if bulky is None else bulky,
        uses=uses,
        bursts_fired=0 if category is Category.RANGED else None,
        limb=limb_of(name) if category is Category.IMPLANT else None,
        boost=boost,
    )


def _category(text: str) -> Category:
    found = find_category(text)
    if found is None:
        known = ", ".join(c.value for c in Category)
        raise errors.UnknownCategory(text=text, known=known)
    return found


def _starting_item(pick: str, dice: DiceSource) -> ItemAcquired:
    """A pick from the list: its key or name, ``melee:Katana`` for the ones to specify."""
    kind, _, spec = pick.partition(":")
    entry = catalogued(kind)
    if entry is None:
        raise errors.UnknownStartingItem(text=pick, known=CATALOGUE_KEYS)
    if entry.needs_spec and not spec.strip():
        raise errors.ItemSpecRequired(item=entry.name, key=entry.key)
    name = entry.name
    if entry.needs_spec:
        name = spec.strip() if entry.key != "fake-id" else f"Fake ID ({spec.strip()})"
    faces = tuple(dice.roll(6) for _ in range(entry.uses_dice))
    uses = sum(faces) if faces else entry.uses
    item = make_item(name, entry.category, uses=uses, boost=entry.boost)
    return ItemAcquired(item=item, uses_dice=faces)


def _custom_item(text: str) -> ItemAcquired:
    """A referee-approved item outside the list, written CATEGORY:NAME."""
    kind, _, name = text.partition(":")
    if not name.strip():
        raise errors.ItemSpecRequired(item=text, key=kind or "gear")
    return ItemAcquired(item=make_item(name.strip(), _category(kind)), custom=True)


@frozen
class CreateCharacter(Plain):
    """Name, 4 stat points (zeros allowed), three starting items; then 3d6 x 10 cash and the
    rolled uses of a stolen credit card (2d6) or a blister of Lazarus Patches (d6)."""

    name: ClassVar[str] = "character create"
    character: str
    player: str
    morphology: int
    reaction: int
    cognition: int
    equilibrium: int
    items: tuple[str, ...] = ()
    custom: tuple[str, ...] = ()  # the referee's approval of items outside the list

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        name = _name(view, self.character)
        stats = Stats(
            morphology=self.morphology,
            reaction=self.reaction,
            cognition=self.cognition,
            equilibrium=self.equilibrium,
        )
        for stat in Stat:
            if stats.of(stat) < 0:
                raise errors.NegativeStat(stat=stat.title, value=stats.of(stat))
        total = sum(stats.of(s) for s in Stat)
        if total != STAT_POINTS:
            raise errors.StatPointsMustTotalFour(total=total)
        if len(self.items) + len(self.custom) != STARTING_ITEMS:
            raise errors.StartingItemCountMustBeThree(count=len(self.items) + len(self.custom))
        customs = [_custom_item(text) for text in self.custom]
        cash_dice = tuple(dice.roll(6) for _ in range(3))
        picks = [_starting_item(pick, dice) for pick in self.items]
        cid = view.new_id()
        created = CharacterCreated(
            character_id=cid,
            name=name,
            player=self.player.strip() or name,
            stats=stats,
            resilience=STARTING_RESILIENCE,
            inventory=STARTING_INVENTORY,
            level=1,
        )
        cash = StartingCashRolled(dice=cash_dice, cash=10 * sum(cash_dice))
        own: list[Event] = [created, cash, *picks, *customs]
        joined = CharacterJoined(character_id=cid, name=name, player=created.player)
        return (*(Change(cid, e) for e in own), Change(view.campaign.id, joined))


@frozen
class CreateNpc(Plain):
    """The referee brings in an NPC (its DS is also its Resilience) or a system to hack."""

    name: ClassVar[str] = "npc"
    character: str
    ds: str
    major: bool = False
    armoured: bool = False
    system: bool = False
    neural: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        name = _name(view, self.character)
        cid = view.new_id()
        created = NpcCreated(
            character_id=cid,
            name=name,
            kind=Kind.SYSTEM if self.system else Kind.NPC,
            ds=difficulty(self.ds),
            major=self.major and not self.system,
            armoured=self.armoured and not self.system,
            neural=self.neural and self.system,
        )
        joined = CharacterJoined(character_id=cid, name=name, player=view.campaign.gm)
        return (Change(cid, created), Change(view.campaign.id, joined))


@frozen
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
            _category(self.category),
            bonus=self.bonus,
            uses=self.uses,
            bulky=self.bulky,
        )
        return (Change(c.id, ItemAcquired(item=item)),)


@frozen
class DropItem(Plain):
    """An item leaves a character's kit (dropped, sold, lost)."""

    name: ClassVar[str] = "item drop"
    character: str
    item: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        return (Change(c.id, ItemDropped(item=find_item(c, self.item).name)),)


@frozen
class UseItem(Plain):
    """Spend one use of a consumable; a drug such as Hyperdex gives +1 for the scene."""

    name: ClassVar[str] = "use"
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


@frozen
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


@frozen
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
