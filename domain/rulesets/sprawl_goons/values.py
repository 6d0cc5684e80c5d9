"""Values that Sprawl Goons' events carry: stats, items, item bonuses, modifiers, comparisons."""

from __future__ import annotations

from attrs import frozen

from domain.plain import Plain
from domain.rulesets.sprawl_goons.tables import Category, Condition, Location, Stat


@frozen(kw_only=True)
class Stats(Plain):
    morphology: int
    reaction: int
    cognition: int
    equilibrium: int

    def of(self, stat: Stat) -> int:
        value: int = getattr(self, stat.value)
        return value


@frozen(kw_only=True)
class Item(Plain):
    """An item as carried: +``bonus`` when the referee rules it relevant to a roll."""

    name: str
    category: Category
    bonus: int = 1
    bulky: bool = True
    uses: int | None = None  # consumables: uses left
    bursts_fired: int | None = None  # ranged weapons: 0 full .. 3 empty
    condition: Condition = Condition.INTACT
    limb: Location | None = None  # a cybernetic limb
    boost: Stat | None = None  # a drug that gives +1 to a stat while in effect


@frozen(kw_only=True)
class ItemBonus(Plain):
    """One relevant item in a roll: its name and what it added (0 with the reason)."""

    item: str
    bonus: int
    note: str = ""


@frozen(kw_only=True)
class Modifier(Plain):
    """A situational bonus or penalty, or a damage bonus, with where it came from."""

    source: str
    value: int


@frozen(kw_only=True)
class Against(Plain):
    """One comparison of a roll's total with a target's DS."""

    target: str
    ds: int
    margin: int
    success: bool
