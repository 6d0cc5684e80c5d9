"""Sprawl Goons' events, recorded on a character's stream (a PC, an NPC or a hackable system)."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.events import Event
from domain.rulesets.sprawl_goons.tables import (
    Cause,
    DiceMode,
    Kind,
    Location,
    Purpose,
    Secondary,
    Stat,
)
from domain.rulesets.sprawl_goons.values import Against as Against
from domain.rulesets.sprawl_goons.values import Item as Item
from domain.rulesets.sprawl_goons.values import ItemBonus as ItemBonus
from domain.rulesets.sprawl_goons.values import Modifier as Modifier
from domain.rulesets.sprawl_goons.values import Stats as Stats

# --- Characters and items --------------------------------------------------------------------


@frozen(kw_only=True)
class CharacterCreated(Event):
    """A player character was made: name, stats, Resilience 12, Inventory Score 10, level 1."""

    character_id: UUID
    name: str
    player: str
    stats: Stats
    resilience: int
    inventory: int
    level: int


@frozen(kw_only=True)
class NpcCreated(Event):
    """The referee brought in an NPC or a system; its DS is also its Resilience."""

    character_id: UUID
    name: str
    kind: Kind
    ds: int
    major: bool = False
    armoured: bool = False
    neural: bool = False


@frozen(kw_only=True)
class StartingCashRolled(Event):
    """3d6 x 10 starting cash."""

    dice: tuple[int, ...]
    cash: int


@frozen(kw_only=True)
class ItemAcquired(Event):
    """An item joined the character's kit (``uses_dice``: the d6 rolled for its uses)."""

    item: Item
    uses_dice: tuple[int, ...] = ()
    custom: bool = False


@frozen(kw_only=True)
class ItemDropped(Event):
    """An item left the character's kit."""

    item: str


@frozen(kw_only=True)
class ItemUsed(Event):
    """One use of a consumable was spent."""

    item: str
    before: int
    after: int


@frozen(kw_only=True)
class ItemBulkinessRuled(Event):
    """The referee ruled whether an item is bulky (counts towards the Inventory Score)."""

    item: str
    bulky: bool
    reason: str
    bulky_items: int
    encumbrance: int


@frozen(kw_only=True)
class TempModifierApplied(Event):
    """A drug took effect: +value to a stat until the scene ends."""

    stat: Stat
    value: int
    source: str


@frozen(kw_only=True)
class CashChanged(Event):
    """Cash was spent or gained."""

    delta: int
    before: int
    after: int
    reason: str


@frozen(kw_only=True)
class WeaponReloaded(Event):
    """A ranged weapon got a full magazine."""

    item: str


@frozen(kw_only=True)
class MagazineEmptied(Event):
    """Full auto emptied the weapon's magazine."""

    item: str


@frozen(kw_only=True)
class BurstFired(Event):
    """A burst was fired: ``bursts`` fired from this magazine (the third empties it)."""

    item: str
    bursts: int


# --- Rolls -----------------------------------------------------------------------------------


@frozen(kw_only=True)
class ActionRolled(Event):
    """An Action Roll with its whole breakdown: 2d6 (or 3d6 keeping two), stat, items,
    modifiers, encumbrance, total, DS, margin and outcome."""

    purpose: Purpose
    stat: Stat
    stat_value: int
    items: tuple[ItemBonus, ...]
    modifiers: tuple[Modifier, ...]
    encumbrance: int
    mode: DiceMode
    called: tuple[DiceMode, ...]
    forced_glitch: bool
    dice: tuple[int, ...]
    kept: tuple[int, ...]
    total: int
    ds: int
    target: str | None
    margin: int
    success: bool
    dangerous: bool
    others: tuple[Against, ...] = ()


@frozen(kw_only=True)
class AimTaken(Event):
    """A round spent scoping a target: +1 per round, at most 3."""

    target: str
    rounds: int


@frozen(kw_only=True)
class InitiativeRolled(Event):
    """d6 + Reaction + 1 per relevant augment or drug (+ the referee's modifier for NPCs)."""

    die: int
    reaction: int
    items: tuple[ItemBonus, ...]
    modifier: int
    encumbrance: int
    total: int
    place: int
    of: int
    roll_off: tuple[int, ...] = ()  # the d6 of a tie's roll-off, round by round (SG-A10)


@frozen(kw_only=True)
class RoundEnded(Event):
    """A combat round ended for this combatant."""

    number: int


@frozen(kw_only=True)
class SceneEffectsCleared(Event):
    """The scene ended: temporary boosts, aim, fire and the combat order are gone."""

    what: tuple[str, ...]


# --- Damage, critical injuries and death -----------------------------------------------------


@frozen(kw_only=True)
class ResilienceLost(Event):
    """Damage taken (an NPC's or a system's DS goes down the same way)."""

    amount: int
    cause: Cause
    source: str
    base: int
    bonuses: tuple[Modifier, ...]
    dice: tuple[int, ...] = ()
    before: int
    after: int


@frozen(kw_only=True)
class CriticalInjuryRolled(Event):
    """The referee rolled a d6 for severity (+3 after an earlier one) and a d6 for location."""

    number: int
    severity_die: int
    modifier: int
    total: int
    band: int
    effect: str
    location_die: int
    location: Location


@frozen(kw_only=True)
class DeathClockStarted(Event):
    """A 7+ critical injury: death at the end of the next round."""

    injury: int


@frozen(kw_only=True)
class DeathClockTicked(Event):
    """A round ended with the character dying: one more round end and they are dead."""

    rounds_left: int


@frozen(kw_only=True)
class CharacterDied(Event):
    """The character is dead."""

    cause: str


@frozen(kw_only=True)
class ArmourSlagged(Event):
    """Armour negated a critical injury and is slagged: useless, and it cannot be repaired."""

    item: str
    injury: int


@frozen(kw_only=True)
class CyberLimbDisabled(Event):
    """A critical injury struck a cybernetic limb: it shut down instead of the body taking it."""

    item: str
    injury: int


@frozen(kw_only=True)
class CyberLimbRepaired(Event):
    """A competent tech repaired a cybernetic limb."""

    item: str
    tech: str


@frozen(kw_only=True)
class SystemBreached(Event):
    """A hacker got into this system."""

    by: str


@frozen(kw_only=True)
class SetOnFire(Event):
    """The character caught fire: damage each round end for up to 3 rounds."""

    damage: int
    rounds: int


@frozen(kw_only=True)
class FireBurned(Event):
    """The fire burned for another round (``rounds_left`` after this one)."""

    rounds_left: int


@frozen(kw_only=True)
class FireExtinguished(Event):
    """The fire is out."""

    reason: str


# --- Healing and advancement -----------------------------------------------------------------


@frozen(kw_only=True)
class ResilienceRestored(Event):
    """Resilience came back (rest, a Lazarus Patch, first aid), capped at the maximum."""

    amount: int
    cause: str
    before: int
    after: int


@frozen(kw_only=True)
class FirstAidReceived(Event):
    """An ally tried first aid on this character in a scene."""

    healer: str
    scene: int
    success: bool


@frozen(kw_only=True)
class MedicalAttentionReceived(Event):
    """A medical professional treated the character's critical injuries (``treated``)."""

    provider: str
    treated: tuple[int, ...]


@frozen(kw_only=True)
class MissionCompleted(Event):
    """A mission ended: the character has a level to take."""

    mission: str


@frozen(kw_only=True)
class LevelGained(Event):
    """A level: a stat +1, and Resilience or Inventory Score +1."""

    level: int
    stat: Stat
    stat_value: int
    secondary: Secondary
    secondary_value: int
