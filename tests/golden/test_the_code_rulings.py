"""Golden tests for The Code's GM rulings of issue 18, each citing its DIGEST rule: the Ability
Sequence as rulings per character and task (§4.1, R-TC-02, R-TC-04, TC-A22), NPCs as characters
whose Motivation contests spend (§4.1 TcNpc, R-TC-04), a solved problem coming back (R-TC-08),
the reaction roll's ``InsufficientMotivation`` (R-TC-13) and Popularity at its cap (TC-A24).

Each case runs through the in-memory engine in campaign 'Lab' with Mitch, the Hawk (as in
``test_the_code``); refusals prove that nothing was appended.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import LaterRulingsDepend, NotAPlayerCharacter
from domain.lifecycle import EndSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import (
    AccomplishObjective,
    CreateNpc,
    RecurProblem,
    RollExposure,
    RollReaction,
    RuleAbilityStep,
    RuleChallenge,
    RuleConduct,
    SettleContest,
    SolveProblem,
    TakeDaysOff,
)
from domain.rulesets.the_code.tables import ContestBy, NeedReason, Scale, TaskOutcome
from engine import Engine
from tests.conftest import refused
from tests.golden.test_the_code import HAWK, of, run, sheet, table

SPOT = "spot the criminal"
CROOK = "the criminal"
GRIN = "Mister Grin"


def crook(engine: Engine) -> None:
    """The criminal of the text: a Professional with the Advantage of Stealth, no Motivation."""
    run(engine, CreateNpc(character=CROOK, profession="burglar", advantages=("Stealth",)))


def grin(engine: Engine, motivation: int | None = 4) -> None:
    """A villain with a Motivation score the campaign tracks."""
    npc = CreateNpc(
        character=GRIN,
        profession="mob accountant",
        advantages=("nerves of steel",),
        weakness="vanity",
        motivation=motivation,
    )
    run(engine, npc)


def rule(engine: Engine, who: str, task: str, **calls: bool) -> tc.AbilityStepRuled:
    (ruled,) = of(
        tc.AbilityStepRuled, run(engine, RuleAbilityStep(character=who, task=task, **calls))
    )
    return ruled


def contest(**fields: Any) -> SettleContest:
    return SettleContest(**{"task": SPOT, "hero": HAWK, "opponent": CROOK, **fields})


# --- The Ability Sequence as GM rulings (DIGEST 4.1, TC-A22) --------------------------------------


@pytest.mark.parametrize(
    ("calls", "step"),
    [
        pytest.param({"profession": True, "advantage": True}, 1, id="4.1-step-1-both"),
        pytest.param({"profession": True}, 2, id="4.1-step-2-profession"),
        pytest.param({"advantage": True}, 3, id="4.1-step-3-advantage"),
        pytest.param({}, 4, id="4.1-step-4-neither"),
        pytest.param({"profession": True, "weakness": True}, 5, id="TC-A22-weakness-overrides"),
    ],
)
def test_the_gm_rules_a_step_from_the_relevant_traits(
    engine: Engine, calls: dict[str, bool], step: int
) -> None:
    """AbilityStepRuled carries the calls and the step they make; a Weakness that applies puts
    the hero on step 5 whatever else is relevant (DIGEST 4.1, TC-A22)."""
    table(engine)
    ruled = rule(engine, HAWK, SPOT, **calls)
    assert (step, None) == (ruled.step, ruled.previous)
    assert [(SPOT, step)] == [(s.task, s.step) for s in sheet(engine).steps]


def test_a_new_ruling_for_the_task_replaces_the_old_one(engine: Engine) -> None:
    """Ruled again (the task named in another case), the step replaces the first and records
    it as ``previous`` (DIGEST 4.1)."""
    table(engine)
    rule(engine, HAWK, SPOT, profession=True)
    again = rule(engine, HAWK, "Spot the Criminal ", advantage=True)
    assert (3, 2) == (again.step, again.previous)
    assert [3] == [s.step for s in sheet(engine).steps]


@pytest.mark.parametrize("face", [pytest.param(7, id="G-TC-05-ruled-steps-die-7")])
def test_the_hawk_contest_reads_the_ruled_steps(engine: Engine, face: int) -> None:
    """G-TC-05 with the steps ruled, not given: the Hawk (PI, step 2) against the criminal
    (Professional with Stealth, step 1, an NPC of the campaign without Motivation) bids one die
    at x2 and spots him on a 7 (R-TC-04)."""
    table(engine)
    crook(engine)
    rule(engine, HAWK, SPOT, profession=True)
    rule(engine, CROOK, SPOT, profession=True, advantage=True)
    events = run(engine, contest(dice=1), face)
    (resolved,) = of(tc.ContestResolved, events)
    assert (HAWK, ContestBy.UNOPPOSED_ROLL) == (resolved.winner, resolved.by)
    assert [(2, 2, 2), (1, 1, 0)] == [(s.step, s.multiplier, s.cost) for s in resolved.sides]
    assert 1 == sheet(engine).motivation


def test_a_step_ruling_is_a_ruling_the_gm_can_correct(engine: Engine) -> None:
    """DIGEST 0.1: GM calls can be contested and undone. Undoing the criminal's step leaves the
    contest that read it without one, so a plain undo is refused; amended to step 2 (no
    Stealth), the contest is decided again with its own die: same step, no bid, the 7 wins and
    costs a point as a winning die (R-TC-04)."""
    table(engine)
    crook(engine)
    rule(engine, HAWK, SPOT, profession=True)
    calls = RuleAbilityStep(character=CROOK, task=SPOT, profession=True, advantage=True)
    step = engine.execute("Lab", calls).number
    run(engine, contest(dice=1), 7)
    with pytest.raises(LaterRulingsDepend):
        engine.undo("Lab", step, reason="he is no burglar")
    engine.amend(
        "Lab", step, {"advantage": "false"}, reason="no Stealth in the rain", redecide=True
    )
    assert [2] == [s.step for s in sheet(engine, CROOK).steps]
    assert 2 == sheet(engine).motivation


def test_a_contest_without_steps_is_refused(engine: Engine) -> None:
    """StepsNotRuled names every side with neither a ruled nor a given step (R-TC-04)."""
    table(engine)
    crook(engine)
    rule(engine, HAWK, SPOT, profession=True)
    error = refused(engine, contest(dice=1), errors.StepsNotRuled, faces=(7,))
    assert CROOK == error.data["names"]
    error = refused(engine, contest(task="chase him", dice=1), errors.StepsNotRuled, faces=(7,))
    assert f"{HAWK} and {CROOK}" == error.data["names"]


def test_a_given_step_must_agree_with_the_ruled_one(engine: Engine) -> None:
    """A step given in the contest stands where nothing is ruled and must match a ruling where
    one is (R-TC-04: the sides carry their step; DIGEST 4.1: the step is the GM's ruling)."""
    table(engine)
    crook(engine)
    rule(engine, HAWK, SPOT, profession=True)
    refused(
        engine,
        contest(step=4, opponent_step=1, dice=1),
        errors.StepRulingContradicted,
        faces=(7,),
    )
    (resolved,) = of(tc.ContestResolved, run(engine, contest(step=2, opponent_step=1, dice=1), 7))
    assert [2, 1] == [s.step for s in resolved.sides]


@pytest.mark.parametrize(
    ("calls", "outcome", "weakness"),
    [
        pytest.param({}, TaskOutcome.SUCCEEDED, False, id="G-TC-01-ruled-step-4-automatic"),
        pytest.param({"weakness": True}, None, True, id="G-TC-02-ruled-step-5-weakness"),
    ],
)
def test_an_unopposed_task_reads_the_ruled_step(
    engine: Engine, calls: dict[str, bool], outcome: TaskOutcome | None, weakness: bool
) -> None:
    """The fire escape with no climbing skill (step 4) succeeds at once; ruled step 5 (the bum
    leg applies) brings the Weakness into play and needs Motivation (R-TC-02, TC-A22)."""
    table(engine)
    rule(engine, HAWK, "scale the fire escape", **calls)
    events = run(engine, RuleChallenge(hero=HAWK, task="scale the fire escape"))
    outcomes = [e.outcome for e in of(tc.UnopposedActionResolved, events)]
    assert ([outcome] if outcome else []) == outcomes
    assert weakness == bool(of(tc.WeaknessCameIntoPlay, events))
    assert weakness == bool(of(tc.MotivationRequired, events))


@pytest.mark.parametrize(
    ("calls", "command"),
    [
        pytest.param(
            {"profession": True},
            RuleChallenge(hero=HAWK, task="t", needs_motivation=NeedReason.SPECIFIC_SKILL_MISSING),
            id="R-TC-02-skill-missing-vs-relevant-profession",
        ),
        pytest.param({}, RuleChallenge(hero=HAWK, task="t", weakness=True), id="TC-A22-weakness"),
    ],
)
def test_a_challenge_that_contradicts_the_ruled_step_is_refused(
    engine: Engine, calls: dict[str, bool], command: RuleChallenge
) -> None:
    """A ruled relevant Profession leaves no specific skill missing; a Weakness the step says
    does not apply cannot come into play (R-TC-02, TC-A22)."""
    table(engine)
    rule(engine, HAWK, "t", **calls)
    refused(engine, command, errors.StepRulingContradicted)


def test_a_trait_the_character_lacks_cannot_be_relevant(engine: Engine) -> None:
    """The criminal has no Weakness to apply (DIGEST 4.1 TcNpc: weakness optional)."""
    table(engine)
    crook(engine)
    refused(engine, RuleAbilityStep(character=CROOK, task=SPOT, weakness=True), errors.TraitMissing)


# --- NPCs with a tracked Motivation (DIGEST 4.1 TcNpc, R-TC-04) -----------------------------------


def test_an_npc_spends_motivation_across_contests(engine: Engine) -> None:
    """G-TC-08 against an NPC: ties at 9 cost each side 1, the NPC's 7 is a winning die (-1):
    Mister Grin 4 -> 2. His next contest starts from 2, so three dice are refused; a day off
    brings a point back (R-TC-04, R-TC-05)."""
    table(engine, objective_score=8)
    grin(engine)
    rule(engine, HAWK, "stare down")
    rule(engine, GRIN, "stare down")
    duel = SettleContest(task="stare down", hero=HAWK, opponent=GRIN, dice=2, opponent_dice=3)
    events = run(engine, duel, 9, 4, 9, 7, 2)
    (resolved,) = of(tc.ContestResolved, events)
    assert (GRIN, (9,)) == (resolved.winner, resolved.ties)
    assert (3, 2) == (sheet(engine).motivation, sheet(engine, GRIN).motivation)
    again = SettleContest(task="stare down", hero=HAWK, opponent=GRIN, dice=1, opponent_dice=3)
    error = refused(engine, again, errors.InsufficientMotivation, faces=(5, 5, 5, 5))
    assert (GRIN, 2) == (error.data["name"], error.data["current"])
    run(engine, TakeDaysOff(hero=GRIN))
    assert (3, 4) == (sheet(engine, GRIN).motivation, sheet(engine, GRIN).max_motivation)


@pytest.mark.parametrize(
    ("faces", "winner"),
    [
        pytest.param((1, 1, 1), GRIN, id="G-TC-31-npc-without-motivation-1-1-1"),
        pytest.param((1, 1, 2), HAWK, id="G-TC-31-npc-without-motivation-highest-2"),
    ],
)
def test_against_an_npc_without_motivation_only_a_highest_1_fails(
    engine: Engine, faces: tuple[int, ...], winner: str
) -> None:
    """The NPC of the campaign with no Motivation score: the Hawk fails only if his highest die
    is 1 (R-TC-04 step 4); nothing is spent from the NPC."""
    table(engine)
    grin(engine, motivation=None)
    shove = SettleContest(task="shove", hero=HAWK, step=2, opponent=GRIN, opponent_step=2, dice=3)
    (resolved,) = of(tc.ContestResolved, run(engine, shove, *faces))
    assert (winner, None) == (resolved.winner, resolved.sides[1].motivation)
    assert not sheet(engine, GRIN).has_motivation


def test_an_npc_without_motivation_cannot_roll_or_rest(engine: Engine) -> None:
    """NoMotivationScore: a person without a Motivation score rolls no dice and regains none."""
    table(engine)
    grin(engine, motivation=None)
    shove = SettleContest(
        task="shove", hero=HAWK, step=2, opponent=GRIN, opponent_step=2, opponent_dice=1
    )
    refused(engine, shove, errors.NoMotivationScore, faces=(5,))
    refused(engine, TakeDaysOff(hero=GRIN), errors.NoMotivationScore)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(RollExposure(hero=GRIN), id="no-exposure"),
        pytest.param(AccomplishObjective(hero=GRIN), id="no-objective"),
        pytest.param(RuleChallenge(hero=GRIN, task="t"), id="no-unopposed-motivation-task"),
        pytest.param(RuleConduct(hero=GRIN, violent=True, secretive=False), id="no-popularity"),
    ],
)
def test_an_npc_is_no_hero(engine: Engine, command: Any) -> None:
    """An NPC has traits and Motivation only: hero rulings refuse it (DIGEST 4.1 TcNpc)."""
    table(engine)
    grin(engine)
    refused(engine, command, NotAPlayerCharacter)


def test_the_session_ends_without_an_npc_exposure_roll(engine: Engine) -> None:
    """Only heroes roll Exposure at the end of a session (R-TC-10)."""
    table(engine)
    grin(engine)
    run(engine, RollExposure(hero=HAWK))
    engine.execute("Lab", EndSession())
    assert engine.campaign("Lab").session is None


def test_an_npc_of_the_campaign_is_not_a_passer_by(engine: Engine) -> None:
    """--npc is for an NPC the campaign does not track; Mister Grin's Motivation is tracked."""
    table(engine)
    grin(engine)
    passer = SettleContest(
        task="t", hero=HAWK, step=2, opponent=GRIN, opponent_step=2, npc=True, npc_motivation=9
    )
    refused(engine, passer, errors.NpcOnRoster)


def test_npc_names_and_scores_are_checked(engine: Engine) -> None:
    """An NPC's name is free on the roster; its Motivation score is not negative."""
    table(engine)
    refused(engine, CreateNpc(character=HAWK), errors.HeroNameTaken)
    refused(engine, CreateNpc(character="Ms. Minus", motivation=-1), errors.MotivationOutOfRange)


# --- A solved problem comes back (R-TC-08) -------------------------------------------------------


def test_a_solved_problem_recurs_and_can_be_solved_again(engine: Engine) -> None:
    """CommunityProblemRecurred: the GM records that the park's solution did not last; nothing
    it gained is taken back, and the hero may spend Reward Points on it again (R-TC-08)."""
    table(engine, reward_points=60)
    run(engine, SolveProblem(hero=HAWK, description="the park", scale=Scale.MINOR), 1, 3, 5, 7)
    before = sheet(engine)
    events = run(engine, RecurProblem(hero=HAWK, description="The Park", note="dealers are back"))
    (recurred,) = of(tc.CommunityProblemRecurred, events)
    assert ("the park", Scale.MINOR, 1, 1) == (
        recurred.description,
        recurred.scale,
        recurred.solved_in,
        recurred.session,
    )
    after = sheet(engine)
    assert (before.exposure, before.popularity, before.reward_points) == (
        after.exposure,
        after.popularity,
        after.reward_points,
    )
    refused(engine, RecurProblem(hero=HAWK, description="the park"), errors.ProblemNotOpen)
    run(engine, SolveProblem(hero=HAWK, description="the park", scale=Scale.MINOR), 1, 3, 5, 7, 9)
    assert [True, False] == [p.recurred for p in sheet(engine).problems]


def test_only_a_solved_problem_can_recur(engine: Engine) -> None:
    """ProblemNotOpen: nothing was solved on Elm Street."""
    table(engine)
    refused(engine, RecurProblem(hero=HAWK, description="Elm Street"), errors.ProblemNotOpen)


# --- The reaction roll (R-TC-13) and Popularity at its cap (TC-A24) -------------------------------


def test_extra_reaction_dice_beyond_motivation_are_insufficient_motivation(engine: Engine) -> None:
    """R-TC-13 names InsufficientMotivation: 4 extra dice cost 4 of Mitch's 3 points; 3 do."""
    table(engine)
    too_many = RollReaction(hero=HAWK, audience="a cop", extra_dice=4, justification="ex-cop")
    error = refused(engine, too_many, errors.InsufficientMotivation, faces=(1, 1, 1, 1, 1))
    assert (4, 3) == (error.data["cost"], error.data["current"])
    enough = RollReaction(hero=HAWK, audience="a cop", extra_dice=3, justification="ex-cop")
    run(engine, enough, 9, 9, 9, 4)
    assert 0 == sheet(engine).motivation


def test_popularity_at_ten_records_no_change(engine: Engine) -> None:
    """A minor problem at Popularity 10 and an even gain die change nothing, and no
    PopularityChanged "10 -> 10" is recorded (TC-A24, R-TC-08, R-TC-12)."""
    table(engine, popularity=10, reward_points=25)
    events = run(engine, SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR), *[2] * 10)
    assert [] == of(tc.PopularityChanged, events)
    assert [1] == [e.delta for e in of(tc.PopularityRolled, events)]
    assert 10 == sheet(engine).popularity


def test_popularity_at_zero_records_no_loss(engine: Engine) -> None:
    """A violent hero at Popularity 0 rolls no dice, so no even: -1 stops at the floor, and no
    "0 -> 0" is recorded (TC-A15, TC-A24, R-TC-12)."""
    table(engine, popularity=0, violent=True)
    events = run(engine, AccomplishObjective(hero=HAWK), 1, 1, 1)
    assert [-1] == [e.delta for e in of(tc.PopularityRolled, events)]
    assert [] == of(tc.PopularityChanged, events)
