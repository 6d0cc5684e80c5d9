"""Character Creation and Starting Items: making PCs with their kit and cash, and the referee's
NPCs and systems."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import NameTaken
from domain.events import CharacterJoined, Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.events import (
    CharacterCreated,
    Item,
    ItemAcquired,
    NpcCreated,
    StartingCashRolled,
    Stats,
)
from domain.rulesets.sprawl_goons.lookup import category, difficulty
from domain.rulesets.sprawl_goons.tables import (
    CATALOGUE_KEYS,
    STARTING_CASH_DICE,
    STARTING_CASH_PER_PIP,
    STARTING_INVENTORY,
    STARTING_ITEMS,
    STARTING_RESILIENCE,
    STAT_POINTS,
    Category,
    Kind,
    Stat,
    catalogued,
    limb_of,
)
from domain.seats import seated_players


def _name(view: View, text: str) -> str:
    name = text.strip()
    if not name:
        raise errors.NameRequired()
    if any(e.name.lower() == name.lower() for e in view.campaign.roster):
        raise NameTaken(name=name, rule="Character Creation")
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
    return ItemAcquired(item=make_item(name.strip(), category(kind)), custom=True)


@frozen(kw_only=True)
class CreateCharacter(Plain):
    """Name, 4 stat points (zeros allowed), three starting items; then 3d6 x 10 cash and the
    rolled uses of a stolen credit card (2d6) or a blister of Lazarus Patches (d6), the dice
    drawn in that order (the three cash dice first, then the uses in item order)."""

    name: ClassVar[str] = "character create"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    player: str
    morphology: int
    reaction: int
    cognition: int
    equilibrium: int
    items: tuple[str, ...] = ()
    custom: tuple[str, ...] = ()  # the referee's approval of items outside the list
    seat_player: bool = False  # seat a player who has none (``domain.seats.seated_players``)

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
        cash_dice = tuple(dice.roll(6) for _ in range(STARTING_CASH_DICE))
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
        cash = StartingCashRolled(dice=cash_dice, cash=STARTING_CASH_PER_PIP * sum(cash_dice))
        own: list[Event] = [created, cash, *picks, *customs]
        joined = CharacterJoined(character_id=cid, name=name, player=created.player)
        changes = (*(Change(cid, e) for e in own), Change(view.campaign.id, joined))
        return seated_players(view.campaign, changes) if self.seat_player else changes


@frozen(kw_only=True)
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
