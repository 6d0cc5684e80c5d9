"""The Code's refusals. Each names the rule it enforces (rule text section in brackets)."""

from __future__ import annotations

from domain.errors import DomainError, NameTaken

# --- Hero creation and details --------------------------------------------------------------------


class MissingHeroField(DomainError):
    template = "a hero needs {field} (Hero Creation: every detail the Exposure ladder can reveal)"


class ObjectiveScoreOutOfRange(DomainError):
    template = "an Objective score is 1 to 10, got {score} (TC-A7)"


class ScoreOutOfRange(DomainError):
    template = "{what} runs from 0 to 10, got {value} (Dealing with Exposure / Popularity)"


class NegativeRewardPoints(DomainError):
    template = "Reward Points cannot be negative, got {value} (Reward Points)"


class HeroNameTaken(NameTaken):
    """The shared refusal under the code The Code has always given it (HERO_NAME_TAKEN)."""


class UnknownDetail(DomainError):
    template = (
        "{text!r} is not a detail the public can learn; one of: {known} (Dealing with Exposure)"
    )


class DetailAlreadyPublic(DomainError):
    template = (
        "{name}'s {detail} is public already; a detail is revealed once "
        "(Dealing with Exposure: it cannot be 'unrevealed')"
    )


class RevealChoiceUnused(DomainError):
    template = (
        "{given} detail(s) chosen to reveal but only {levels} new Exposure level(s) reveal one "
        "(one detail per Exposure point above 1)"
    )


# --- Tasks, Motivation, contests ------------------------------------------------------------------


class MotivationRollPending(DomainError):
    template = "{name} must first roll Motivation (or decline) for {task!r} (Using Motivation)"


class MotivationNotRequired(DomainError):
    template = (
        "{name} has no task that the GM ruled needs Motivation; rule one with "
        "`campaign challenge ... --needs-motivation` (Unopposed Challenges)"
    )


class DiceOutOfRange(DomainError):
    template = (
        "{name} rolls between one die and their current Motivation ({current}), "
        "got {dice} (Using Motivation)"
    )


class InsufficientMotivation(DomainError):
    """Raised for an aptitude bid (``why``: "4 dice x2", Contested Challenges) and for extra
    reaction dice (Dealing with Popularity)."""

    template = "{name} would pay {cost} Motivation ({why}) but has {current} ({rule})"


class StepOutOfRange(DomainError):
    template = "the Ability Sequence has steps 1 to 5, got {step} (The Ability Sequence)"


class NoMotivationScore(DomainError):
    template = (
        "{name} has no Motivation score and cannot roll Motivation dice (Contested Challenges)"
    )


class HigherAptitudeNeedNotRoll(DomainError):
    template = (
        "{name} is on the higher step and wins by aptitude unless the other side bids Motivation "
        "(Contested Challenges)"
    )


class ContestWithSelf(DomainError):
    template = "{name} cannot contest against themselves"


class StepsNotRuled(DomainError):
    template = (
        "no step on the Ability Sequence is ruled for {names} in {task!r}: rule it with "
        "`campaign step` or give it (--step, --vs-step) (Contested Challenges)"
    )


class StepRulingContradicted(DomainError):
    template = (
        "{name}'s step for {task!r} is ruled {step} ({meaning}); {given} contradicts it: rule "
        "it again with `campaign step` (The Ability Sequence)"
    )


class TraitMissing(DomainError):
    template = "{name} has no {trait}, so none is relevant to {task!r} (The Ability Sequence)"


class NpcOnRoster(DomainError):
    template = (
        "{name} is an NPC of this campaign with its Motivation tracked: name it without --npc "
        "(Contested Challenges)"
    )


class MotivationOutOfRange(DomainError):
    template = (
        "a Motivation score is 0 or more, got {value}; leave it out for a person without one "
        "(Contested Challenges)"
    )


# --- Reward Points and the Objective --------------------------------------------------------------


class InsufficientRewardPoints(DomainError):
    template = "{what} costs {cost} Reward Points; {name} has {held} (Reward Points)"


class CriticalProblemNotSolvable(DomainError):
    template = (
        "critical problems (such as organized crime) cannot be stamped out using Reward Points "
        "(Reward Points)"
    )


class ProblemNotOpen(DomainError):
    template = (
        "{name} solved no problem {description!r} that still holds (solved: {known}) "
        "(Reward Points: the solution is rarely permanent)"
    )


class ObjectiveUnchanged(DomainError):
    template = "{name}'s Objective is already {objective!r} ({score}) (Altering Objectives)"


class DaysOutOfRange(DomainError):
    template = "days off are counted in whole days, at least 1, got {days} (Regaining Motivation)"


# --- Exposure, Popularity, sessions ---------------------------------------------------------------


class ExposureZero(DomainError):
    template = "{name}'s Exposure is 0 already; it cannot be lowered (Dealing with Exposure)"


class PopularityZero(DomainError):
    template = "{name} has no Popularity to give up for lower Exposure (Dealing with Exposure)"


class ExposureAlreadySettled(DomainError):
    template = (
        "{name}'s end-of-session Exposure for session {session} is recorded already "
        "(Dealing with Exposure: one roll per session)"
    )


class ExposureRollMissing(DomainError):
    template = (
        "session {session} cannot end before the Exposure roll of {names}: run "
        "`campaign exposure HERO` (or --off for a session taken off) (Dealing with Exposure)"
    )


class MoFollowedOnSessionOff(DomainError):
    template = (
        "{name} took the session off, so no MO was followed and nothing is rolled "
        "(Dealing with Exposure)"
    )


class ReduceNeedsSessionOff(DomainError):
    template = (
        "only a session taken off may lower Exposure instead of rolling (use --off --reduce) "
        "(Dealing with Exposure)"
    )


class MoAlreadyFollowed(DomainError):
    template = "the GM already ruled that {name} followed their MO in session {session}"


class AugmentNotJustified(DomainError):
    template = (
        "extra reaction dice need the GM's ruling that {name}'s Profession or Advantage helps "
        "(say how) (Dealing with Popularity)"
    )


class AugmentPointlessAtExtremes(DomainError):
    template = (
        "with Popularity {popularity} the reaction is settled without a roll; no Motivation "
        "can be spent on it (Dealing with Popularity)"
    )
