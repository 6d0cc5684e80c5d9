"""The Code against DIGEST §4.3's catalogues: every event and every error it names exists in the
product (under the DIGEST's name, or under the product's name in the mapping tables below, each
with its reason), and every refusal in ``domain/rulesets/the_code/errors.py`` is raised.

How "every error code is raised" is checked: ``REFUSALS`` holds one scenario per error class of
``errors.py``, and a test asserts that its keys are exactly the module's error classes; each
scenario then runs through the engine and must be refused with that class, appending nothing.
A test-run hook collecting the codes raised across the suite was the alternative; it was not
chosen because its verdict depends on which tests ran (``-k``, a failed or skipped test, a
shard), while this table is checked by itself, in one file, on every run: a refusal added to
``errors.py`` without a scenario here fails at once, naming it.

The DIGEST's catalogue is copied here (``DIGEST_EVENTS``, ``DIGEST_ERRORS``); a test checks
that the copy still matches the digest's text (``docs/rules-digest.md``).
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

import domain.errors
import domain.events
from domain.commands import Command
from domain.errors import DomainError
from domain.events import Event
from domain.lifecycle import EndSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import (
    AlterObjective,
    Blab,
    BuyMotivation,
    CreateHero,
    CreateNpc,
    FollowMo,
    LowerExposure,
    RecurProblem,
    RollExposure,
    RollReaction,
    RuleAbilityStep,
    RuleChallenge,
    SettleContest,
    SolveProblem,
    TakeDaysOff,
    UseMotivation,
)
from domain.rulesets.the_code.tables import NeedReason, Scale
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import refused
from tests.golden.test_the_code import HAWK, MITCH, table

DIGEST = Path(__file__).parents[2] / "docs" / "rules-digest.md"

# --- Events ---------------------------------------------------------------------------------------

DIGEST_EVENTS = [
    "HeroCreated",
    "NpcCreated",
    "AbilityStepRuled",
    "UnopposedActionResolved",
    "MotivationRequired",
    "WeaknessCameIntoPlay",
    "MoFollowed",
    "ConductRuled",
    "MotivationRolled",
    "MotivationSpent",
    "MotivationBid",
    "ContestRolled",
    "ContestTieRemoved",
    "ContestResolved",
    "DayOffTaken",
    "MotivationRegained",
    "ObjectiveAccomplished",
    "ObjectiveRewardRolled",
    "RewardPointsEarned",
    "RewardPointsSpent",
    "CommunityProblemSolved",
    "CommunityProblemRecurred",
    "MotivationPurchaseRolled",
    "MaxMotivationIncreased",
    "ObjectiveAltered",
    "MotivationReset",
    "ExposureRolled",
    "ExposureChanged",
    "DetailRevealed",
    "SessionTakenOff",
    "TraitBlabbed",
    "PopularityRolled",
    "PopularityChanged",
    "PopularityReactionRolled",
    "ReactionResolved",
    "SessionStarted",
    "SessionEnded",
    "GmRuled",
    "RulingReverted",
    "IdentityMadePublic",
]

# DIGEST name -> (the product's events that record it, why the name differs)
EVENTS_RENAMED: dict[str, tuple[tuple[str, ...], str]] = {
    "MotivationBid": (
        ("ContestResolved", "MotivationSpent"),
        "a bid is part of its contest: each side of ContestResolved carries its multiplier and "
        "up-front cost, and the bidder's MotivationSpent has the use aptitude-bid",
    ),
    "ContestRolled": (
        ("ContestResolved",),
        "one event per contest: each side of ContestResolved carries its step and its dice in "
        "the order rolled, so replay never needs a separate roll event",
    ),
    "ContestTieRemoved": (
        ("ContestResolved",),
        "ContestResolved.ties lists the tied values in order and each side's ``removed`` the "
        "dice it lost to them; their cost is in the side's cost and MotivationSpent",
    ),
    "GmRuled": (
        ("RulingMade",),
        "every command is a ruling whose header (RulingMade) records the GM's parameters with "
        "the dice, so an amendment re-resolves it; calls that change state have events of "
        "their own (AbilityStepRuled, MotivationRequired, MoFollowed, WeaknessCameIntoPlay, "
        "ConductRuled)",
    ),
    "RulingReverted": (
        ("RulingRetracted", "RulingAmended"),
        "an undo appends RulingRetracted on every stream the ruling touched; an amendment "
        "(a corrected ruling) appends RulingAmended",
    ),
}


def _event_class(name: str) -> type[Event] | None:
    for module in (tc, domain.events):
        found = getattr(module, name, None)
        if isinstance(found, type) and issubclass(found, Event):
            return found
    return None


@pytest.mark.parametrize("name", DIGEST_EVENTS)
def test_every_digest_event_exists(name: str) -> None:
    """Each event of the catalogue is an event class, or maps to event classes that exist."""
    if name in EVENTS_RENAMED:
        assert _event_class(name) is None, f"{name} exists: drop its mapping"
        products, why = EVENTS_RENAMED[name]
        assert why
        assert [p for p in products if _event_class(p) is None] == []
    else:
        assert _event_class(name) is not None, f"no event {name}"


# --- Errors ---------------------------------------------------------------------------------------

DIGEST_ERRORS = [
    "ObjectiveScoreOutOfRange",
    "ExposureOutOfRange",
    "PopularityOutOfRange",
    "MissingField",
    "NoMotivationScore",
    "NoMotivationAvailable",
    "DiceOutOfRange",
    "MotivationNotRequired",
    "InsufficientMotivation",
    "StepsNotRuled",
    "HigherAptitudeCannotBid",
    "NotDuringSession",
    "NoObjective",
    "NoChange",
    "InsufficientRewardPoints",
    "CriticalProblemNotSolvable",
    "ScaleNotRuled",
    "SessionNotActive",
    "AlreadyRolledThisSession",
    "PopularityZero",
    "ExposureZero",
    "DetailAlreadyPublic",
    "AugmentNotJustified",
    "AugmentPointlessAtExtremes",
]

# DIGEST name -> (the product's refusals, or a required command field "Command.field", and why)
ERRORS_RENAMED: dict[str, tuple[tuple[str, ...], str]] = {
    "ExposureOutOfRange": (("ScoreOutOfRange",), "one refusal for both 0..10 scores"),
    "PopularityOutOfRange": (("ScoreOutOfRange",), "one refusal for both 0..10 scores"),
    "MissingField": (("MissingHeroField",), "it names the hero's missing detail"),
    "NoMotivationAvailable": (
        ("MotivationNotRequired",),
        "TC-A23: at Motivation 0 the GM's challenge fails the task at once (nothing can be "
        "rolled), so no roll is pending and one asked for is refused MotivationNotRequired",
    ),
    "HigherAptitudeCannotBid": (
        ("HigherAptitudeNeedNotRoll",),
        "the higher step never pays a multiplier (x1 by construction), so no bid of its can be "
        "refused; what is refused is rolling when the lower step does not (it wins anyway)",
    ),
    "NotDuringSession": (
        ("NoActiveSession",),
        "the shared refusal of every system; days off are allowed between sessions (the DIGEST "
        "makes that one optional)",
    ),
    "SessionNotActive": (("NoActiveSession",), "the shared refusal of every system"),
    "NoObjective": (
        ("MissingHeroField", "NotAPlayerCharacter"),
        "every hero has an Objective from creation (MissingHeroField otherwise); an NPC has "
        "none and is refused hero rulings",
    ),
    "NoChange": (("ObjectiveUnchanged",), "it names what is unchanged: the Objective"),
    "ScaleNotRuled": (
        ("SolveProblem.scale",),
        "the GM rules the scale in the command itself: a required parameter (the CLI's SCALE "
        "argument), so a problem cannot be solved without it",
    ),
    "AlreadyRolledThisSession": (
        ("ExposureAlreadySettled",),
        "a session taken off settles the Exposure as a roll does: either is once a session",
    ),
}

COMMANDS = {"SolveProblem": SolveProblem}


def _error_class(name: str) -> type[DomainError] | None:
    for module in (errors, domain.errors):
        found = getattr(module, name, None)
        if isinstance(found, type) and issubclass(found, DomainError):
            return found
    return None


def _required_field(ref: str) -> bool:
    command, field = ref.split(".")
    found = {a.name: a for a in attrs.fields(COMMANDS[command])}.get(field)
    return found is not None and found.default is attrs.NOTHING


@pytest.mark.parametrize("name", DIGEST_ERRORS)
def test_every_digest_error_exists(name: str) -> None:
    """Each error of the catalogue is a refusal, or maps to refusals (or a required GM
    parameter) that exist."""
    if name in ERRORS_RENAMED:
        assert _error_class(name) is None, f"{name} exists: drop its mapping"
        products, why = ERRORS_RENAMED[name]
        assert why
        missing = [
            p
            for p in products
            if not (_required_field(p) if "." in p else _error_class(p) is not None)
        ]
        assert [] == missing
    else:
        assert _error_class(name) is not None, f"no refusal {name}"


def test_the_copied_catalogue_matches_the_digest() -> None:
    """The names above are §4.3's: its event catalogue, and every error its rules name."""
    text = DIGEST.read_text(encoding="utf-8")
    section = text[text.index("### 4.3") : text.index("### 4.4")]
    catalogue = section[section.index("**The Code event catalogue") :]
    assert set(re.findall(r"`(\w+)`", catalogue)) == set(DIGEST_EVENTS)
    named: set[str] = set()
    for line in section.splitlines():
        for clause in re.findall(r"Errors?:? ((?:`\w+`[^`]*)+)", line):
            named |= set(re.findall(r"`(\w+)`", clause))
    assert named == set(DIGEST_ERRORS)


# --- Every refusal of errors.py is raised ---------------------------------------------------------

Step = tuple[Command, tuple[int, ...]]


def _hero(**changes: Any) -> CreateHero:
    return CreateHero(**{**MITCH, "code_name": "Kestrel", **changes})


NEEDS = RuleChallenge(hero=HAWK, task="slippery roof", needs_motivation=NeedReason.BAD_CONDITIONS)
CROOK = CreateNpc(character="the crook")
STEP_2 = RuleAbilityStep(character=HAWK, task="t", profession=True)


def _vs_crook(**fields: Any) -> SettleContest:
    return SettleContest(**{"task": "t", "hero": HAWK, "opponent": "the crook", **fields})


# error class -> (the hero's fields, the rulings before, the refused command, its dice)
REFUSALS: dict[type[DomainError], tuple[dict[str, Any], tuple[Step, ...], Command, tuple[int, ...]]]
REFUSALS = {
    errors.MissingHeroField: ({}, (), _hero(profession=" "), ()),
    errors.ObjectiveScoreOutOfRange: ({}, (), _hero(objective_score=11), ()),
    errors.ScoreOutOfRange: ({}, (), _hero(exposure=11), ()),
    errors.NegativeRewardPoints: ({}, (), _hero(reward_points=-1), ()),
    errors.HeroNameTaken: ({}, (), CreateHero(**MITCH), ()),
    errors.UnknownDetail: ({}, (), Blab(hero=HAWK, details=("shoe size",), confidant="Lois"), ()),
    errors.DetailAlreadyPublic: (
        {},
        ((Blab(hero=HAWK, details=("profession",), confidant="Lois"), ()),),
        Blab(hero=HAWK, details=("profession",), confidant="Jimmy"),
        (),
    ),
    errors.RevealChoiceUnused: ({}, (), RollExposure(hero=HAWK, reveal=("weakness",)), ()),
    errors.MotivationRollPending: ({}, ((NEEDS, ()),), RuleChallenge(hero=HAWK, task="x"), ()),
    errors.MotivationNotRequired: ({}, (), UseMotivation(hero=HAWK, dice=1), (6,)),
    errors.DiceOutOfRange: ({}, ((NEEDS, ()),), UseMotivation(hero=HAWK, dice=4), (6,) * 4),
    errors.InsufficientMotivation: (
        {},
        (),
        RollReaction(hero=HAWK, audience="a cop", extra_dice=4, justification="ex-cop"),
        (1,) * 5,
    ),
    errors.StepOutOfRange: ({}, (), _vs_crook(step=6, opponent_step=1, npc=True), ()),
    errors.NoMotivationScore: (
        {},
        (),
        _vs_crook(step=2, opponent_step=2, opponent_dice=1, npc=True),
        (5,),
    ),
    errors.HigherAptitudeNeedNotRoll: (
        {},
        (),
        _vs_crook(step=1, opponent_step=2, dice=1, npc=True),
        (5,),
    ),
    errors.ContestWithSelf: ({}, (), _vs_crook(opponent=HAWK, step=2, opponent_step=1), ()),
    errors.StepsNotRuled: ({}, (), _vs_crook(npc=True, dice=1), (7,)),
    errors.StepRulingContradicted: (
        {},
        ((STEP_2, ()),),
        _vs_crook(step=4, opponent_step=1, npc=True, dice=1),
        (7,),
    ),
    errors.TraitMissing: (
        {},
        ((CROOK, ()),),
        RuleAbilityStep(character="the crook", task="t", profession=True),
        (),
    ),
    errors.NpcOnRoster: ({}, ((CROOK, ()),), _vs_crook(step=2, opponent_step=1, npc=True), ()),
    errors.MotivationOutOfRange: ({}, (), CreateNpc(character="Grin", motivation=-1), ()),
    errors.InsufficientRewardPoints: ({}, (), BuyMotivation(hero=HAWK), (4,)),
    errors.CriticalProblemNotSolvable: (
        {"reward_points": 100},
        (),
        SolveProblem(hero=HAWK, description="the mob", scale=Scale.CRITICAL),
        (),
    ),
    errors.ProblemNotOpen: ({}, (), RecurProblem(hero=HAWK, description="the park"), ()),
    errors.ObjectiveUnchanged: ({}, (), AlterObjective(hero=HAWK, score=6), ()),
    errors.DaysOutOfRange: ({}, (), TakeDaysOff(hero=HAWK, days=0), ()),
    errors.ExposureZero: ({}, (), LowerExposure(hero=HAWK), ()),
    errors.PopularityZero: ({"exposure": 1, "popularity": 0}, (), LowerExposure(hero=HAWK), ()),
    errors.ExposureAlreadySettled: (
        {},
        ((RollExposure(hero=HAWK), ()),),
        RollExposure(hero=HAWK),
        (),
    ),
    errors.ExposureRollMissing: ({}, (), EndSession(), ()),
    errors.MoFollowedOnSessionOff: (
        {},
        (),
        RollExposure(hero=HAWK, off=True, mo_followed=True),
        (),
    ),
    errors.ReduceNeedsSessionOff: ({}, (), RollExposure(hero=HAWK, reduce=True), ()),
    errors.MoAlreadyFollowed: ({}, ((FollowMo(hero=HAWK), ()),), FollowMo(hero=HAWK), ()),
    errors.AugmentNotJustified: ({}, (), RollReaction(hero=HAWK, audience="x", extra_dice=1), ()),
    errors.AugmentPointlessAtExtremes: (
        {"popularity": 10},
        (),
        RollReaction(hero=HAWK, audience="x", extra_dice=1, justification="ex-cop"),
        (),
    ),
}


def test_every_refusal_of_errors_py_has_a_scenario() -> None:
    """The scenarios cover exactly the module's refusals: a new one needs a scenario here."""
    defined = {
        cls
        for _, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, DomainError) and cls.__module__ == errors.__name__
    }
    assert sorted(c.__name__ for c in defined) == sorted(c.__name__ for c in REFUSALS)


@pytest.mark.parametrize(
    "error", list(REFUSALS), ids=lambda cls: cls.code if isinstance(cls, type) else str(cls)
)
def test_every_refusal_is_raised_and_appends_nothing(
    engine: Engine, error: type[DomainError]
) -> None:
    """Each refusal of errors.py, raised by a command through the engine: its code, nothing
    appended (conftest ``refused``)."""
    hero, given, command, faces = REFUSALS[error]
    table(engine, **hero)
    for step, dice in given:
        engine.execute("Lab", step, dice=DiceSpec(faces=dice))
    raised = refused(engine, command, error, faces=faces)
    assert error.code == raised.code
