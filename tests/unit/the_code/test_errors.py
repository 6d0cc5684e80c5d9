"""Every refusal of The Code (errors.py, DIGEST 0.3): its typed error, with nothing appended; the
rule it names and the data it carries; and the empty texts it names."""

from __future__ import annotations

import pytest

from domain.commands import Command
from domain.errors import DomainError, EmptyText
from domain.lifecycle import EndSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.commands import (
    AlterObjective,
    Blab,
    BuyMotivation,
    CreateHero,
    CreateNpc,
    LowerExposure,
    RollExposure,
    RollReaction,
    RuleChallenge,
    SettleContest,
    SolveProblem,
    TakeDaysOff,
    UseMotivation,
)
from domain.rulesets.the_code.tables import Scale
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import refused
from tests.golden.test_catalogue_the_code import REFUSALS
from tests.golden.test_the_code import HAWK, MITCH, table

BAD: list[tuple[Command, type[Exception], tuple[int, ...]]] = [
    (
        CreateHero(**{**MITCH, "code_name": "X", "objective_score": 0}),
        errors.ObjectiveScoreOutOfRange,
        (),
    ),
    (
        CreateHero(**{**MITCH, "code_name": "X", "objective_score": 11}),
        errors.ObjectiveScoreOutOfRange,
        (),
    ),
    (CreateHero(**{**MITCH, "code_name": "X", "exposure": 11}), errors.ScoreOutOfRange, ()),
    (CreateHero(**{**MITCH, "code_name": "X", "weakness": " "}), errors.MissingHeroField, ()),
    (CreateHero(**MITCH), errors.HeroNameTaken, ()),
    (AlterObjective(hero=HAWK, score=11), errors.ObjectiveScoreOutOfRange, ()),
    (AlterObjective(hero=HAWK, score=6), errors.ObjectiveUnchanged, ()),
    (Blab(hero=HAWK, details=("favourite colour",), confidant="Lois"), errors.UnknownDetail, ()),
    (
        SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR, reveal=("shoe size",)),
        errors.UnknownDetail,
        (),
    ),
    (
        SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR),
        errors.InsufficientRewardPoints,
        (),
    ),
    (
        SolveProblem(hero=HAWK, description="mob", scale=Scale.CRITICAL),
        errors.CriticalProblemNotSolvable,
        (),
    ),
    (BuyMotivation(hero=HAWK), errors.InsufficientRewardPoints, ()),
    (UseMotivation(hero=HAWK, dice=1), errors.MotivationNotRequired, ()),
    (
        SettleContest(task="t", hero=HAWK, step=4, dice=2, opponent="c", opponent_step=1, npc=True),
        errors.InsufficientMotivation,
        (),
    ),
    (
        SettleContest(task="t", hero=HAWK, step=6, opponent="c", opponent_step=1, npc=True),
        errors.StepOutOfRange,
        (),
    ),
    (
        SettleContest(task="t", hero=HAWK, step=2, opponent=HAWK, opponent_step=1),
        errors.ContestWithSelf,
        (),
    ),
    (
        SettleContest(
            task="t", hero=HAWK, step=2, opponent="c", opponent_step=2, opponent_dice=1, npc=True
        ),
        errors.NoMotivationScore,
        (),
    ),
    (
        SettleContest(task="t", hero=HAWK, step=1, dice=1, opponent="c", opponent_step=2, npc=True),
        errors.HigherAptitudeNeedNotRoll,
        (),
    ),
    (LowerExposure(hero=HAWK), errors.ExposureZero, ()),
    (RollReaction(hero=HAWK, audience="press", extra_dice=1), errors.AugmentNotJustified, ()),
    (
        RollReaction(hero=HAWK, audience="press", extra_dice=4, justification="x"),
        errors.InsufficientMotivation,  # R-TC-13 (it was DICE_OUT_OF_RANGE before issue 18)
        (),
    ),
    (RollExposure(hero=HAWK, off=True, mo_followed=True), errors.MoFollowedOnSessionOff, ()),
    (RollExposure(hero=HAWK, reveal=("weakness",)), errors.RevealChoiceUnused, ()),
    (RollExposure(hero=HAWK, reduce=True), errors.ReduceNeedsSessionOff, ()),
    (TakeDaysOff(hero=HAWK, days=0), errors.DaysOutOfRange, ()),
    (EndSession(), errors.ExposureRollMissing, ()),
]


@pytest.mark.parametrize(
    ("command", "error", "faces"),
    [pytest.param(*case, id=f"{type(case[0]).__name__}-{case[1].__name__}") for case in BAD],
)
def test_bad_commands_are_refused_and_append_nothing(
    engine: Engine, command: Command, error: type[Exception], faces: tuple[int, ...]
) -> None:
    """Each bad command is refused with its typed error; the store is unchanged."""
    table(engine)
    refused(engine, command, error, faces=faces)  # type: ignore[type-var]


# The reason each scenario of the catalogue (tests/golden/test_catalogue_the_code.py) is refused
# with: the rule it names and the data it carries (who, what it costs, what is held, what to run).
REASONS: dict[type[DomainError], str] = {
    errors.MissingHeroField: (
        "a hero needs a Profession (Hero Creation: every detail the Exposure ladder can reveal)"
    ),
    errors.ObjectiveScoreOutOfRange: "an Objective score is 1 to 10, got 11 (TC-A7)",
    errors.ScoreOutOfRange: (
        "Exposure runs from 0 to 10, got 11 (Dealing with Exposure / Popularity)"
    ),
    errors.NegativeRewardPoints: "Reward Points cannot be negative, got -1 (Reward Points)",
    errors.HeroNameTaken: (
        "'The Hawk' is already a character's name in this campaign (Hero Creation)"
    ),
    errors.UnknownDetail: (
        "'shoe size' is not a detail the public can learn; one of: physical-description, "
        "code-name, modus-operandi, objective, advantage, weakness, profession, motivation, "
        "secret-identity (Dealing with Exposure)"
    ),
    errors.DetailAlreadyPublic: (
        "The Hawk's profession is public already; a detail is revealed once (Dealing with "
        "Exposure: it cannot be 'unrevealed')"
    ),
    errors.RevealChoiceUnused: (
        "1 detail(s) chosen to reveal but only 0 new Exposure level(s) reveal one (one detail per "
        "Exposure point above 1)"
    ),
    errors.MotivationRollPending: (
        "The Hawk must first roll Motivation (or decline) for 'slippery roof' (Using Motivation)"
    ),
    errors.MotivationNotRequired: (
        "The Hawk has no task that the GM ruled needs Motivation; rule one with `campaign "
        "challenge ... --needs-motivation` (Unopposed Challenges)"
    ),
    errors.DiceOutOfRange: (
        "The Hawk rolls between one die and their current Motivation (3), got 4 (Using Motivation)"
    ),
    errors.InsufficientMotivation: (
        "The Hawk would pay 4 Motivation (a point for each extra reaction die) but has 3 (Dealing "
        "with Popularity)"
    ),
    errors.StepOutOfRange: "the Ability Sequence has steps 1 to 5, got 6 (The Ability Sequence)",
    errors.NoMotivationScore: (
        "the crook has no Motivation score and cannot roll Motivation dice (Contested Challenges)"
    ),
    errors.HigherAptitudeNeedNotRoll: (
        "The Hawk is on the higher step and wins by aptitude unless the other side bids "
        "Motivation (Contested Challenges)"
    ),
    errors.ContestWithSelf: "The Hawk cannot contest against themselves",
    errors.StepsNotRuled: (
        "no step on the Ability Sequence is ruled for The Hawk and the crook in 't': rule it with "
        "`campaign step` or give it (--step, --vs-step) (Contested Challenges)"
    ),
    errors.StepRulingContradicted: (
        "The Hawk's step for 't' is ruled 2 (a relevant Profession); step 4 contradicts it: rule "
        "it again with `campaign step` (The Ability Sequence)"
    ),
    errors.TraitMissing: (
        "the crook has no Profession, so none is relevant to 't' (The Ability Sequence)"
    ),
    errors.NpcOnRoster: (
        "the crook is an NPC of this campaign with its Motivation tracked: name it without --npc "
        "(Contested Challenges)"
    ),
    errors.MotivationOutOfRange: (
        "a Motivation score is 0 or more, got -1; leave it out for a person without one "
        "(Contested Challenges)"
    ),
    errors.InsufficientRewardPoints: (
        "a Motivation die costs 25 Reward Points; The Hawk has 0 (Reward Points)"
    ),
    errors.CriticalProblemNotSolvable: (
        "critical problems (such as organized crime) cannot be stamped out using Reward Points "
        "(Reward Points)"
    ),
    errors.ProblemNotOpen: (
        "The Hawk solved no problem 'the park' that still holds (solved: none) (Reward Points: "
        "the solution is rarely permanent)"
    ),
    errors.ObjectiveUnchanged: (
        "The Hawk's Objective is already 'catch criminals' (6) (Altering Objectives)"
    ),
    errors.DaysOutOfRange: (
        "days off are counted in whole days, at least 1, got 0 (Regaining Motivation)"
    ),
    errors.ExposureZero: (
        "The Hawk's Exposure is 0 already; it cannot be lowered (Dealing with Exposure)"
    ),
    errors.PopularityZero: (
        "The Hawk has no Popularity to give up for lower Exposure (Dealing with Exposure)"
    ),
    errors.ExposureAlreadySettled: (
        "The Hawk's end-of-session Exposure for session 1 is recorded already (Dealing with "
        "Exposure: one roll per session)"
    ),
    errors.ExposureRollMissing: (
        "session 1 cannot end before the Exposure roll of The Hawk: run `campaign exposure HERO` "
        "(or --off for a session taken off) (Dealing with Exposure)"
    ),
    errors.MoFollowedOnSessionOff: (
        "The Hawk took the session off, so no MO was followed and nothing is rolled (Dealing with "
        "Exposure)"
    ),
    errors.ReduceNeedsSessionOff: (
        "only a session taken off may lower Exposure instead of rolling (use --off --reduce) "
        "(Dealing with Exposure)"
    ),
    errors.MoAlreadyFollowed: "the GM already ruled that The Hawk followed their MO in session 1",
    errors.AugmentNotJustified: (
        "extra reaction dice need the GM's ruling that The Hawk's Profession or Advantage helps "
        "(say how) (Dealing with Popularity)"
    ),
    errors.AugmentPointlessAtExtremes: (
        "with Popularity 10 the reaction is settled without a roll; no Motivation can be spent on "
        "it (Dealing with Popularity)"
    ),
}


@pytest.mark.parametrize("error", list(REFUSALS), ids=lambda cls: cls.code)
def test_each_refusal_reads_its_rule_and_data(engine: Engine, error: type[DomainError]) -> None:
    """A refusal names the rule it enforces and what the GM needs to set things right
    (DIGEST 0.3: errors carry data); nothing is appended (R-TC-01..14 errors)."""
    hero, given, command, faces = REFUSALS[error]
    table(engine, **hero)
    for step, dice in given:
        engine.execute("Lab", step, dice=DiceSpec(faces=dice))
    raised = refused(engine, command, error, faces=faces)
    assert REASONS[error] == raised.reason


@pytest.mark.parametrize(
    ("command", "what"),
    [
        pytest.param(CreateNpc(character="  "), "the NPC's name", id="npc-name"),
        pytest.param(Blab(hero=HAWK, details=("weakness",), confidant=" "), "who blabbed", id="b"),
        pytest.param(Blab(hero=HAWK, details=(), confidant="Lois"), "the details blabbed", id="d"),
        pytest.param(
            RollReaction(hero=HAWK, audience=" "),
            "who reacts (the public, the media, the authorities)",
            id="audience",
        ),
        pytest.param(RuleChallenge(hero=HAWK, task="  "), "the task", id="task"),
        pytest.param(
            SolveProblem(hero=HAWK, description=" ", scale=Scale.MINOR),
            "the problem's description",
            id="problem",
        ),
    ],
)
def test_an_empty_text_names_what_is_missing(engine: Engine, command: Command, what: str) -> None:
    """EmptyText says which text the command left empty (DIGEST 0.3)."""
    table(engine, reward_points=25)
    error = refused(engine, command, EmptyText)
    assert f"{what} must not be empty" == error.reason
