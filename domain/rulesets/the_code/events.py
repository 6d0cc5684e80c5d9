"""The Code's events, recorded on a hero's stream. They carry resolved values and before/after."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.events import Event
from domain.plain import Plain
from domain.rulesets.the_code.tables import (
    ContestBy,
    Detail,
    DieRole,
    ExposureCause,
    MotivationUse,
    NeedReason,
    PopularityCause,
    RegainCause,
    RevealCause,
    Scale,
    TaskOutcome,
)

# --- The hero and what the public knows -----------------------------------------------------------


@frozen(kw_only=True)
class HeroCreated(Event):
    """A hero was made: every detail the Exposure ladder can reveal, and the starting scores."""

    character_id: UUID
    code_name: str
    player: str
    secret_identity: str
    public_identity: bool
    physical_description: str
    profession: str
    advantages: tuple[str, ...]
    weakness: str
    objective: str
    objective_score: int
    modus_operandi: str
    motivation: int
    exposure: int
    popularity: int
    reward_points: int
    violent: bool
    secretive: bool


@frozen(kw_only=True)
class NpcCreated(Event):
    """The GM brought in a non-player character: the traits the Ability Sequence reads, and its
    Motivation score (None: a person without one)."""

    character_id: UUID
    name: str
    profession: str
    advantages: tuple[str, ...]
    weakness: str
    motivation: int | None


@frozen(kw_only=True)
class DetailRevealed(Event):
    """A detail became public. ``level`` is the ladder rung (None outside the ladder: a public
    identity, a blab); ``value`` is the detail as it stood then; ``source`` names the event of the
    same ruling that caused it (HeroCreated, ExposureChanged or TraitBlabbed)."""

    detail: Detail
    level: int | None
    exposure: int
    cause: RevealCause
    suggested: Detail | None
    gm_override: bool
    value: str
    session: int | None
    source: str


@frozen(kw_only=True)
class IdentityMadePublic(Event):
    """The secret identity is public: the hero counts as a public identity from now on."""

    session: int | None


@frozen(kw_only=True)
class ExposureChanged(Event):
    """Exposure moved (clamped to 0..10): ``delta`` is what the rule gave; before/after stuck."""

    before: int
    after: int
    delta: int
    cause: ExposureCause
    peak_before: int
    peak_after: int
    session: int | None


@frozen(kw_only=True)
class ExposureRolled(Event):
    """The end-of-session Exposure roll: one die per point, plus one if the MO was followed."""

    session: int
    dice: tuple[int, ...]
    exposure: int
    mo_die_included: bool
    any_even: bool
    gain: int
    public_identity: bool


@frozen(kw_only=True)
class SessionTakenOff(Event):
    """The hero took the session off: no Exposure roll (and maybe Exposure 1 lower)."""

    session: int
    reduced: bool


@frozen(kw_only=True)
class TraitBlabbed(Event):
    """Details the hero told someone were blabbed: one Exposure point per newly public detail."""

    details: tuple[Detail, ...]
    already_public: tuple[Detail, ...]
    confidant: str
    session: int


# --- Session calls by the GM ----------------------------------------------------------------------


@frozen(kw_only=True)
class MoFollowed(Event):
    """The GM ruled that the hero followed their MO this session."""

    session: int
    description: str


@frozen(kw_only=True)
class WeaknessCameIntoPlay(Event):
    """The hero's Weakness came into play this session (a bonus die if the Objective is met)."""

    session: int
    task: str


@frozen(kw_only=True)
class ConductRuled(Event):
    """The GM ruled whether the hero is violent or secretive (Gaining Popularity)."""

    violent: bool
    secretive: bool


# --- Tasks, Motivation and contests ---------------------------------------------------------------


@frozen(kw_only=True)
class AbilityStepRuled(Event):
    """The GM ruled the character's step on the Ability Sequence for a task (``previous``: the
    step ruled for it before, if any)."""

    task: str
    profession: bool
    advantage: bool
    weakness: bool
    step: int
    previous: int | None


@frozen(kw_only=True)
class UnopposedActionResolved(Event):
    """An unopposed task was settled: automatically, or by a Motivation roll (or its absence)."""

    task: str
    outcome: TaskOutcome
    rolled: bool
    reason: str


@frozen(kw_only=True)
class MotivationRequired(Event):
    """The GM ruled that an unopposed task needs Motivation."""

    task: str
    reason: NeedReason


@frozen(kw_only=True)
class MotivationRolled(Event):
    """Motivation dice for an unopposed task: success on any die of 5+, each die above 5 costs 1."""

    task: str
    dice: tuple[int, ...]
    threshold: int
    success: bool
    cost: int


@frozen(kw_only=True)
class MotivationSpent(Event):
    """Motivation points were spent."""

    amount: int
    use: MotivationUse
    before: int
    after: int


@frozen(kw_only=True)
class ContestSide(Plain):
    """One side of a contest: its step, its dice, what it paid."""

    name: str
    character_id: UUID | None
    step: int
    motivation: int | None
    dice: tuple[int, ...]
    multiplier: int
    upfront: int
    removed: tuple[int, ...]
    winning: tuple[int, ...]
    cost: int


@frozen(kw_only=True)
class ContestResolved(Event):
    """A contested challenge between two sides, settled by aptitude, Motivation or stalemate."""

    task: str
    sides: tuple[ContestSide, ...]
    by: ContestBy
    winner: str | None
    ties: tuple[int, ...]


@frozen(kw_only=True)
class DayOffTaken(Event):
    """The hero took days off from superheroics."""

    days: int


@frozen(kw_only=True)
class MotivationRegained(Event):
    """Motivation came back (up to the maximum)."""

    amount: int
    cause: RegainCause
    before: int
    after: int


# --- The Objective and Reward Points --------------------------------------------------------------


@frozen(kw_only=True)
class RewardDie(Plain):
    face: int
    role: DieRole


@frozen(kw_only=True)
class ObjectiveAccomplished(Event):
    """The GM ruled the Objective accomplished, with this session's MO and Weakness calls."""

    session: int
    objective: str
    score: int
    mo_followed: bool
    weakness: bool


@frozen(kw_only=True)
class ObjectiveRewardRolled(Event):
    """Maximum Motivation plus bonus dice: each die at or above the Objective score succeeds."""

    dice: tuple[RewardDie, ...]
    threshold: int
    successes: int


@frozen(kw_only=True)
class RewardPointsEarned(Event):
    """Reward Points earned: successes times the Objective score."""

    amount: int
    before: int
    after: int


@frozen(kw_only=True)
class RewardPointsSpent(Event):
    """Reward Points spent on a community problem or on Motivation."""

    amount: int
    purpose: str
    before: int
    after: int


@frozen(kw_only=True)
class CommunityProblemSolved(Event):
    """A community problem was solved with Reward Points (the GM ruled its scale)."""

    description: str
    scale: Scale
    session: int


@frozen(kw_only=True)
class CommunityProblemRecurred(Event):
    """A community problem the hero solved came back (the solution is rarely permanent)."""

    description: str
    scale: Scale
    solved_in: int
    session: int | None
    note: str


@frozen(kw_only=True)
class MotivationPurchaseRolled(Event):
    """25 Reward Points bought one die: even raises the maximum Motivation."""

    die: int
    even: bool


@frozen(kw_only=True)
class MaxMotivationIncreased(Event):
    """Maximum Motivation went up by one (bought with Reward Points)."""

    before: int
    after: int


@frozen(kw_only=True)
class ObjectiveAltered(Event):
    """The Objective changed (its description, its score or both)."""

    old_objective: str
    old_score: int
    new_objective: str
    new_score: int


@frozen(kw_only=True)
class MotivationReset(Event):
    """Motivation reset to half the new Objective; Motivation bought with Reward Points is lost."""

    base_max: int
    bonus_lost: int
    before: int
    current: int


# --- Popularity -----------------------------------------------------------------------------------


@frozen(kw_only=True)
class PopularityRolled(Event):
    """The Popularity gain roll: any even +1; none even -1 for a violent or secretive hero."""

    session: int
    dice: tuple[int, ...]
    any_even: bool
    violent_or_secretive: bool
    delta: int


@frozen(kw_only=True)
class PopularityChanged(Event):
    """Popularity moved (clamped to 0..10)."""

    before: int
    after: int
    delta: int
    cause: PopularityCause


@frozen(kw_only=True)
class PopularityReactionRolled(Event):
    """A reaction roll: one d10, one more per Motivation point spent; any die <= target wins."""

    audience: str
    dice: tuple[int, ...]
    target: int
    augment: int
    justification: str
    favorable: bool


@frozen(kw_only=True)
class ReactionResolved(Event):
    """A reaction settled without a roll (Popularity 10 or 0, or an extreme conflict)."""

    audience: str
    favorable: bool
    reason: str
