"""The Sims RPG's events, recorded on a character's stream. Ranks are Master Chart indexes
(Poor 0 .. Master 4, -1 zeroed) where a value may fall off the ladder, rank names otherwise."""

from __future__ import annotations

from typing import ClassVar
from uuid import UUID

from attrs import frozen

from domain.events import Event
from domain.rulesets.sims.tables import (
    Area,
    Danger,
    Outcome,
    Rank,
    RankKind,
    SheetKind,
    Strategy,
)
from domain.rulesets.sims.values import (
    AttackSetup,
    QualitySpec,
    QualityUsed,
    RankRestored,
    Roll,
    Shift,
    TurnSlot,
)

# --- Sheets -----------------------------------------------------------------------------------


@frozen(kw_only=True)
class CharacterCreated(Event):
    """A sheet was made: a PC by the creation rules, or (``custom``) a GM sheet or an NPC."""

    character_id: UUID
    name: str
    player: str
    kind: SheetKind
    qualities: tuple[QualitySpec, ...]
    strengths: tuple[str, ...]
    weaknesses: tuple[str, ...]
    custom: bool


@frozen(kw_only=True)
class QualityReplaced(Event):
    """With the GM's approval an unused quality was swapped for one that fits better (same rank)."""

    old: str
    new: str
    area: Area


# --- Situations -------------------------------------------------------------------------------


@frozen(kw_only=True)
class SimpleSituationResolved(Event):
    """A simple situation: the quality's rank beat the difficulty rank, success without a roll."""

    task: str
    quality: str | None
    rank: int
    difficulty: Rank
    scene: int | None = None  # the scene it was ruled in (older logs: not recorded)


@frozen(kw_only=True)
class SituationEscalated(Event):
    """A simple situation whose difficulty matched or beat the quality: it becomes complicated."""

    task: str
    quality: str | None
    rank: int
    difficulty: Rank


@frozen(kw_only=True)
class ComplicatedSituationRolled(Event):
    """A complicated situation: 2d6 (or 3d6) + modifier against the difficulty's target number."""

    task: str
    roll: Roll
    difficulty: Rank
    tn: int
    success: bool
    hazardous: bool


# --- Conflicts --------------------------------------------------------------------------------


@frozen(kw_only=True)
class ConflictAttackRolled(Event):
    """An attack rolled against a defender's target number: hit (> TN), tie, miss or auto-fail."""

    setup: AttackSetup
    roll: Roll
    outcome: Outcome
    margin: int | None
    ranks: int
    reroll: bool


@frozen(kw_only=True)
class ConflictTied(Event):
    """The attack matched the target number: nobody is hurt, and the attack is rolled again."""

    setup: AttackSetup
    roll: Roll


@frozen(kw_only=True)
class DamageRanksInflicted(Event):
    """Ranks to distribute over this character's qualities (``source``: who or what dealt them)."""

    ranks: int
    kind: RankKind
    source: str
    bonus_ranks: int
    killing: bool


@frozen(kw_only=True)
class QualityDownshifted(Event):
    """One Failure or Damage Rank taken on a quality."""

    quality: str
    before: int
    after: int
    kind: RankKind


@frozen(kw_only=True)
class CharacterOutOfScene(Event):
    """A quality dropped below Poor: the character is out of the scene."""

    quality: str
    turn: int


@frozen(kw_only=True)
class RanksDiscarded(Event):
    """Ranks left over once the character went out of the scene are not distributed."""

    count: int


@frozen(kw_only=True)
class CharacterKilled(Event):
    """A helpless character was killed (no roll: a statement on the attacker's turn)."""

    by_id: UUID | None
    by: str


@frozen(kw_only=True)
class CharacterReturnedToScene(Event):
    """No quality is below Poor any more: the character is back in the scene."""

    quality: str


@frozen(kw_only=True)
class StrategyDeclared(Event):
    """Full Attack or Full Defense, until the character's next turn."""

    strategy: Strategy


@frozen(kw_only=True)
class StrategyExpired(Event):
    """The character's strategy ran out (its next turn began, or the scene ended)."""

    strategy: Strategy


@frozen(kw_only=True)
class FullDefensePenaltyConsumed(Event):
    """The attack after playing Full Defense took its downshift."""


@frozen(kw_only=True)
class TurnOrderSet(Event):
    """The conflict's turn order: higher fighting-relevant rank first."""

    order: tuple[TurnSlot, ...]


@frozen(kw_only=True)
class TurnStarted(Event):
    """The character's turn began (turn ``number`` of the conflict)."""

    number: int


@frozen(kw_only=True)
class TurnEnded(Event):
    """The character's turn ended."""

    number: int


# --- Scene end and recovery -------------------------------------------------------------------


@frozen(kw_only=True)
class DangerDeclared(Event):
    """The GM ruled whether the character is in momentary or continuing danger."""

    danger: Danger


@frozen(kw_only=True)
class SceneWrappedUp(Event):
    """The scene ended for this character: strategies, turns and danger are over."""

    danger: Danger


@frozen(kw_only=True)
class RanksRecovered(Event):
    """Lost ranks came back at the end of a scene (all of them, or all Failure Ranks)."""

    restored: tuple[RankRestored, ...]
    kind: RankKind | None  # None: both kinds


@frozen(kw_only=True)
class RecoveryRollAuthorized(Event):
    """The character may roll 1d6 for recovery (continuing danger, or the GM says roll again)."""

    reason: str


@frozen(kw_only=True)
class RecoveryRolled(Event):
    """1d6 recovery: ``restorable`` ranks to bring back (no more than were lost)."""

    die: int
    lost: int
    restorable: int
    wasted: int


@frozen(kw_only=True)
class RankRecovered(Event):
    """One lost rank came back to a quality, chosen by the player."""

    quality: str
    before: int
    after: int


# --- Improvement ------------------------------------------------------------------------------


@frozen(kw_only=True)
class AdventureCompleted(Event):
    """An adventure of the campaign was completed (no upgrade: those come from campaigns)."""

    adventure: str


@frozen(kw_only=True)
class UpgradeMissionAnnounced(Event):
    """The GM announced in advance that a mission is an Upgrade Mission for this character."""

    mission: str


@frozen(kw_only=True)
class UpgradeGranted(Event):
    """One upgrade earned: a successful campaign or an announced Upgrade Mission."""

    source: str
    mission: str | None


@frozen(kw_only=True)
class QualityUpgraded(Event):
    """An upgrade raised a quality one rank."""

    quality: str
    before: Rank
    after: Rank


@frozen(kw_only=True)
class MasterPlusTaken(Event):
    """Master in three qualities: an upgrade taken as two new Good qualities."""

    qualities: tuple[QualitySpec, ...]


@frozen(kw_only=True)
class CharacterReborn(Event):
    """Master in six qualities: an upgrade taken as a whole new sheet plus four Good qualities."""

    qualities: tuple[QualitySpec, ...]
    previous: tuple[QualitySpec, ...]


# --- Behind the Scenes ------------------------------------------------------------------------


@frozen(kw_only=True)
class PrivateMessageSent(Event):
    """A member wrote privately to another (Behind the Scenes): only they and the GMs read it."""

    searchable: ClassVar[tuple[str, ...]] = ("body",)

    sender: str  # the member who wrote it
    to: str  # the member it was written to
    character: str | None  # the character it came from (None: the GM in person)
    body: str
    in_character: bool


# The values events carry, re-exported for readers of the events.
__all__ = [
    "AttackSetup",
    "QualitySpec",
    "QualityUsed",
    "RankRestored",
    "Roll",
    "Shift",
    "TurnSlot",
]
