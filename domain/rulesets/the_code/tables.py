"""The Code's closed sets: the Exposure ladder's details, causes, problem scales, dice roles."""

from __future__ import annotations

import enum

from attrs import frozen

from domain.plain import Plain

MIN_SCORE = 0
MAX_SCORE = 10  # Exposure and Popularity both run 0..10 (the ladder; a d10 reaction roll)
MOTIVATION_THRESHOLD = 5  # "needs to roll at least one 5"; dice above 5 cost a point each
REACTION_DIE = 10  # "they must roll one ten-sided die" (Dealing with Popularity)
MOTIVATION_PURCHASE = 25  # "Spending 25 points allows you to roll one die" (Reward Points)
STARTING_POPULARITY = 3  # TC-A19: not in the text; Mitch's example value


class Detail(enum.StrEnum):
    """A detail the public may learn, in the Exposure ladder's order (levels 2..10)."""

    PHYSICAL_DESCRIPTION = "physical-description"
    CODE_NAME = "code-name"
    MODUS_OPERANDI = "modus-operandi"
    OBJECTIVE = "objective"
    ADVANTAGE = "advantage"
    WEAKNESS = "weakness"
    PROFESSION = "profession"
    MOTIVATION = "motivation"
    SECRET_IDENTITY = "secret-identity"


LADDER: tuple[Detail, ...] = tuple(Detail)  # LADDER[level - 2] is the ladder's detail for a level

_ALIASES = {
    "appearance": Detail.PHYSICAL_DESCRIPTION,
    "description": Detail.PHYSICAL_DESCRIPTION,
    "physical": Detail.PHYSICAL_DESCRIPTION,
    "mo": Detail.MODUS_OPERANDI,
    "identity": Detail.SECRET_IDENTITY,
    "secret": Detail.SECRET_IDENTITY,
}


def find_detail(text: str) -> Detail | None:
    """A detail named by its value (``code-name``), with spaces or underscores, or an alias."""
    cleaned = text.strip().lower().replace(" ", "-").replace("_", "-")
    if cleaned in _ALIASES:
        return _ALIASES[cleaned]
    return next((d for d in Detail if d.value == cleaned), None)


def ladder_detail(level: int) -> Detail:
    return LADDER[level - 2]


class RevealCause(enum.StrEnum):
    """Why a detail became public."""

    CREATION = "creation"  # the hero began play at an Exposure of 2 or more
    PUBLIC_IDENTITY = "public-identity"  # a public identity is known from the start (TC-A21)
    SESSION_ROLL = "session-roll"
    MO_BONUS_DIE = "mo-bonus-die"
    PROBLEM_SOLVED = "problem-solved"
    BLAB = "blab"
    REDERIVED = "rederived"  # by a later gain, once an earlier one was corrected (DIGEST 5.2)


class ExposureCause(enum.StrEnum):
    SESSION_ROLL = "session-roll"
    MO_BONUS_DIE = "mo-bonus-die"
    PROBLEM_SOLVED = "problem-solved"
    BLAB = "blab"
    LOWER_EXPOSURE = "lower-exposure"
    SESSION_OFF = "session-off"
    NO_EXPOSURE_GAINED = "no-exposure-gained"


REVEAL_CAUSE = {
    ExposureCause.SESSION_ROLL: RevealCause.SESSION_ROLL,
    ExposureCause.MO_BONUS_DIE: RevealCause.MO_BONUS_DIE,
    ExposureCause.PROBLEM_SOLVED: RevealCause.PROBLEM_SOLVED,
    ExposureCause.BLAB: RevealCause.BLAB,
}


class PopularityCause(enum.StrEnum):
    GAIN_ROLL = "gain-roll"
    PROBLEM_SOLVED = "problem-solved"
    LOWER_EXPOSURE = "lower-exposure"


class MotivationUse(enum.StrEnum):
    """Why Motivation points were spent."""

    DICE_ABOVE_5 = "dice-above-5"
    APTITUDE_BID = "aptitude-bid"
    CONTEST = "contest"
    POPULARITY_AUGMENT = "popularity-augment"


class RegainCause(enum.StrEnum):
    DAY_OFF = "day-off"
    OBJECTIVE = "objective"


class Unopposed(enum.StrEnum):
    """The GM's call on an unopposed task."""

    AUTO_SUCCESS = "auto-success"
    MOTIVATION_REQUIRED = "motivation-required"


class NeedReason(enum.StrEnum):
    """Why an unopposed task needs Motivation (Unopposed Challenges)."""

    SPECIFIC_SKILL_MISSING = "specific-skill-missing"
    BAD_CONDITIONS = "bad-conditions"
    WEAKNESS_IN_PLAY = "weakness-in-play"


# The Ability Sequence, highest aptitude first: a Weakness that applies overrides the rest (TC-A22).
STEPS: dict[int, str] = {
    1: "a relevant Profession and a relevant Advantage",
    2: "a relevant Profession",
    3: "a relevant Advantage",
    4: "no relevant Profession and no relevant Advantage",
    5: "a Weakness",
}
WEAKNESS_STEP = 5
LOWEST_SKILLED_STEP = 3  # steps 1..3: a relevant Profession and/or Advantage


def ability_step(profession: bool, advantage: bool, weakness: bool) -> int:
    """The step on the Ability Sequence that the GM's calls on a task make (The Ability
    Sequence); a Weakness that applies puts the character on step 5 (TC-A22)."""
    if weakness:
        return WEAKNESS_STEP
    if profession:
        return 1 if advantage else 2
    return 3 if advantage else 4


class TaskOutcome(enum.StrEnum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class DieRole(enum.StrEnum):
    """What a die of the objective roll is: maximum Motivation, or one of the two bonus dice."""

    BASE = "base"
    WEAKNESS_BONUS = "weakness-bonus"
    MO_BONUS = "mo-bonus"


class ContestBy(enum.StrEnum):
    """How a contest was settled."""

    APTITUDE = "aptitude"  # nobody rolled: the lower step wins
    MOTIVATION = "motivation"  # both rolled: highest die, ties removed
    UNOPPOSED_ROLL = "unopposed-roll"  # one side rolled against no Motivation: fails only on 1
    STALEMATE = "stalemate"


class Scale(enum.StrEnum):
    """How big a community problem is (the GM rules it)."""

    MINOR = "minor"
    GENERAL = "general"
    MAJOR = "major"
    CRITICAL = "critical"


@frozen
class ScaleCost(Plain):
    reward_points: int
    exposure: int
    popularity: int


SCALE_COSTS: dict[Scale, ScaleCost] = {
    Scale.MINOR: ScaleCost(25, 1, 1),
    Scale.GENERAL: ScaleCost(50, 2, 2),
    Scale.MAJOR: ScaleCost(100, 3, 3),
}


def clamp(value: int) -> int:
    return max(MIN_SCORE, min(MAX_SCORE, value))


def is_even(face: int) -> bool:
    return face % 2 == 0
