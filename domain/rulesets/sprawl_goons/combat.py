"""Combat: the Dangerous Action Roll as an attack (full auto, bursts, aiming, shotguns,
monofilament), grenades and aiming (Special Rules)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.checks import check_can_act, check_ranged, check_usable, find_item
from domain.rulesets.sprawl_goons.events import (
    AimTaken,
    BurstFired,
    ItemUsed,
    MagazineEmptied,
    Modifier,
)
from domain.rulesets.sprawl_goons.lookup import after, character, modifiers, settings, stat, target
from domain.rulesets.sprawl_goons.rolls import RollSpec, action_roll, comparisons, damage
from domain.rulesets.sprawl_goons.settings import ShotgunFailureDamage
from domain.rulesets.sprawl_goons.tables import (
    BURST_BONUS,
    ENCLOSED_GRENADE_DAMAGE,
    FULL_AUTO_BONUS,
    GRENADE_DS,
    MAX_AIM_ROUNDS,
    MAX_SHOTGUN_TARGETS,
    MONOFILAMENT_DAMAGE,
    SHOTGUN_DAMAGE,
    Category,
    Cause,
    Condition,
    Purpose,
    ShotgunRange,
    Stat,
)


def _targets(view: View, refs: Sequence[str], c: SgCharacter, what: str) -> list[SgCharacter]:
    if not refs:
        raise errors.TargetRequired(what=what)
    found = [target(view, ref, c, what) for ref in refs]
    for index, t in enumerate(found):
        if any(other.id == t.id for other in found[:index]):
            raise errors.DuplicateTarget(name=t.name)
    return found


def _armoured(t: SgCharacter) -> bool:
    if not t.is_pc:
        return t.armoured
    return any(i.category is Category.ARMOUR and i.condition is Condition.INTACT for i in t.items)


def _shotgun(text: str | None) -> ShotgunRange | None:
    if text is None:
        return None
    try:
        return ShotgunRange(text.strip().lower())
    except ValueError:
        raise errors.UnknownShotgunRange(text=text) from None


@frozen(kw_only=True)
class Attack(Plain):
    """A dangerous Action Roll against a target's DS: the margin is damage to the target, a
    shortfall is damage to the attacker (Dangerous Action Roll, Special Rules)."""

    name: ClassVar[str] = "attack"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    targets: tuple[str, ...]
    stat: str
    items: tuple[str, ...] = ()
    bonuses: tuple[str, ...] = ()
    damage_bonuses: tuple[str, ...] = ()
    glitch: bool = False
    upgrade: bool = False
    full_auto: str | None = None
    burst: str | None = None
    shotgun: str | None = None
    mono: bool = False
    vs_mono: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        check_can_act(c)
        rules = settings(view)
        rng = _shotgun(self.shotgun)
        if len(self.targets) > 1 and rng is not ShotgunRange.RANGE:
            raise errors.OneTargetOnly(count=len(self.targets))
        if len(self.targets) > MAX_SHOTGUN_TARGETS:
            raise errors.TooManyTargets(count=len(self.targets))
        ts = _targets(view, self.targets, c, "attacked")
        mods = list(modifiers(self.bonuses))
        if c.aim is not None and c.aim.target == ts[0].name:
            mods.append(Modifier(source=f"aimed {c.aim.rounds} round(s)", value=c.aim.rounds))
        weapon: list[Event] = self._fire(c, mods)
        spec = RollSpec(
            purpose=Purpose.ATTACK,
            stat=stat(self.stat),
            ds=ts[0].resilience,
            target=ts[0].name,
            others=tuple((t.name, t.resilience) for t in ts[1:]),
            dangerous=True,
            items=self.items,
            modifiers=tuple(mods),
            glitch=self.glitch,
            upgrade=self.upgrade,
            vs_mono=self.vs_mono,
        )
        rolled = action_roll(c, spec, rules, dice)
        mine: list[Event] = [rolled, *weapon]
        theirs: list[Change] = []
        shortfalls: list[tuple[str, int]] = []
        extra = modifiers(self.damage_bonuses)
        for t, against in zip(ts, comparisons(rolled), strict=True):
            if not against.success:
                shortfalls.append((t.name, -against.margin))
                continue
            bonuses = list(extra)
            if rng is not None and SHOTGUN_DAMAGE[rng]:
                bonuses.insert(0, Modifier(source=f"shotgun {rng}", value=SHOTGUN_DAMAGE[rng]))
            if self.mono and not _armoured(t):
                mono = Modifier(source="monofilament, unarmoured", value=MONOFILAMENT_DAMAGE)
                bonuses.append(mono)
            hit = damage(
                t,
                amount=against.margin + sum(b.value for b in bonuses),
                cause=Cause.HIT,
                source=c.name,
                base=against.margin,
                bonuses=tuple(bonuses),
                rules=rules,
                dice=dice,
            )
            theirs += [Change(t.id, e) for e in hit]
        if shortfalls and rules.shotgun_failure_damage is ShotgunFailureDamage.MAX_SHORTFALL_ONCE:
            shortfalls = [max(shortfalls, key=lambda pair: pair[1])]
        for source, amount in shortfalls:
            mine += damage(
                after(c, mine),
                amount=amount,
                cause=Cause.FAILED_ROLL,
                source=source,
                rules=rules,
                dice=dice,
            )
        return (*(Change(c.id, e) for e in mine), *theirs)

    def _fire(self, c: SgCharacter, mods: list[Modifier]) -> list[Event]:
        """Full auto: +4 and the magazine is empty; a burst: +2, the third empties it."""
        if self.full_auto is not None and self.burst is not None:
            raise errors.OneFireMode()
        name = self.full_auto or self.burst
        if name is None:
            return []
        w = find_item(c, name)
        check_ranged(w)
        check_usable(w)
        if self.full_auto is not None:
            mods.append(Modifier(source=f"full auto ({w.name})", value=FULL_AUTO_BONUS))
            return [MagazineEmptied(item=w.name)]
        mods.append(Modifier(source=f"burst fire ({w.name})", value=BURST_BONUS))
        return [BurstFired(item=w.name, bursts=(w.bursts_fired or 0) + 1)]


@frozen(kw_only=True)
class ThrowGrenade(Plain):
    """A Moderate (10) Reaction roll; on success each target in the blast takes the margin,
    +3 in an enclosed space (SG-A12). A miss hurts nobody unless the referee rules a fumble."""

    name: ClassVar[str] = "grenade"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    targets: tuple[str, ...]
    enclosed: bool = False
    grenade: str | None = None
    items: tuple[str, ...] = ()
    bonuses: tuple[str, ...] = ()
    glitch: bool = False
    upgrade: bool = False
    fumble: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        check_can_act(c)
        rules = settings(view)
        ts = _targets(view, self.targets, c, "caught in the blast")
        spent: list[Event] = []
        if self.grenade is not None:
            g = find_item(c, self.grenade)
            if g.uses is None:
                raise errors.NotConsumable(item=g.name)
            check_usable(g)
            spent.append(ItemUsed(item=g.name, before=g.uses, after=g.uses - 1))
        spec = RollSpec(
            purpose=Purpose.GRENADE,
            stat=Stat.REACTION,
            ds=GRENADE_DS,
            target=", ".join(t.name for t in ts),
            dangerous=self.fumble,
            items=self.items,
            modifiers=modifiers(self.bonuses),
            glitch=self.glitch,
            upgrade=self.upgrade,
        )
        rolled = action_roll(c, spec, rules, dice)
        mine: list[Event] = [rolled, *spent]
        theirs: list[Change] = []
        if rolled.success:
            bonuses = (
                (Modifier(source="enclosed space", value=ENCLOSED_GRENADE_DAMAGE),)
                if self.enclosed
                else ()
            )
            for t in ts:
                hit = damage(
                    t,
                    amount=rolled.margin + sum(b.value for b in bonuses),
                    cause=Cause.GRENADE,
                    source=c.name,
                    base=rolled.margin,
                    bonuses=bonuses,
                    rules=rules,
                    dice=dice,
                )
                theirs += [Change(t.id, e) for e in hit]
        elif self.fumble:
            mine += damage(
                after(c, mine),
                amount=-rolled.margin,
                cause=Cause.GRENADE,
                source="own grenade (fumbled)",
                rules=rules,
                dice=dice,
            )
        return (*(Change(c.id, e) for e in mine), *theirs)


@frozen(kw_only=True)
class TakeAim(Plain):
    """A round spent scoping a target: +1 to the next attack on it per round, at most 3."""

    name: ClassVar[str] = "aim"
    character: str
    target: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        check_can_act(c)
        t = target(view, self.target, c, "aimed at")
        before = c.aim.rounds if c.aim is not None and c.aim.target == t.name else 0
        if before >= MAX_AIM_ROUNDS:
            raise errors.AimLimitReached(name=c.name, target=t.name)
        return (Change(c.id, AimTaken(target=t.name, rounds=before + 1)),)
