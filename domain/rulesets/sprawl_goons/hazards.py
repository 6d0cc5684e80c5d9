"""Harm without an attack roll: planted explosives, falls, fire, and the end of a combat round
(fire burns, the dying die)."""

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
from domain.rulesets.sprawl_goons.checks import check_alive
from domain.rulesets.sprawl_goons.events import (
    CharacterDied,
    DeathClockTicked,
    FireBurned,
    FireExtinguished,
    RoundEnded,
    SetOnFire,
)
from domain.rulesets.sprawl_goons.lookup import after, character, roster, settings
from domain.rulesets.sprawl_goons.rolls import damage
from domain.rulesets.sprawl_goons.tables import (
    EXPLOSIVE_DICE,
    MAX_FIRE_ROUNDS,
    METRES_PER_DAMAGE,
    Cause,
    Kind,
)


def _victim(view: View, ref: str, what: str) -> SgCharacter:
    c = character(view, ref)
    if c.kind is Kind.SYSTEM:
        raise errors.WrongTarget(name=c.name, kind="system", what=what)
    check_alive(c, f"be {what}")
    return c


@frozen(kw_only=True)
class Detonate(Plain):
    """Planted explosives do 2d6 to 3d6 by type (the referee's call) to everyone in the blast,
    with no Action Roll (Special Rules)."""

    name: ClassVar[str] = "explode"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    dice_count: int
    targets: tuple[str, ...]
    what: str = "planted explosive"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        if self.dice_count not in EXPLOSIVE_DICE:
            raise errors.UnknownExplosiveType(count=self.dice_count)
        if not self.targets:
            raise errors.TargetRequired(what="an explosion")
        victims = [_victim(view, ref, "caught in the blast") for ref in self.targets]
        for index, v in enumerate(victims):
            if any(other.id == v.id for other in victims[:index]):
                raise errors.DuplicateTarget(name=v.name)
        rules = settings(view)
        faces = tuple(dice.roll(6) for _ in range(self.dice_count))
        changes: list[Change] = []
        for v in victims:
            hit = damage(
                v,
                amount=sum(faces),
                cause=Cause.EXPLOSIVE,
                source=self.what.strip() or "planted explosive",
                faces=faces,
                rules=rules,
                dice=dice,
            )
            changes += [Change(v.id, e) for e in hit]
        return changes


@frozen(kw_only=True)
class Fall(Plain):
    """1 point of damage for every 3 metres fallen, rounded up (Special Rules)."""

    name: ClassVar[str] = "fall"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    metres: int

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        if self.metres <= 0:
            raise errors.InvalidDistance(metres=self.metres)
        c = _victim(view, self.character, "hurt by a fall")
        amount = -(-self.metres // METRES_PER_DAMAGE)
        hit = damage(
            c,
            amount=amount,
            cause=Cause.FALLING,
            source=f"a {self.metres} m fall",
            rules=settings(view),
            dice=dice,
        )
        return tuple(Change(c.id, e) for e in hit)


@frozen(kw_only=True)
class Ignite(Plain):
    """Fire inflicts repeat damage for up to 3 rounds: 'damage' at each round's end (SG-A13)."""

    name: ClassVar[str] = "ignite"
    character: str
    damage: int
    rounds: int = MAX_FIRE_ROUNDS

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        if not 1 <= self.rounds <= MAX_FIRE_ROUNDS:
            raise errors.FireRoundsOutOfRange(rounds=self.rounds)
        if self.damage < 1:
            raise errors.InvalidAmount(what="fire damage", value=self.damage)
        c = _victim(view, self.character, "set on fire")
        return (Change(c.id, SetOnFire(damage=self.damage, rounds=self.rounds)),)


@frozen(kw_only=True)
class Extinguish(Plain):
    """The fire on a character is put out."""

    name: ClassVar[str] = "extinguish"
    character: str
    reason: str = "put out"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        if c.fire is None:
            raise errors.NotOnFire(name=c.name)
        return (Change(c.id, FireExtinguished(reason=self.reason.strip() or "put out")),)


def in_combat(view: View) -> list[SgCharacter]:
    """The living the scene's fight holds (rolled initiative, dying, burning); refused when
    there is no fight."""
    view.campaign.require_scene()
    involved = [
        c
        for c in roster(view)
        if not c.dead
        and (c.initiative is not None or c.death_clock is not None or c.fire is not None)
    ]
    if not involved:
        raise errors.NoCombat()
    return involved


@frozen(kw_only=True)
class EndRound(Plain):
    """A combat round ends: the dying come one round closer to death (7+: death in 1 round),
    and fire burns those it holds."""

    name: ClassVar[str] = "round"
    rolls: ClassVar[bool] = True  # its decide may draw dice

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        involved = in_combat(view)
        rules = settings(view)
        number = max(c.round for c in involved) + 1
        changes: list[Change] = []
        for c in involved:
            events: list[Event] = [RoundEnded(number=number)]
            if c.death_clock is not None:
                left = c.death_clock - 1
                events.append(
                    DeathClockTicked(rounds_left=left)
                    if left
                    else CharacterDied(cause="a 7+ critical injury: death in 1 round")
                )
            if c.fire is not None and not after(c, events).dead:
                events.append(FireBurned(rounds_left=c.fire.rounds_left - 1))
                events += damage(
                    after(c, events),
                    amount=c.fire.damage,
                    cause=Cause.FIRE,
                    source="fire",
                    rules=rules,
                    dice=dice,
                )
            changes += [Change(c.id, e) for e in events]
        return changes
