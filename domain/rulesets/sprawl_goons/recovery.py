"""After the damage: slagging armour, cybernetic limbs, healing, medical attention, and
advancement at the end of a mission."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.character import Injury, SgCharacter
from domain.rulesets.sprawl_goons.checks import (
    check_alive,
    check_armour_intact,
    check_can_act,
    check_pc,
    find_item,
)
from domain.rulesets.sprawl_goons.events import (
    ArmourSlagged,
    CyberLimbDisabled,
    CyberLimbRepaired,
    ItemUsed,
    LevelGained,
    MedicalAttentionReceived,
    MissionCompleted,
    ResilienceRestored,
)
from domain.rulesets.sprawl_goons.lookup import character, roster, stat
from domain.rulesets.sprawl_goons.tables import (
    LAZARUS_HEAL,
    REST_HOURS,
    Condition,
    Secondary,
)


def _injury(c: SgCharacter, number: int | None) -> Injury:
    """The critical injury named, or the latest one not negated yet."""
    candidates = [i for i in c.injuries if i.negated_by is None and not i.treated]
    if number is not None:
        candidates = [i for i in candidates if i.number == number]
    if not candidates:
        what = "is not negated or treated" if number is None else f"is numbered {number} and open"
        raise errors.NoCriticalInjury(name=c.name, what=what)
    return candidates[-1]


@frozen
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


@frozen
class DisableCyberLimb(Plain):
    """A critical injury to an arm or leg that is cybernetic: the limb shuts down instead."""

    name: ClassVar[str] = "limb down"
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


@frozen
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


@frozen
class Rest(Plain):
    """8 hours' rest in a safe area restores all lost Resilience; critical injuries stay."""

    name: ClassVar[str] = "rest"
    characters: tuple[str, ...]
    hours: int = REST_HOURS
    safe: bool = True

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        if self.hours < REST_HOURS:
            raise errors.RestTooShort(hours=self.hours)
        if not self.safe:
            raise errors.AreaNotSafe()
        if not self.characters:
            raise errors.TargetRequired(what="resting")
        changes = []
        for ref in self.characters:
            c = character(view, ref)
            check_pc(c, "rest to heal")
            check_alive(c, "rest")
            restored = ResilienceRestored(
                amount=c.resilience_max - c.resilience,
                cause=f"{self.hours} hours' rest",
                before=c.resilience,
                after=c.resilience_max,
            )
            changes.append(Change(c.id, restored))
        return changes


@frozen
class ApplyPatch(Plain):
    """A Lazarus Patch: +3 Resilience at once, up to the maximum (Healing)."""

    name: ClassVar[str] = "patch"
    character: str
    patient: str | None = None
    item: str = "Lazarus"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_alive(c, "apply a patch")
        patches = c.item(self.item)
        if patches is None or not patches.uses:
            raise errors.NoPatchesLeft(name=c.name)
        p = c if self.patient is None else character(view, self.patient)
        check_pc(p, "heal with Lazarus Patches")
        check_alive(p, "be patched up")
        used = patches.uses
        restored = ResilienceRestored(
            amount=LAZARUS_HEAL,
            cause="a Lazarus Patch",
            before=p.resilience,
            after=min(p.resilience_max, p.resilience + LAZARUS_HEAL),
        )
        return (
            Change(c.id, ItemUsed(item=patches.name, before=used, after=used - 1)),
            Change(p.id, restored),
        )


@frozen
class MedicalAttention(Plain):
    """A medical professional with the right equipment treats every untreated critical injury:
    the Glitch dice stop, and a death clock stops (SG-A17)."""

    name: ClassVar[str] = "medical"
    character: str
    provider: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_alive(c, "be treated")
        treated = tuple(i.number for i in c.injuries if i.open)
        if not treated:
            raise errors.NothingToTreat(name=c.name)
        provider = self.provider.strip() or "a medical professional"
        return (Change(c.id, MedicalAttentionReceived(provider=provider, treated=treated)),)


@frozen
class CompleteMission(Plain):
    """The mission ends: each living player character has a level to take (Advancement)."""

    name: ClassVar[str] = "mission complete"
    mission: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        pcs = [c for c in roster(view) if c.is_pc and not c.dead]
        if not pcs:
            raise errors.NoPlayerCharacters()
        mission = self.mission.strip() or "the mission"
        return tuple(Change(c.id, MissionCompleted(mission=mission)) for c in pcs)


@frozen
class LevelUp(Plain):
    """Take a level: raise a stat by 1, and Resilience or Inventory Score by 1."""

    name: ClassVar[str] = "level up"
    character: str
    stat: str
    secondary: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_can_act(c, "level up")
        raised = stat(self.stat)
        try:
            secondary = Secondary(self.secondary.strip().lower())
        except ValueError:
            raise errors.UnknownSecondary(text=self.secondary) from None
        if c.levels_due < 1:
            raise errors.NoLevelDue(name=c.name)
        value = c.resilience_max if secondary is Secondary.RESILIENCE else c.inventory
        gained = LevelGained(
            level=c.level + 1,
            stat=raised,
            stat_value=c.stat(raised) + 1,
            secondary=secondary,
            secondary_value=value + 1,
        )
        return (Change(c.id, gained),)
