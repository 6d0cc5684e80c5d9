"""Critical injuries negated or mended without a doctor: slagged armour, a cybernetic limb that
shuts down instead, and the tech who repairs it (Special Rules, Body Locations)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.character import Injury, SgCharacter
from domain.rulesets.sprawl_goons.checks import check_alive, check_armour_intact, find_item
from domain.rulesets.sprawl_goons.events import ArmourSlagged, CyberLimbDisabled, CyberLimbRepaired
from domain.rulesets.sprawl_goons.lookup import character
from domain.rulesets.sprawl_goons.tables import Condition


def _injury(c: SgCharacter, number: int | None) -> Injury:
    """The critical injury named, or the latest one not negated yet."""
    candidates = [i for i in c.injuries if i.negated_by is None and not i.treated]
    if number is not None:
        candidates = [i for i in candidates if i.number == number]
    if not candidates:
        what = "is not negated or treated" if number is None else f"is numbered {number} and open"
        raise errors.NoCriticalInjury(name=c.name, what=what)
    return candidates[-1]


@frozen(kw_only=True)
class SlagArmour(Plain):
    """Armour can be slagged to negate a critical injury once; then it is useless and cannot
    be repaired (Special Rules). Chosen after the injury is rolled (SG-A6)."""

    name: ClassVar[str] = "slag"
    character: str
    armour: str
    injury: int | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_alive(c, "slag armour")
        item = find_item(c, self.armour)
        check_armour_intact(item)
        injury = _injury(c, self.injury)
        return (Change(c.id, ArmourSlagged(item=item.name, injury=injury.number)),)


@frozen(kw_only=True)
class DisableCyberLimb(Plain):
    """A critical injury to an arm or leg that is cybernetic: the limb shuts down instead."""

    name: ClassVar[str] = "limb down"
    verb: ClassVar[str] = "limb-down"
    character: str
    limb: str
    injury: int | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_alive(c, "lose a limb")
        item = find_item(c, self.limb)
        if item.limb is None or item.condition is not Condition.INTACT:
            raise errors.NotACyberLimb(item=item.name)
        injury = _injury(c, self.injury)
        if injury.location is not item.limb:
            raise errors.WrongLimb(injury=injury.number, location=injury.location, limb=item.limb)
        return (Change(c.id, CyberLimbDisabled(item=item.name, injury=injury.number)),)


@frozen(kw_only=True)
class RepairCyberLimb(Plain):
    """A competent tech repairs a cybernetic limb that shut down."""

    name: ClassVar[str] = "repair"
    character: str
    limb: str
    tech: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        item = find_item(c, self.limb)
        if item.limb is None:
            raise errors.NotACyberLimb(item=item.name)
        if item.condition is not Condition.BROKEN:
            raise errors.LimbWorking(item=item.name)
        tech = self.tech.strip() or "a tech"
        return (Change(c.id, CyberLimbRepaired(item=item.name, tech=tech)),)
