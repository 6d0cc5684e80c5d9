"""A Sprawl Goons character's state: a PC, an NPC (whose DS is its Resilience) or a system."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.plain import Plain
from domain.rulesets.sprawl_goons.tables import ENCUMBERED_STATS, Category, Kind, Location, Stat
from domain.rulesets.sprawl_goons.values import Item, Stats

NO_STATS = Stats(morphology=0, reaction=0, cognition=0, equilibrium=0)


@frozen(kw_only=True)
class Injury(Plain):
    number: int
    band: int
    effect: str
    location: Location
    treated: bool = False
    negated_by: str | None = None  # slagged armour or a cybernetic limb that took it

    @property
    def open(self) -> bool:
        """Untreated and not negated: forces the Glitch dice and the +3 on the next one."""
        return not self.treated and self.negated_by is None


@frozen(kw_only=True)
class Boost(Plain):
    stat: Stat
    value: int
    source: str


@frozen(kw_only=True)
class Aim(Plain):
    target: str
    rounds: int


@frozen(kw_only=True)
class Fire(Plain):
    damage: int
    rounds_left: int


@frozen(kw_only=True)
class SgCharacter(Plain):
    id: UUID
    name: str
    player: str
    kind: Kind = Kind.PC
    stats: Stats = NO_STATS
    resilience: int = 0  # an NPC's or a system's current DS
    resilience_max: int = 0  # an NPC's or a system's starting DS
    inventory: int = 0
    level: int = 1
    levels_due: int = 0
    cash: int = 0
    items: tuple[Item, ...] = ()
    injuries: tuple[Injury, ...] = ()
    death_clock: int | None = None  # round ends left; None when not dying
    dying_from: int | None = None  # the injury that started the clock
    dead: bool = False
    major: bool = False
    armoured: bool = False
    neural: bool = False
    breached: bool = False
    boosts: tuple[Boost, ...] = ()
    aim: Aim | None = None
    fire: Fire | None = None
    initiative: int | None = None
    initiative_place: int | None = None  # 1 goes first (ties settled as SG-A10 says)
    round: int = 0
    first_aid_scene: int | None = None

    @property
    def is_pc(self) -> bool:
        return self.kind is Kind.PC

    @property
    def must_glitch(self) -> bool:
        """An untreated critical injury forces the Glitch dice on every Action Roll."""
        return any(i.open for i in self.injuries)

    @property
    def criticals_taken(self) -> int:
        """Critical injuries that count as taken (not negated by armour or a cyber limb)."""
        return sum(1 for i in self.injuries if i.negated_by is None)

    def stat(self, stat: Stat) -> int:
        return self.stats.of(stat)

    def item(self, name: str) -> Item | None:
        """The item named (case does not matter), or the only one whose name contains it."""
        wanted = name.strip().lower()
        exact = [i for i in self.items if i.name.lower() == wanted]
        if exact:
            return exact[0]
        partial = [i for i in self.items if wanted and wanted in i.name.lower()]
        return partial[0] if len(partial) == 1 else None

    @property
    def bulky_items(self) -> int:
        """Implants are interfaced with the body and do not count (Implants/Augmentations)."""
        return sum(1 for i in self.items if i.bulky and i.category is not Category.IMPLANT)

    @property
    def encumbrance(self) -> int:
        return max(0, self.bulky_items - self.inventory)

    def penalty(self, stat: Stat) -> int:
        return self.encumbrance if stat in ENCUMBERED_STATS else 0

    def boost(self, stat: Stat) -> tuple[Boost, ...]:
        return tuple(b for b in self.boosts if b.stat is stat)

    def injury(self, number: int) -> Injury | None:
        return next((i for i in self.injuries if i.number == number), None)
