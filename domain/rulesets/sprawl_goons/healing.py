"""Healing: first aid from an ally, 8 hours' rest, Lazarus Patches, and the medical attention
that critical injuries need."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.checks import check_alive, check_can_act, check_pc, check_usable
from domain.rulesets.sprawl_goons.events import (
    FirstAidReceived,
    ItemUsed,
    MedicalAttentionReceived,
    ResilienceRestored,
)
from domain.rulesets.sprawl_goons.lookup import character, difficulty, modifiers, settings
from domain.rulesets.sprawl_goons.rolls import RollSpec, action_roll
from domain.rulesets.sprawl_goons.settings import FirstAidLimit
from domain.rulesets.sprawl_goons.tables import (
    FIRST_AID_DS,
    FIRST_AID_HEAL,
    LAZARUS_HEAL,
    REST_HOURS,
    Purpose,
    Stat,
)


@frozen(kw_only=True)
class GiveFirstAid(Plain):
    """An allied character with a first aid kit makes a Cognition roll (DS the referee's call,
    default Moderate 10); success gains the patient 2 Resilience (Healing). A patient who has
    lost no Resilience is refused: there is nothing for first aid to gain."""

    name: ClassVar[str] = "first aid"
    verb: ClassVar[str] = "first-aid"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    healer: str
    patient: str
    kit: str | None = None
    ds: str = str(FIRST_AID_DS)
    items: tuple[str, ...] = ()
    bonuses: tuple[str, ...] = ()
    glitch: bool = False
    upgrade: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        scene = view.campaign.require_scene()
        h = character(view, self.healer)
        check_can_act(h)
        p = character(view, self.patient)
        if p.id == h.id:
            raise errors.HealerMustBeAlly()
        check_pc(p, "receive first aid")
        check_alive(p, "receive first aid")
        if p.resilience >= p.resilience_max:
            raise errors.PatientUnhurt(
                name=p.name, resilience=p.resilience, maximum=p.resilience_max
            )
        if self.kit is None:
            raise errors.FirstAidKitRequired(why=f"name the kit {h.name} uses")
        kit = h.item(self.kit)
        if kit is None:
            raise errors.FirstAidKitRequired(why=f"{h.name} carries no {self.kit!r}")
        check_usable(kit)
        rules = settings(view)
        limited = rules.first_aid_limit is FirstAidLimit.ONCE_PER_PATIENT_PER_SCENE
        if limited and p.first_aid_scene == scene:
            raise errors.FirstAidAlreadyGiven(name=p.name)
        spec = RollSpec(
            purpose=Purpose.FIRST_AID,
            stat=Stat.COGNITION,
            ds=difficulty(self.ds),
            target=p.name,
            items=self.items,
            modifiers=modifiers(self.bonuses),
            glitch=self.glitch,
            upgrade=self.upgrade,
        )
        rolled = action_roll(h, spec, rules, dice)
        theirs: list[Event] = [FirstAidReceived(healer=h.name, scene=scene, success=rolled.success)]
        if rolled.success:
            theirs.append(
                ResilienceRestored(
                    amount=FIRST_AID_HEAL,
                    cause="first aid",
                    before=p.resilience,
                    after=min(p.resilience_max, p.resilience + FIRST_AID_HEAL),
                )
            )
        return (Change(h.id, rolled), *(Change(p.id, e) for e in theirs))


@frozen(kw_only=True)
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


@frozen(kw_only=True)
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


@frozen(kw_only=True)
class GiveMedicalAttention(Plain):
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
