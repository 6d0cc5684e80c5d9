"""The Code's rules at the edges mutation testing found unguarded (issue 18): who wins a contest
when only one side rolls or nobody does, what each side pays, a hero out of Motivation, and the
GM's calls on a task. Each test states what the GM sees (events, refusals with their data)."""

from __future__ import annotations

from uuid import uuid4

import attrs
import pytest

from domain.commands import Command
from domain.errors import DomainError, EmptyText, NotAPlayerCharacter, ReplayMismatch
from domain.events import Event
from domain.lifecycle import EndSession, StartSession
from domain.rulesets.the_code import RULESET, errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.commands import (
    AccomplishObjective,
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
    RuleConduct,
    RuleWeaknessInPlay,
    SettleContest,
    SolveProblem,
    TakeDaysOff,
    UseMotivation,
)
from domain.rulesets.the_code.rolls import Settled, settle
from domain.rulesets.the_code.ruling import suggestion
from domain.rulesets.the_code.settings import TieRemoval
from domain.rulesets.the_code.state import evolve as the_code_evolve
from domain.rulesets.the_code.tables import (
    LADDER,
    STEPS,
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
    clamp,
    find_detail,
    ladder_detail,
)
from engine import Engine
from engine.dice_sources import DiceSpec
from tests.conftest import refused
from tests.golden.test_catalogue_the_code import REFUSALS
from tests.golden.test_the_code import HAWK, MITCH, of, run, sheet, spend_motivation, table

KESTREL = "Kestrel"


def rivals(engine: Engine) -> None:
    """The Hawk and Kestrel, both heroes at Motivation 4 (Objective 8)."""
    table(engine, objective_score=8)
    engine.execute(
        "Lab",
        CreateHero(**{**MITCH, "code_name": KESTREL, "player": "eli", "objective_score": 8}),
    )


def duel(step: int, opponent_step: int, dice: int = 0, opponent_dice: int = 0) -> SettleContest:
    return SettleContest(
        task="race to the roof",
        hero=HAWK,
        step=step,
        dice=dice,
        opponent=KESTREL,
        opponent_step=opponent_step,
        opponent_dice=opponent_dice,
    )


def resolved(engine: Engine, command: SettleContest, *faces: int) -> tc.ContestResolved:
    (contest,) = of(tc.ContestResolved, run(engine, command, *faces))
    return contest


def motivations(engine: Engine) -> tuple[int, int]:
    return sheet(engine).motivation, sheet(engine, KESTREL).motivation


# --- Contests: aptitude, one roller, costs (R-TC-04) ----------------------------------------------


@pytest.mark.parametrize(
    ("step", "opponent_step", "winner", "by"),
    [
        pytest.param(1, 3, HAWK, ContestBy.APTITUDE, id="R-TC-04-1-hero-higher-aptitude"),
        pytest.param(3, 1, KESTREL, ContestBy.APTITUDE, id="R-TC-04-1-opponent-higher-aptitude"),
        pytest.param(2, 2, None, ContestBy.STALEMATE, id="R-TC-04-1-same-step-no-dice"),
    ],
)
def test_without_dice_the_lower_step_wins_or_nobody(
    engine: Engine, step: int, opponent_step: int, winner: str | None, by: ContestBy
) -> None:
    """Nobody rolls: the lower step number wins by aptitude, whichever side it is; on the same
    step it is a stalemate. No dice, nothing spent; the side further down is shown the x(Δ+1)
    it would have paid to bid (R-TC-04 steps 1 and 2)."""
    rivals(engine)
    result = engine.execute("Lab", duel(step, opponent_step))
    (contest,) = of(tc.ContestResolved, result.events)
    assert (winner, by, ()) == (contest.winner, contest.by, result.dice)
    multipliers = (max(0, step - opponent_step) + 1, max(0, opponent_step - step) + 1)
    assert [(step, multipliers[0], 0, 0), (opponent_step, multipliers[1], 0, 0)] == [
        (s.step, s.multiplier, s.upfront, s.cost) for s in contest.sides
    ]
    assert [] == of(tc.MotivationSpent, result.events)
    assert (4, 4) == motivations(engine)


@pytest.mark.parametrize(
    ("faces", "winner", "cost"),
    [
        pytest.param((7, 3), KESTREL, 2, id="R-TC-04-4-opponent-rolls-alone-and-wins"),
        pytest.param((1, 1), HAWK, 0, id="R-TC-04-4-opponent-rolls-alone-highest-1"),
    ],
)
def test_the_opponent_rolling_alone_fails_only_on_a_highest_one(
    engine: Engine, faces: tuple[int, int], winner: str, cost: int
) -> None:
    """Same step, only Kestrel rolls: she wins unless her highest die is 1, and every winning die
    (all of them, against no dice) costs her a point; the Hawk pays nothing (R-TC-04 steps 3,
    4 and 6)."""
    rivals(engine)
    contest = resolved(engine, duel(2, 2, opponent_dice=2), *faces)
    assert (winner, ContestBy.UNOPPOSED_ROLL) == (contest.winner, contest.by)
    hawk, kestrel = contest.sides
    assert ((), 0) == (hawk.dice, hawk.cost)
    assert (faces, faces if cost else (), cost) == (kestrel.dice, kestrel.winning, kestrel.cost)
    assert (4, 4 - cost) == motivations(engine)


def test_the_hero_rolling_alone_pays_for_his_winning_dice(engine: Engine) -> None:
    """Same step, only the Hawk rolls 8, 2 and wins: both dice are winning dice, so he pays 2,
    spent as contest dice, not as a bid (R-TC-04 step 6)."""
    rivals(engine)
    events = run(engine, duel(2, 2, dice=2), 8, 2)
    (contest,) = of(tc.ContestResolved, events)
    assert (HAWK, (8, 2), 2) == (contest.winner, contest.sides[0].winning, contest.sides[0].cost)
    spent = of(tc.MotivationSpent, events)
    assert [(2, MotivationUse.CONTEST, 4, 2)] == [
        (e.amount, e.use, e.before, e.after) for e in spent
    ]


@pytest.mark.parametrize(
    ("face", "winner"),
    [
        pytest.param(1, HAWK, id="R-TC-04-2-opponent-bids-and-rolls-1"),
        pytest.param(6, KESTREL, id="R-TC-04-2-opponent-bids-and-rolls-6"),
    ],
)
def test_the_opponent_on_the_lower_step_pays_the_bid_up_front(
    engine: Engine, face: int, winner: str
) -> None:
    """Kestrel two steps down bids one die at x3: she pays 3 up front, win or lose, and nothing
    more for a winning die; the Hawk, who does not roll, pays nothing (R-TC-04 step 2, TC-A5)."""
    rivals(engine)
    events = run(engine, duel(1, 3, opponent_dice=1), face)
    (contest,) = of(tc.ContestResolved, events)
    assert (winner, ContestBy.UNOPPOSED_ROLL) == (contest.winner, contest.by)
    assert [(1, 0, 0), (3, 3, 3)] == [(s.multiplier, s.upfront, s.cost) for s in contest.sides]
    spent = of(tc.MotivationSpent, events)
    assert [(3, MotivationUse.APTITUDE_BID, 4, 1)] == [
        (e.amount, e.use, e.before, e.after) for e in spent
    ]
    assert (4, 1) == motivations(engine)


def test_a_bid_against_a_rolling_opponent_still_costs_only_the_bid(engine: Engine) -> None:
    """The Hawk one step down bids a die (x2) and Kestrel rolls one: 9 beats 3, and the Hawk's
    winning 9 costs nothing on top of the 2 he paid; Kestrel's losing die costs nothing (TC-A5)."""
    rivals(engine)
    contest = resolved(engine, duel(3, 2, dice=1, opponent_dice=1), 9, 3)
    assert (HAWK, ContestBy.MOTIVATION) == (contest.winner, contest.by)
    assert [(2, 2, (9,)), (0, 0, ())] == [(s.upfront, s.cost, s.winning) for s in contest.sides]
    assert (2, 4) == motivations(engine)


@pytest.mark.parametrize(
    ("command", "name"),
    [
        pytest.param(duel(1, 3, dice=1), HAWK, id="R-TC-04-hero-higher-step-rolls-alone"),
        pytest.param(duel(3, 1, opponent_dice=1), KESTREL, id="R-TC-04-opponent-higher-step"),
    ],
)
def test_the_higher_step_need_not_roll_alone(
    engine: Engine, command: SettleContest, name: str
) -> None:
    """The side with the better step wins by aptitude unless the other bids: rolling alone is
    refused, naming it (R-TC-04, TC-A6)."""
    rivals(engine)
    error = refused(engine, command, errors.HigherAptitudeNeedNotRoll, faces=(9,))
    assert {"name": name} == error.data


def test_the_higher_step_may_roll_against_a_bid(engine: Engine) -> None:
    """Against Kestrel's bid (one die, x2) the Hawk on the better step rolls at x1 and pays only
    for the dice that win (R-TC-04 step 3)."""
    rivals(engine)
    contest = resolved(engine, duel(1, 2, dice=2, opponent_dice=1), 8, 6, 5)
    assert (HAWK, (8, 6)) == (contest.winner, contest.sides[0].winning)
    assert [(1, 0, 2), (2, 2, 2)] == [(s.multiplier, s.upfront, s.cost) for s in contest.sides]
    assert (2, 2) == motivations(engine)


def test_a_negative_number_of_dice_is_refused(engine: Engine) -> None:
    """DiceOutOfRange: nobody rolls fewer than no dice (R-TC-04)."""
    rivals(engine)
    error = refused(engine, duel(2, 2, dice=-1), errors.DiceOutOfRange)
    assert {"name": HAWK, "dice": -1, "current": 4} == error.data


def test_a_bid_beyond_the_motivation_held_names_its_cost(engine: Engine) -> None:
    """Three dice one step down cost 6 of Kestrel's 4 points: InsufficientMotivation with the
    cost, the dice, the multiplier and what she holds (R-TC-04 step 2, G-TC-06)."""
    rivals(engine)
    error = refused(
        engine, duel(2, 3, opponent_dice=3), errors.InsufficientMotivation, faces=(1, 1, 1)
    )
    assert {
        "name": KESTREL,
        "cost": 6,
        "dice": 3,
        "multiplier": 2,
        "current": 4,
        "why": "3 dice x2",
        "rule": "Contested Challenges",
    } == error.data


def test_a_bid_of_exactly_the_motivation_held_is_accepted(engine: Engine) -> None:
    """Two dice one step down cost 4: exactly Kestrel's Motivation, so she may bid them."""
    rivals(engine)
    contest = resolved(engine, duel(2, 3, opponent_dice=2), 9, 9)
    assert (KESTREL, 4) == (contest.winner, contest.sides[1].cost)
    assert (4, 0) == motivations(engine)


# --- Unopposed tasks at Motivation 0, and declining (R-TC-02, R-TC-03, TC-A23) -----------------


def test_a_hero_out_of_motivation_fails_a_motivation_task_at_once(engine: Engine) -> None:
    """At Motivation 0 a task that needs Motivation fails as the GM rules it: nothing can be
    rolled, and no roll is left pending (TC-A23)."""
    table(engine)
    spend_motivation(engine, 3)
    assert 0 == sheet(engine).motivation
    events = run(
        engine,
        RuleChallenge(hero=HAWK, task="leap the gap", needs_motivation=NeedReason.BAD_CONDITIONS),
    )
    (required,) = of(tc.MotivationRequired, events)
    assert ("leap the gap", NeedReason.BAD_CONDITIONS) == (required.task, required.reason)
    (failed,) = of(tc.UnopposedActionResolved, events)
    assert ("leap the gap", TaskOutcome.FAILED, False) == (
        failed.task,
        failed.outcome,
        failed.rolled,
    )
    assert "no Motivation left to roll (TC-A23)" == failed.reason
    assert sheet(engine).pending_task is None
    refused(engine, UseMotivation(hero=HAWK, dice=1), errors.MotivationNotRequired, faces=(9,))


def test_a_hero_with_motivation_is_left_to_roll(engine: Engine) -> None:
    """With Motivation left the same call only requires the roll: the task waits for it."""
    table(engine)
    events = run(
        engine,
        RuleChallenge(hero=HAWK, task="leap the gap", needs_motivation=NeedReason.BAD_CONDITIONS),
    )
    assert [] == of(tc.UnopposedActionResolved, events)
    assert "leap the gap" == sheet(engine).pending_task


def test_declining_to_use_motivation_fails_the_task(engine: Engine) -> None:
    """Zero dice: the hero declines, the task fails without a roll and costs nothing (R-TC-03)."""
    table(engine)
    run(engine, RuleChallenge(hero=HAWK, task="vault", needs_motivation=NeedReason.BAD_CONDITIONS))
    result = engine.execute("Lab", UseMotivation(hero=HAWK, dice=0))
    (failed,) = of(tc.UnopposedActionResolved, result.events)
    assert ("vault", TaskOutcome.FAILED, False, "declined to use Motivation") == (
        failed.task,
        failed.outcome,
        failed.rolled,
        failed.reason,
    )
    assert ((), [], 3) == (
        result.dice,
        of(tc.MotivationRolled, result.events),
        sheet(engine).motivation,
    )
    assert sheet(engine).pending_task is None


@pytest.mark.parametrize(
    ("dice", "faces"),
    [pytest.param(4, (9, 9, 9, 9), id="R-TC-03-more-than-held"), pytest.param(-1, (), id="neg")],
)
def test_motivation_dice_beyond_what_is_held_are_refused(
    engine: Engine, dice: int, faces: tuple[int, ...]
) -> None:
    """DiceOutOfRange names the dice asked for and the Motivation held (R-TC-03)."""
    table(engine)
    run(engine, RuleChallenge(hero=HAWK, task="vault", needs_motivation=NeedReason.BAD_CONDITIONS))
    error = refused(engine, UseMotivation(hero=HAWK, dice=dice), errors.DiceOutOfRange, faces=faces)
    assert {"name": HAWK, "dice": dice, "current": 3} == error.data


def test_all_the_motivation_held_may_be_rolled(engine: Engine) -> None:
    """Three dice with Motivation 3: a 9, 9, 9 costs all three (R-TC-03, TC-A2)."""
    table(engine)
    run(engine, RuleChallenge(hero=HAWK, task="vault", needs_motivation=NeedReason.BAD_CONDITIONS))
    events = run(engine, UseMotivation(hero=HAWK, dice=3), 9, 9, 9)
    (spent,) = of(tc.MotivationSpent, events)
    assert (3, MotivationUse.DICE_ABOVE_5, 3, 0) == (
        spent.amount,
        spent.use,
        spent.before,
        spent.after,
    )
    (rolled,) = of(tc.MotivationRolled, events)
    assert ("vault", (9, 9, 9), 5, True, 3) == (
        rolled.task,
        rolled.dice,
        rolled.threshold,
        rolled.success,
        rolled.cost,
    )


def test_tied_dice_all_go_by_house_rule_in_a_contest(engine: Engine) -> None:
    """tieRemoval=all: 9,9,4 against 9,7 removes both of the Hawk's 9s and Kestrel's 9, so her 7
    beats his 4; pairwise (the default) his second 9 would win (TC-A4)."""
    engine.create_campaign("Lab", "the-code", house_rules={"tieRemoval": "all"})
    engine.execute("Lab", StartSession())
    for name, player in ((HAWK, "dana"), (KESTREL, "eli")):
        engine.execute(
            "Lab",
            CreateHero(**{**MITCH, "code_name": name, "player": player, "objective_score": 8}),
        )
    contest = resolved(engine, duel(2, 2, dice=3, opponent_dice=2), 9, 9, 4, 9, 7)
    assert (KESTREL, (9,)) == (contest.winner, contest.ties)
    assert [((9, 9), ()), ((9,), (7,))] == [(s.removed, s.winning) for s in contest.sides]
    assert (2, 2) == motivations(engine)


def test_a_campaign_npc_named_as_a_passer_by_is_refused_by_name(engine: Engine) -> None:
    """NpcOnRoster names the NPC whose Motivation the campaign tracks (R-TC-04)."""
    table(engine)
    run(engine, CreateNpc(character="Mister Grin", motivation=2))
    passer = SettleContest(
        task="t", hero=HAWK, step=2, opponent=" Mister Grin ", opponent_step=2, npc=True
    )
    error = refused(engine, passer, errors.NpcOnRoster)
    assert {"name": "Mister Grin"} == error.data


def test_a_passer_by_may_share_a_name_with_no_npc(engine: Engine) -> None:
    """A passer-by named like a hero (not an NPC of the campaign) is still a passer-by."""
    rivals(engine)
    passer = SettleContest(task="t", hero=HAWK, step=2, opponent=KESTREL, opponent_step=1, npc=True)
    contest = resolved(engine, passer)
    assert (KESTREL, None) == (contest.winner, contest.sides[1].character_id)


# --- The Ability Sequence ruled for a task (DIGEST 4.1, R-TC-02, TC-A22) --------------------------


@pytest.mark.parametrize(
    ("trait", "calls"),
    [
        pytest.param("Profession", {"profession": True}, id="4.1-no-profession"),
        pytest.param("Advantage", {"advantage": True}, id="4.1-no-advantage"),
        pytest.param("Weakness", {"weakness": True}, id="TC-A22-no-weakness"),
    ],
)
def test_a_trait_the_npc_lacks_is_named_in_the_refusal(
    engine: Engine, trait: str, calls: dict[str, bool]
) -> None:
    """TraitMissing names the character, the trait it lacks and the task (DIGEST 4.1)."""
    table(engine)
    run(engine, CreateNpc(character="a nobody"))
    command = RuleAbilityStep(character="a nobody", task="pick the lock", **calls)
    error = refused(engine, command, errors.TraitMissing)
    assert {"name": "a nobody", "trait": trait, "task": "pick the lock"} == error.data


@pytest.mark.parametrize(
    ("calls", "command", "given"),
    [
        pytest.param(
            {"advantage": True},
            RuleChallenge(hero=HAWK, task="t", needs_motivation=NeedReason.SPECIFIC_SKILL_MISSING),
            "a specific skill missing",
            id="R-TC-02-step-3-has-a-skill",
        ),
        pytest.param(
            {"profession": True},
            RuleChallenge(hero=HAWK, task="T ", weakness=True),
            "the Weakness in play",
            id="TC-A22-step-2-no-weakness",
        ),
    ],
)
def test_a_contradicted_step_is_named_in_the_refusal(
    engine: Engine, calls: dict[str, bool], command: RuleChallenge, given: str
) -> None:
    """StepRulingContradicted names the hero, the task as ruled, the step, what it means and the
    call that contradicts it (R-TC-02, TC-A22)."""
    table(engine)
    run(engine, RuleAbilityStep(character=HAWK, task="t", **calls))
    ruled = sheet(engine).steps[0].step
    error = refused(engine, command, errors.StepRulingContradicted)
    assert {
        "name": HAWK,
        "task": "t",
        "step": ruled,
        "meaning": STEPS[ruled],
        "given": given,
    } == error.data


@pytest.mark.parametrize(
    ("calls", "reason"),
    [
        pytest.param({"profession": True}, NeedReason.BAD_CONDITIONS, id="R-TC-02-rain-on-step-2"),
        pytest.param({}, NeedReason.SPECIFIC_SKILL_MISSING, id="R-TC-02-step-4-skill-missing"),
    ],
)
def test_calls_that_agree_with_the_ruled_step_need_motivation(
    engine: Engine, calls: dict[str, bool], reason: NeedReason
) -> None:
    """Bad conditions need Motivation whatever the step; a missing skill fits step 4 (R-TC-02)."""
    table(engine)
    run(engine, RuleAbilityStep(character=HAWK, task="t", **calls))
    events = run(engine, RuleChallenge(hero=HAWK, task="t", needs_motivation=reason))
    assert [reason] == [e.reason for e in of(tc.MotivationRequired, events)]
    assert [] == of(tc.WeaknessCameIntoPlay, events)


# --- Every refusal as the GM reads it (DIGEST 0.3) ----------------------------------------------

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


# --- The GM's calls on the session (R-TC-14) ----------------------------------------------------


def test_the_gm_rules_the_weakness_in_play(engine: Engine) -> None:
    """WeaknessCameIntoPlay for session 1 and the task; the Objective roll then adds the
    Weakness bonus die (R-TC-14, R-TC-06)."""
    table(engine)
    events = run(engine, RuleWeaknessInPlay(hero=HAWK, task=" chase on foot "))
    assert [tc.WeaknessCameIntoPlay(session=1, task="chase on foot")] == list(events)
    assert sheet(engine).flags_for(1).weakness
    rolled = of(tc.ObjectiveRewardRolled, run(engine, AccomplishObjective(hero=HAWK), *[1] * 7))
    assert [DieRole.BASE] * 3 + [DieRole.WEAKNESS_BONUS] == [d.role for d in rolled[0].dice]


@pytest.mark.parametrize(
    ("violent", "secretive"),
    [
        pytest.param(False, True, id="R-TC-12-secretive"),
        pytest.param(True, False, id="R-TC-12-violent"),
        pytest.param(False, False, id="R-TC-12-neither"),
    ],
)
def test_a_secretive_or_violent_hero_loses_popularity_on_no_even(
    engine: Engine, violent: bool, secretive: bool
) -> None:
    """ConductRuled records both calls; either one makes a roll with no even cost a point of
    Popularity, neither leaves it (R-TC-12, G-TC-28)."""
    table(engine)
    events = run(engine, RuleConduct(hero=HAWK, violent=violent, secretive=secretive))
    assert [tc.ConductRuled(violent=violent, secretive=secretive)] == list(events)
    assert (violent, secretive) == (sheet(engine).violent, sheet(engine).secretive)
    run(engine, AccomplishObjective(hero=HAWK), 1, 1, 1, 1, 5, 7)
    assert (2 if violent or secretive else 3) == sheet(engine).popularity


# --- Reward Points and the Objective (R-TC-07, R-TC-09) -------------------------------------------


@pytest.mark.parametrize(
    ("face", "raised"),
    [pytest.param(4, True, id="G-TC-15-even-raises"), pytest.param(7, False, id="odd-nothing")],
)
def test_buying_motivation_records_the_purchase(engine: Engine, face: int, raised: bool) -> None:
    """25 Reward Points are spent on Motivation, the die is recorded with its parity, and an
    even die raises the maximum by one (R-TC-09)."""
    table(engine, reward_points=30)
    events = run(engine, BuyMotivation(hero=HAWK), face)
    expected: list[object] = [
        tc.RewardPointsSpent(amount=25, purpose="Motivation", before=30, after=5),
        tc.MotivationPurchaseRolled(die=face, even=raised),
    ]
    if raised:
        expected.append(tc.MaxMotivationIncreased(before=3, after=4))
    assert expected == list(events)


def test_altering_only_the_description_keeps_the_score(engine: Engine) -> None:
    """A new description with the same score: the Objective changes, Motivation is reset to
    half the score (R-TC-07, TC-A8)."""
    table(engine)
    spend_motivation(engine, 2)
    events = run(engine, AlterObjective(hero=HAWK, objective=" protect the docks "))
    assert [
        tc.ObjectiveAltered(
            old_objective="catch criminals",
            old_score=6,
            new_objective="protect the docks",
            new_score=6,
        ),
        tc.MotivationReset(base_max=3, bonus_lost=0, before=1, current=3),
    ] == list(events)
    assert ("protect the docks", 6, 3) == (
        sheet(engine).objective,
        sheet(engine).objective_score,
        sheet(engine).motivation,
    )


def test_an_objective_needs_a_description(engine: Engine) -> None:
    """An empty description is refused as a missing Objective (R-TC-07)."""
    table(engine)
    error = refused(engine, AlterObjective(hero=HAWK, objective="  "), errors.MissingHeroField)
    assert (
        "a hero needs an Objective (Hero Creation: every detail the Exposure ladder can "
        "reveal)" == error.reason
    )


def test_the_same_objective_again_is_refused(engine: Engine) -> None:
    """ObjectiveUnchanged names the hero and the Objective as it stands (R-TC-07)."""
    table(engine)
    command = AlterObjective(hero=HAWK, objective="catch criminals", score=6)
    error = refused(engine, command, errors.ObjectiveUnchanged)
    assert {"name": HAWK, "objective": "catch criminals", "score": 6} == error.data


# --- Exposure and reactions (R-TC-11, R-TC-13) ----------------------------------------------------


def test_lowering_exposure_records_both_changes_in_the_session(engine: Engine) -> None:
    """Popularity 4 -> 3 and Exposure 5 -> 4, the peak kept, in session 1 (R-TC-11, G-TC-22)."""
    table(engine, exposure=5, popularity=4)
    events = run(engine, LowerExposure(hero=HAWK))
    assert [
        tc.PopularityChanged(before=4, after=3, delta=-1, cause=PopularityCause.LOWER_EXPOSURE),
        tc.ExposureChanged(
            before=5,
            after=4,
            delta=-1,
            cause=ExposureCause.LOWER_EXPOSURE,
            peak_before=5,
            peak_after=5,
            session=1,
        ),
    ] == list(events)


@pytest.mark.parametrize(
    ("popularity", "conflict", "favorable", "reason"),
    [
        pytest.param(
            0, False, False, "Popularity 0: always an unfavourable reaction", id="TC-A15-zero"
        ),
        pytest.param(
            10, False, True, "Popularity 10: always a favourable reaction", id="G-TC-26-ten"
        ),
        pytest.param(
            10,
            True,
            False,
            "Popularity 10, but an extreme personality conflict (GM ruling)",
            id="TC-A17-ten-with-conflict",
        ),
    ],
)
def test_an_extreme_popularity_settles_the_reaction_with_its_reason(
    engine: Engine, popularity: int, conflict: bool, favorable: bool, reason: str
) -> None:
    """No roll at Popularity 0 or 10; an extreme conflict the GM rules makes 10 unfavourable
    (R-TC-13, TC-A17)."""
    table(engine, popularity=popularity)
    command = RollReaction(hero=HAWK, audience=" the press ", conflict=conflict)
    events = run(engine, command)
    assert [tc.ReactionResolved(audience="the press", favorable=favorable, reason=reason)] == list(
        events
    )


# --- The state's own questions (DIGEST 4.1, 5.2) --------------------------------------------------


def test_the_unrevealed_details_follow_the_ladder(engine: Engine) -> None:
    """What the public does not know yet, in ladder order (DIGEST 4.1)."""
    table(engine, exposure=3)
    assert LADDER[2:] == sheet(engine).unrevealed()


def test_a_reveal_first_made_by_a_redecided_ruling_is_marked_rederived() -> None:
    """DIGEST 5.2: a detail a re-decided ruling reveals that the recorded one did not is marked
    ``rederived``; one it revealed before keeps its cause; other events are kept as they are."""
    hawk, kestrel = uuid4(), uuid4()

    def shown(detail: Detail) -> tc.DetailRevealed:
        return tc.DetailRevealed(
            detail=detail,
            level=2,
            exposure=2,
            cause=RevealCause.SESSION_ROLL,
            suggested=detail,
            gm_override=False,
            value="x",
            session=1,
            source="ExposureChanged",
        )

    day_off = tc.DayOffTaken(days=1)
    recorded = {hawk: (shown(Detail.PHYSICAL_DESCRIPTION), day_off)}
    decided = {
        hawk: (shown(Detail.PHYSICAL_DESCRIPTION), shown(Detail.CODE_NAME), day_off),
        kestrel: (shown(Detail.PHYSICAL_DESCRIPTION),),
    }
    again = RULESET.rederived(recorded, decided)
    assert [RevealCause.SESSION_ROLL, RevealCause.REDERIVED] == [e.cause for e in again[hawk][:2]]
    assert day_off == again[hawk][2]
    assert [RevealCause.REDERIVED] == [e.cause for e in again[kestrel]]


# --- Empty names and what they name (DIGEST 0.3) --------------------------------------------------


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


def test_an_npc_name_already_taken_names_the_rule(engine: Engine) -> None:
    """An NPC cannot take a hero's name: HeroNameTaken under the NPCs rule (DIGEST 4.1)."""
    table(engine)
    error = refused(engine, CreateNpc(character=f" {HAWK} "), errors.HeroNameTaken)
    assert f"'{HAWK}' is already a character's name in this campaign (NPCs)" == error.reason


def test_an_npc_may_have_a_motivation_score_of_zero(engine: Engine) -> None:
    """Motivation 0 is a score (an exhausted villain), not "no Motivation score" (DIGEST 4.1)."""
    table(engine)
    run(engine, CreateNpc(character="Mister Grin", motivation=0))
    grin = sheet(engine, "Mister Grin")
    assert (True, 0, 0) == (grin.has_motivation, grin.motivation, grin.max_motivation)


def test_a_problem_that_did_not_come_back_lists_those_that_hold(engine: Engine) -> None:
    """ProblemNotOpen lists the solved problems that still hold, not those that came back
    (R-TC-08)."""
    table(engine, reward_points=50)
    for where, dice in (("the park", 4), ("Elm Street", 5)):  # Popularity 4, then 5: all odd
        run(engine, SolveProblem(hero=HAWK, description=where, scale=Scale.MINOR), *[1] * dice)
    run(engine, RecurProblem(hero=HAWK, description="the park"))
    error = refused(engine, RecurProblem(hero=HAWK, description="the docks"), errors.ProblemNotOpen)
    assert {"name": HAWK, "description": "the docks", "known": "'Elm Street'"} == error.data


def test_extra_reaction_dice_beyond_motivation_carry_their_count(engine: Engine) -> None:
    """InsufficientMotivation for reaction dice says how many were asked (R-TC-13)."""
    table(engine)
    command = RollReaction(hero=HAWK, audience="a cop", extra_dice=4, justification="ex-cop")
    error = refused(engine, command, errors.InsufficientMotivation, faces=(1,) * 5)
    assert {
        "name": HAWK,
        "cost": 4,
        "dice": 4,
        "current": 3,
        "why": "a point for each extra reaction die",
        "rule": "Dealing with Popularity",
    } == error.data


def test_an_augmented_reaction_records_the_spend_and_the_roll(engine: Engine) -> None:
    """G-TC-25: one point of Motivation buys a die; the roll records the audience, the dice, the
    target, the augment and its justification (R-TC-13)."""
    table(engine, popularity=4)
    command = RollReaction(
        hero=HAWK, audience=" a cop ", extra_dice=1, justification=" ex-cop, knows the beat "
    )
    events = run(engine, command, 7, 3)
    assert [
        tc.MotivationSpent(amount=1, use=MotivationUse.POPULARITY_AUGMENT, before=3, after=2),
        tc.PopularityReactionRolled(
            audience="a cop",
            dice=(7, 3),
            target=4,
            augment=1,
            justification="ex-cop, knows the beat",
            favorable=True,
        ),
    ] == list(events)


# --- Contest sides as the GM names them (R-TC-04, TC-A22) -----------------------------------------


def test_the_opponent_is_named_as_the_campaign_knows_it(engine: Engine) -> None:
    """Named by the player (eli), Kestrel is recorded and wins under her own name."""
    rivals(engine)
    command = SettleContest(task="t", hero=HAWK, step=3, opponent="eli", opponent_step=1)
    assert (KESTREL, KESTREL) == (
        resolved(engine, command).winner,
        resolved(engine, command).sides[1].name,
    )


def test_a_nameless_passer_by_is_the_opponent(engine: Engine) -> None:
    """A passer-by given no name is recorded as "the opponent" (R-TC-04)."""
    table(engine)
    command = SettleContest(task="t", hero=HAWK, step=3, opponent=" ", opponent_step=1, npc=True)
    contest = resolved(engine, command)
    assert ("the opponent", "the opponent") == (contest.winner, contest.sides[1].name)


def test_a_weakness_puts_a_side_on_step_five(engine: Engine) -> None:
    """Step 5 is a step of the Ability Sequence: the hero whose Weakness applies may still bid,
    one die at x2 against step 4 (TC-A22, R-TC-04)."""
    rivals(engine)
    run(engine, RuleAbilityStep(character=HAWK, task="t", weakness=True))
    command = SettleContest(task="t", hero=HAWK, dice=1, opponent=KESTREL, opponent_step=4)
    contest = resolved(engine, command, 8)
    assert (HAWK, [(5, 2, 2), (4, 1, 0)]) == (
        contest.winner,
        [(s.step, s.multiplier, s.cost) for s in contest.sides],
    )
    given = SettleContest(task="u", hero=HAWK, step=5, opponent=KESTREL, opponent_step=5)
    assert ContestBy.STALEMATE == resolved(engine, given).by


def test_a_hero_at_motivation_zero_cannot_roll_in_a_contest(engine: Engine) -> None:
    """At Motivation 0 even one die at x1 is more than is held (R-TC-04, TC-A23)."""
    rivals(engine)
    run(engine, RuleChallenge(hero=HAWK, task="r", needs_motivation=NeedReason.BAD_CONDITIONS))
    run(engine, UseMotivation(hero=HAWK, dice=4), 6, 6, 6, 6)
    error = refused(engine, duel(2, 2, dice=1), errors.InsufficientMotivation, faces=(9,))
    assert (1, 0) == (error.data["cost"], error.data["current"])


def test_a_passer_by_without_motivation_rolling_no_dice_below_zero(engine: Engine) -> None:
    """DiceOutOfRange for a passer-by with no Motivation score counts what it holds as 0."""
    table(engine)
    command = SettleContest(
        task="t", hero=HAWK, step=2, opponent="a thug", opponent_step=2, npc=True, opponent_dice=-1
    )
    error = refused(engine, command, errors.DiceOutOfRange)
    assert {"name": "a thug", "dice": -1, "current": 0} == error.data


def test_an_ordinary_task_says_why_it_needs_no_roll(engine: Engine) -> None:
    """UnopposedActionResolved: succeeded without a roll, for a task suited to the hero, naming
    the step ruled for it (R-TC-02, G-TC-01)."""
    table(engine)
    events = run(engine, RuleChallenge(hero=HAWK, task="climb"))
    assert [
        tc.UnopposedActionResolved(
            task="climb",
            outcome=TaskOutcome.SUCCEEDED,
            rolled=False,
            reason="a suitable task for the hero",
        )
    ] == list(events)
    run(engine, RuleAbilityStep(character=HAWK, task="climb", advantage=True))
    (resolved_task,) = of(
        tc.UnopposedActionResolved, run(engine, RuleChallenge(hero=HAWK, task="climb"))
    )
    assert (
        "a suitable task for the hero (step 3: a relevant Advantage)",
        False,
    ) == (resolved_task.reason, resolved_task.rolled)


def test_a_passer_by_with_motivation_rolls_against_the_hero(engine: Engine) -> None:
    """A passer-by the GM gives Motivation 3 may roll: 7 beats the Hawk's 5, its one winning die
    is recorded, and nothing is spent from an untracked NPC (R-TC-04 steps 3 and 5)."""
    table(engine)
    command = SettleContest(
        task="t",
        hero=HAWK,
        step=2,
        dice=1,
        opponent="a thug",
        opponent_step=2,
        opponent_dice=2,
        npc=True,
        npc_motivation=3,
    )
    events = run(engine, command, 5, 7, 2)
    (contest,) = of(tc.ContestResolved, events)
    thug = contest.sides[1]
    assert ("a thug", ContestBy.MOTIVATION) == (contest.winner, contest.by)
    assert (None, 3, (7, 2), (7,), 1) == (
        thug.character_id,
        thug.motivation,
        thug.dice,
        thug.winning,
        thug.cost,
    )
    assert [] == of(tc.MotivationSpent, events)
    assert 3 == sheet(engine).motivation


def test_both_sides_are_recorded_with_their_characters(engine: Engine) -> None:
    """The contest names each side's character, so each side's spend is traced (R-TC-04)."""
    rivals(engine)
    contest = resolved(engine, duel(2, 2, dice=1, opponent_dice=1), 4, 6)
    assert [sheet(engine).id, sheet(engine, KESTREL).id] == [s.character_id for s in contest.sides]
    assert [4, 4] == [s.motivation for s in contest.sides]


def test_a_stalemate_has_no_winning_dice() -> None:
    """Every die tied away: no winner and no winning dice (R-TC-04 step 5, G-TC-09)."""
    assert Settled(winner=None, removed=((8, 3), (8, 3)), winning=(), ties=(8, 3)) == settle(
        (3, 8), (8, 3), TieRemoval.PAIRWISE
    )


def test_days_off_return_a_point_each_up_to_the_maximum(engine: Engine) -> None:
    """Five days off at 1/3 record the days and bring back two points, not five (R-TC-05)."""
    table(engine)
    spend_motivation(engine, 2)
    events = run(engine, TakeDaysOff(hero=HAWK, days=5))
    assert [
        tc.DayOffTaken(days=5),
        tc.MotivationRegained(amount=2, cause=RegainCause.DAY_OFF, before=1, after=3),
    ] == list(events)
    assert [tc.DayOffTaken(days=1)] == list(run(engine, TakeDaysOff(hero=HAWK)))


# --- Hero creation (R-TC-01, TC-A19..21) ----------------------------------------------------------


def _create(engine: Engine, **fields: object) -> tuple[Event, ...]:
    engine.create_campaign("Lab", "the-code")
    engine.execute("Lab", StartSession())
    return run(engine, CreateHero(**{**MITCH, **fields}))


def test_a_hero_is_created_with_every_detail_trimmed(engine: Engine) -> None:
    """HeroCreated: the details as given (trimmed, blank Advantages dropped), Motivation full at
    half the Objective (7 -> 3), the starting scores (R-TC-01, TC-A7, TC-A19)."""
    events = _create(
        engine,
        player=" dana ",
        code_name=" The Hawk ",
        secret_identity=" Mitch ",
        physical_description=" tall ",
        profession=" PI ",
        advantages=(" keen eyes ", " ", "contacts"),
        weakness=" bum leg ",
        objective=" catch criminals ",
        objective_score=7,
        modus_operandi=" cuffs ",
        exposure=1,
        popularity=4,
        reward_points=12,
        violent=True,
        secretive=True,
    )
    created = of(tc.HeroCreated, events)[0]
    assert (
        attrs.evolve(
            created,
            code_name="The Hawk",
            player="dana",
            secret_identity="Mitch",
            public_identity=False,
            physical_description="tall",
            profession="PI",
            advantages=("keen eyes", "contacts"),
            weakness="bum leg",
            objective="catch criminals",
            objective_score=7,
            modus_operandi="cuffs",
            motivation=3,
            exposure=1,
            popularity=4,
            reward_points=12,
            violent=True,
            secretive=True,
        )
        == created
    )
    assert [] == of(tc.DetailRevealed, events)
    hawk = sheet(engine)
    assert (3, 3, 1, 1, 4, 12) == (
        hawk.motivation,
        hawk.max_motivation,
        hawk.exposure,
        hawk.peak,
        hawk.popularity,
        hawk.reward_points,
    )


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        pytest.param("code_name", " ", "a code name", id="code-name"),
        pytest.param("player", "", "a player", id="player"),
        pytest.param("secret_identity", " ", "a secret identity (a real name)", id="identity"),
        pytest.param("physical_description", "", "a physical description", id="description"),
        pytest.param("profession", " ", "a Profession", id="profession"),
        pytest.param("advantages", (" ",), "at least one Advantage", id="advantages"),
        pytest.param("weakness", "", "a Weakness", id="weakness"),
        pytest.param("objective", " ", "an Objective", id="objective"),
        pytest.param("modus_operandi", "", "a Modus Operandi (MO)", id="mo"),
    ],
)
def test_a_missing_detail_is_named(engine: Engine, field: str, value: object, named: str) -> None:
    """Every detail the Exposure ladder can reveal is required (R-TC-01 MissingField)."""
    engine.create_campaign("Lab", "the-code")
    error = refused(engine, CreateHero(**{**MITCH, field: value}), errors.MissingHeroField)
    assert {"field": named} == error.data


@pytest.mark.parametrize(
    ("fields", "error", "data"),
    [
        pytest.param({"objective_score": 0}, errors.ObjectiveScoreOutOfRange, {"score": 0}, id="0"),
        pytest.param(
            {"objective_score": 11}, errors.ObjectiveScoreOutOfRange, {"score": 11}, id="11"
        ),
        pytest.param(
            {"exposure": -1}, errors.ScoreOutOfRange, {"what": "Exposure", "value": -1}, id="e-1"
        ),
        pytest.param(
            {"popularity": 11},
            errors.ScoreOutOfRange,
            {"what": "Popularity", "value": 11},
            id="p11",
        ),
        pytest.param(
            {"popularity": -1},
            errors.ScoreOutOfRange,
            {"what": "Popularity", "value": -1},
            id="p-1",
        ),
        pytest.param({"reward_points": -1}, errors.NegativeRewardPoints, {"value": -1}, id="rp"),
    ],
)
def test_starting_scores_out_of_range_are_refused(
    engine: Engine, fields: dict[str, int], error: type[DomainError], data: dict[str, object]
) -> None:
    """Objective 1..10, Exposure and Popularity 0..10, Reward Points 0 or more (R-TC-01,
    TC-A7, TC-A24)."""
    engine.create_campaign("Lab", "the-code")
    assert data == refused(engine, CreateHero(**{**MITCH, **fields}), error).data


@pytest.mark.parametrize(
    ("fields", "motivation"),
    [
        pytest.param({"objective_score": 1, "popularity": 0, "exposure": 0}, 0, id="lowest"),
        pytest.param({"objective_score": 10, "popularity": 10, "exposure": 10}, 5, id="highest"),
    ],
)
def test_the_edges_of_each_range_are_accepted(
    engine: Engine, fields: dict[str, int], motivation: int
) -> None:
    """Objective 1 and 10, Exposure and Popularity 0 and 10 are all valid (R-TC-01)."""
    _create(engine, **fields)
    assert motivation == sheet(engine).max_motivation


def test_a_public_identity_is_public_from_creation(engine: Engine) -> None:
    """A public identity reveals the secret identity at once, outside the ladder; the hero is
    public already, so no IdentityMadePublic follows (TC-A21)."""
    events = _create(engine, public_identity=True)
    assert [
        tc.DetailRevealed(
            detail=Detail.SECRET_IDENTITY,
            level=None,
            exposure=0,
            cause=RevealCause.PUBLIC_IDENTITY,
            suggested=None,
            gm_override=False,
            value="Mitch",
            session=1,
            source="HeroCreated",
        )
    ] == of(tc.DetailRevealed, events)
    assert [] == of(tc.IdentityMadePublic, events)


def test_a_hero_starting_exposed_has_each_level_revealed(engine: Engine) -> None:
    """Exposure 3 at creation: level 2 is the GM's choice (the Weakness, overriding the ladder's
    description), level 3 the ladder's code name (R-TC-01, TC-X3)."""
    events = _create(engine, exposure=3, reveal=("weakness",))
    assert [
        (2, Detail.WEAKNESS, Detail.PHYSICAL_DESCRIPTION, True, "bum leg"),
        (3, Detail.CODE_NAME, Detail.CODE_NAME, False, HAWK),
    ] == [
        (r.level, r.detail, r.suggested, r.gm_override, r.value)
        for r in of(tc.DetailRevealed, events)
    ]
    assert {RevealCause.CREATION} == {r.cause for r in of(tc.DetailRevealed, events)}
    assert {"HeroCreated"} == {r.source for r in of(tc.DetailRevealed, events)}


def test_more_reveal_choices_than_levels_are_refused(engine: Engine) -> None:
    """Exposure 2 reveals one detail: two choices are refused, naming both counts."""
    engine.create_campaign("Lab", "the-code")
    command = CreateHero(**{**MITCH, "exposure": 2, "reveal": ("weakness", "profession")})
    assert {"given": 2, "levels": 1} == refused(engine, command, errors.RevealChoiceUnused).data


# --- Exposure gains and what they reveal (R-TC-08, R-TC-12, TC-A12) -------------------------------


def test_a_general_problem_records_every_consequence(engine: Engine) -> None:
    """50 RP at Exposure 1, Popularity 3: +2 Exposure reveals levels 2 (the GM's choice, the
    Weakness) and 3 (the code name, the ladder's), +2 Popularity, then five dice for the gain
    roll: an even, Popularity 6 (R-TC-08, R-TC-12, TC-A12)."""
    table(engine, reward_points=60, exposure=1)
    command = SolveProblem(
        hero=HAWK, description=" the docks ", scale=Scale.GENERAL, reveal=("weakness",)
    )
    events = run(engine, command, 1, 3, 5, 7, 8)

    def shown(level: int, detail: Detail, suggested: Detail, value: str) -> tc.DetailRevealed:
        return tc.DetailRevealed(
            detail=detail,
            level=level,
            exposure=3,
            cause=RevealCause.PROBLEM_SOLVED,
            suggested=suggested,
            gm_override=detail is not suggested,
            value=value,
            session=1,
            source="ExposureChanged",
        )

    assert [
        tc.RewardPointsSpent(amount=50, purpose="general problem", before=60, after=10),
        tc.CommunityProblemSolved(description="the docks", scale=Scale.GENERAL, session=1),
        tc.ExposureChanged(
            before=1,
            after=3,
            delta=2,
            cause=ExposureCause.PROBLEM_SOLVED,
            peak_before=1,
            peak_after=3,
            session=1,
        ),
        shown(2, Detail.WEAKNESS, Detail.PHYSICAL_DESCRIPTION, "bum leg"),
        shown(3, Detail.CODE_NAME, Detail.CODE_NAME, HAWK),
        tc.PopularityChanged(before=3, after=5, delta=2, cause=PopularityCause.PROBLEM_SOLVED),
        tc.PopularityRolled(
            session=1, dice=(1, 3, 5, 7, 8), any_even=True, violent_or_secretive=False, delta=1
        ),
        tc.PopularityChanged(before=5, after=6, delta=1, cause=PopularityCause.GAIN_ROLL),
    ] == list(events)


def test_a_ladder_rung_already_public_suggests_the_next_secret(engine: Engine) -> None:
    """The code name was blabbed: a major problem from Exposure 1 reveals the description
    (level 2), then, the code name being public, the MO (level 3) and the Objective (level 4)
    (TC-A12)."""
    table(engine, reward_points=100)
    run(engine, Blab(hero=HAWK, details=("code name",), confidant="Lois"))
    command = SolveProblem(hero=HAWK, description="the mob's bank", scale=Scale.MAJOR)
    events = run(engine, command, *[1] * 6)
    assert [
        (2, Detail.PHYSICAL_DESCRIPTION),
        (3, Detail.MODUS_OPERANDI),
        (4, Detail.OBJECTIVE),
    ] == [(r.level, r.detail) for r in of(tc.DetailRevealed, events)]
    assert [False] * 3 == [r.gm_override for r in of(tc.DetailRevealed, events)]


def test_nothing_is_left_to_suggest_once_all_is_public() -> None:
    """Every detail public: the ladder has nothing to suggest at any level (TC-A12, TC-A24)."""
    hero = _hero_with_all_revealed()
    assert [None] * 9 == [suggestion(hero, level) for level in range(2, 11)]
    assert () == hero.unrevealed()


def _hero_with_all_revealed() -> TcHero:
    hero = None
    for event in _all_revealed_events():
        hero = the_code_evolve(event, hero)
    assert isinstance(hero, TcHero)
    return hero


def _all_revealed_events() -> list[Event]:
    created = tc.HeroCreated(
        character_id=uuid4(),
        code_name=HAWK,
        player="dana",
        secret_identity="Mitch",
        public_identity=True,
        physical_description="tall",
        profession="PI",
        advantages=("keen eyes",),
        weakness="bum leg",
        objective="catch criminals",
        objective_score=6,
        modus_operandi="cuffs",
        motivation=3,
        exposure=0,
        popularity=3,
        reward_points=0,
        violent=False,
        secretive=False,
    )
    reveals = [
        tc.DetailRevealed(
            detail=d,
            level=None,
            exposure=0,
            cause=RevealCause.BLAB,
            suggested=None,
            gm_override=False,
            value="x",
            session=1,
            source="TraitBlabbed",
        )
        for d in LADDER
    ]
    return [created, *reveals]


def test_more_reveal_choices_than_new_levels_are_refused(engine: Engine) -> None:
    """A minor problem from Exposure 1 reveals one level: two choices are refused (TC-A12)."""
    table(engine, reward_points=25, exposure=1)
    command = SolveProblem(
        hero=HAWK, description="x", scale=Scale.MINOR, reveal=("weakness", "profession")
    )
    assert {"given": 2, "levels": 1} == refused(engine, command, errors.RevealChoiceUnused).data


def test_the_secret_identity_revealed_on_the_ladder_makes_the_hero_public(engine: Engine) -> None:
    """The GM reveals the secret identity at level 2: IdentityMadePublic follows, and the next
    Exposure gain is +2 (TC-A28)."""
    table(engine, reward_points=25, exposure=1)
    command = SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR, reveal=("identity",))
    events = run(engine, command, 1, 1, 1, 1)
    assert [tc.IdentityMadePublic(session=1)] == of(tc.IdentityMadePublic, events)
    assert sheet(engine).public_identity
    run(engine, RollExposure(hero=HAWK), 2, 1)
    assert 4 == sheet(engine).exposure


# --- Names, details and the hero's sheet (DIGEST 4.1) ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        pytest.param(" Appearance ", Detail.PHYSICAL_DESCRIPTION, id="appearance"),
        pytest.param("description", Detail.PHYSICAL_DESCRIPTION, id="description"),
        pytest.param("physical", Detail.PHYSICAL_DESCRIPTION, id="physical"),
        pytest.param("physical description", Detail.PHYSICAL_DESCRIPTION, id="spaces"),
        pytest.param("code_name", Detail.CODE_NAME, id="underscore"),
        pytest.param("MO", Detail.MODUS_OPERANDI, id="mo"),
        pytest.param("identity", Detail.SECRET_IDENTITY, id="identity"),
        pytest.param("secret", Detail.SECRET_IDENTITY, id="secret"),
        pytest.param("Secret-Identity", Detail.SECRET_IDENTITY, id="value"),
        pytest.param("shoe size", None, id="unknown"),
    ],
)
def test_details_are_named_as_the_gm_says_them(text: str, detail: Detail | None) -> None:
    """A detail by its name, with spaces or underscores, in any case, or by an alias."""
    assert detail == find_detail(text)


@pytest.mark.parametrize(
    ("value", "clamped"), [(-3, 0), (0, 0), (7, 7), (10, 10), (12, 10)], ids=str
)
def test_scores_are_clamped_to_the_ladder(value: int, clamped: int) -> None:
    """Exposure and Popularity stay within 0..10 (TC-A24)."""
    assert clamped == clamp(value)


def test_each_level_of_the_ladder_names_its_detail() -> None:
    """Levels 2..10: description, code name, MO, Objective, Advantage, Weakness, Profession,
    Motivation, secret identity (DIGEST 4.1 Exposure ladder)."""
    assert list(Detail) == [ladder_detail(level) for level in range(2, 11)]


def test_each_detail_is_revealed_as_it_stands(engine: Engine) -> None:
    """What the public learns of each detail: the Objective with its score, Motivation as
    current/maximum, every Advantage (DIGEST 4.1)."""
    table(engine, advantages=("keen eyes", "contacts"))
    spend_motivation(engine, 1)
    hawk = sheet(engine)
    assert [
        MITCH["physical_description"],
        HAWK,
        MITCH["modus_operandi"],
        "catch criminals (6)",
        "keen eyes, contacts",
        "bum leg",
        MITCH["profession"],
        "2/3",
        "Mitch",
    ] == [hawk.value_of(d) for d in LADDER]


def test_an_npc_is_told_what_only_heroes_do(engine: Engine) -> None:
    """NotAPlayerCharacter names what NPCs lack and the rule (DIGEST 4.1 TcNpc)."""
    table(engine)
    run(engine, CreateNpc(character="Mister Grin", motivation=2))
    error = refused(engine, RollExposure(hero="Mister Grin"), NotAPlayerCharacter)
    assert {
        "name": "Mister Grin",
        "what": "are heroes, with an Objective, Reward Points, Exposure and Popularity",
        "rule": "The Code: an NPC takes part in contests, Ability steps and days off",
    } == error.data


def test_a_stream_that_does_not_start_with_the_hero_does_not_fit() -> None:
    """Replay: a hero's stream starts with HeroCreated."""
    with pytest.raises(ReplayMismatch) as raised:
        the_code_evolve(tc.ConductRuled(violent=True, secretive=False), None)
    assert "a hero's stream must start with HeroCreated" == str(raised.value)


def test_a_misfit_says_what_was_recorded_and_what_the_state_holds(engine: Engine) -> None:
    """Replay: a MotivationSpent from 5 when the hero holds 3 does not fit, and says so."""
    table(engine)
    spent = tc.MotivationSpent(amount=1, use=MotivationUse.CONTEST, before=5, after=4)
    with pytest.raises(ReplayMismatch) as raised:
        the_code_evolve(spent, sheet(engine))
    assert "Motivation before: 5 recorded, 3 in the state" == str(raised.value)


@pytest.mark.parametrize(
    ("score", "valid"), [(0, False), (1, True), (10, True), (11, False)], ids=str
)
def test_an_objective_score_runs_from_one_to_ten(engine: Engine, score: int, valid: bool) -> None:
    """Altering the Objective checks the same range as creation (TC-A7)."""
    table(engine)
    command = AlterObjective(hero=HAWK, score=score)
    if valid:
        run(engine, command)
        assert score // 2 == sheet(engine).max_motivation
    else:
        assert {"score": score} == refused(engine, command, errors.ObjectiveScoreOutOfRange).data


def test_reward_points_short_of_a_problem_name_the_cost(engine: Engine) -> None:
    """InsufficientRewardPoints names the purchase, its cost and the points held (R-TC-08)."""
    table(engine, reward_points=49)
    command = SolveProblem(hero=HAWK, description="x", scale=Scale.GENERAL)
    error = refused(engine, command, errors.InsufficientRewardPoints)
    assert {"name": HAWK, "what": "a general problem", "cost": 50, "held": 49} == error.data


def test_exactly_the_cost_in_reward_points_is_enough(engine: Engine) -> None:
    """25 RP buy a Motivation die, leaving none (R-TC-09)."""
    table(engine, reward_points=25)
    run(engine, BuyMotivation(hero=HAWK), 3)
    assert 0 == sheet(engine).reward_points


# --- Blabs and the end-of-session roll (R-TC-10, R-TC-11) -----------------------------------------


def test_a_blab_reveals_only_what_was_secret(engine: Engine) -> None:
    """The Profession was public; the blab of Profession and Weakness (twice) reveals the
    Weakness once, for one point of Exposure, outside the ladder (R-TC-11, TC-A12)."""
    table(engine, exposure=2)
    run(engine, Blab(hero=HAWK, details=("profession",), confidant="Lois"))
    command = Blab(
        hero=HAWK, details=("profession", "weakness", "weakness"), confidant=" his barber "
    )
    events = run(engine, command)
    assert [
        tc.TraitBlabbed(
            details=(Detail.WEAKNESS,),
            already_public=(Detail.PROFESSION,),
            confidant="his barber",
            session=1,
        ),
        tc.ExposureChanged(
            before=3,
            after=4,
            delta=1,
            cause=ExposureCause.BLAB,
            peak_before=3,
            peak_after=4,
            session=1,
        ),
        tc.DetailRevealed(
            detail=Detail.WEAKNESS,
            level=None,
            exposure=4,
            cause=RevealCause.BLAB,
            suggested=None,
            gm_override=False,
            value="bum leg",
            session=1,
            source="TraitBlabbed",
        ),
    ] == list(events)
    again = Blab(hero=HAWK, details=("weakness", "profession"), confidant="Jimmy")
    error = refused(engine, again, errors.DetailAlreadyPublic)
    assert {"name": HAWK, "detail": "weakness, profession"} == error.data


def test_the_mo_called_with_the_roll_adds_its_die(engine: Engine) -> None:
    """The GM calls the MO followed as the roll is made: MoFollowed with the hero's MO, then
    Exposure + 1 dice; an even die gains 1 (R-TC-10, R-TC-14)."""
    table(engine, exposure=1)
    events = run(engine, RollExposure(hero=HAWK, mo_followed=True), 3, 6)
    assert [
        tc.MoFollowed(session=1, description=MITCH["modus_operandi"]),
        tc.ExposureRolled(
            session=1,
            dice=(3, 6),
            exposure=1,
            mo_die_included=True,
            any_even=True,
            gain=1,
            public_identity=False,
        ),
        tc.ExposureChanged(
            before=1,
            after=2,
            delta=1,
            cause=ExposureCause.SESSION_ROLL,
            peak_before=1,
            peak_after=2,
            session=1,
        ),
    ] == list(events)[:3]
    assert [Detail.PHYSICAL_DESCRIPTION] == [r.detail for r in of(tc.DetailRevealed, events)]


def test_a_gain_earlier_in_the_session_spares_the_drop(engine: Engine) -> None:
    """Exposure gained this session (a minor problem): no even at the end costs nothing
    (R-TC-10, TC-A13)."""
    table(engine, exposure=1, reward_points=25)
    run(engine, SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR), *[1] * 4)
    events = run(engine, RollExposure(hero=HAWK), 1, 3)
    assert [] == of(tc.ExposureChanged, events)
    assert 2 == sheet(engine).exposure


def test_no_gain_all_session_drops_a_point(engine: Engine) -> None:
    """No even and nothing gained all session: Exposure 2 -> 1 (R-TC-10, G-TC-18)."""
    table(engine, exposure=2)
    events = run(engine, RollExposure(hero=HAWK), 1, 3)
    assert [
        tc.ExposureChanged(
            before=2,
            after=1,
            delta=-1,
            cause=ExposureCause.NO_EXPOSURE_GAINED,
            peak_before=2,
            peak_after=2,
            session=1,
        )
    ] == of(tc.ExposureChanged, events)


@pytest.mark.parametrize(
    ("exposure", "reduced"),
    [pytest.param(2, True, id="G-TC-21-reduced"), pytest.param(0, False, id="nothing-to-reduce")],
)
def test_a_session_off_is_recorded_and_may_reduce(
    engine: Engine, exposure: int, reduced: bool
) -> None:
    """A session taken off rolls nothing; reducing works only above 0 (R-TC-10)."""
    table(engine, exposure=exposure)
    events = run(engine, RollExposure(hero=HAWK, off=True, reduce=True))
    assert tc.SessionTakenOff(session=1, reduced=reduced) == events[0]
    assert [-1] * reduced == [e.delta for e in of(tc.ExposureChanged, events)]
    assert sheet(engine).flags_for(1).exposure_settled


@pytest.mark.parametrize(
    ("command", "faces"),
    [
        pytest.param(RollExposure(hero=HAWK, off=True, reveal=("weakness",)), (), id="off"),
        pytest.param(RollExposure(hero=HAWK, reveal=("weakness",)), (1, 3), id="no-gain"),
    ],
)
def test_a_reveal_choice_without_a_gain_is_refused(
    engine: Engine, command: RollExposure, faces: tuple[int, ...]
) -> None:
    """No gain, no new level: a detail chosen to reveal is refused (TC-A12)."""
    table(engine, exposure=2)
    assert {"given": 1, "levels": 0} == refused(
        engine, command, errors.RevealChoiceUnused, faces=faces
    ).data


def test_an_mo_die_without_a_gain_reveals_nothing_chosen(engine: Engine) -> None:
    """An odd MO bonus die: the GM's choice of detail to reveal is refused (R-TC-06, TC-A12)."""
    table(engine)
    run(engine, FollowMo(hero=HAWK))
    command = AccomplishObjective(hero=HAWK, reveal=("weakness",))
    error = refused(engine, command, errors.RevealChoiceUnused, faces=(1, 1, 1, 3, 1, 1, 1))
    assert {"given": 1, "levels": 0} == error.data


def test_a_session_ends_once_every_hero_has_settled_exposure(engine: Engine) -> None:
    """ExposureRollMissing lists every hero still to roll (NPCs roll none); once each has rolled
    or taken the session off, the session ends (R-TC-10)."""
    rivals(engine)
    run(engine, CreateNpc(character="Mister Grin", motivation=2))
    error = refused(engine, EndSession(), errors.ExposureRollMissing)
    assert {"session": 1, "names": f"{HAWK}, {KESTREL}"} == error.data
    run(engine, RollExposure(hero=HAWK))
    error = refused(engine, EndSession(), errors.ExposureRollMissing)
    assert {"session": 1, "names": KESTREL} == error.data
    run(engine, RollExposure(hero=KESTREL, off=True))
    engine.execute("Lab", EndSession())
    assert engine.campaign("Lab").session is None


def test_negative_reaction_dice_are_refused(engine: Engine) -> None:
    """DiceOutOfRange: extra reaction dice are 0 or more (R-TC-13)."""
    table(engine)
    command = RollReaction(hero=HAWK, audience="a cop", extra_dice=-1, justification="ex-cop")
    error = refused(engine, command, errors.DiceOutOfRange)
    assert {"name": HAWK, "dice": -1, "current": 3} == error.data


def test_a_blank_justification_does_not_justify_an_augment(engine: Engine) -> None:
    """AugmentNotJustified: the GM's ruling must say how the Profession helps (TC-A16)."""
    table(engine)
    command = RollReaction(hero=HAWK, audience="a cop", extra_dice=1, justification="  ")
    assert {"name": HAWK} == refused(engine, command, errors.AugmentNotJustified).data


def test_a_problem_solved_twice_comes_back_from_the_latest_solution(engine: Engine) -> None:
    """The park, solved in sessions 1 and 2, comes back: the session-2 solution failed first,
    then the session-1 one (R-TC-08: the solution is rarely permanent)."""
    table(engine, reward_points=50)
    run(engine, SolveProblem(hero=HAWK, description="the park", scale=Scale.MINOR), *[1] * 4)
    run(engine, RollExposure(hero=HAWK), 1)
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    run(engine, SolveProblem(hero=HAWK, description="The Park", scale=Scale.MINOR), *[1] * 5)
    recur = RecurProblem(hero=HAWK, description="the park")
    solved_in = [
        e.solved_in for _ in range(2) for e in of(tc.CommunityProblemRecurred, run(engine, recur))
    ]
    assert [2, 1] == solved_in


def test_problems_that_still_hold_are_listed_in_order(engine: Engine) -> None:
    """ProblemNotOpen lists every solved problem that holds, quoted, comma-separated (R-TC-08)."""
    table(engine, reward_points=50)
    for where, dice in (("the park", 4), ("Elm Street", 5)):
        run(engine, SolveProblem(hero=HAWK, description=where, scale=Scale.MINOR), *[1] * dice)
    error = refused(engine, RecurProblem(hero=HAWK, description="the docks"), errors.ProblemNotOpen)
    assert "'the park', 'Elm Street'" == error.data["known"]


def test_a_detail_chosen_that_is_public_already_is_refused(engine: Engine) -> None:
    """The Profession was blabbed: the GM cannot choose it for a new level (TC-A12)."""
    table(engine, reward_points=25, exposure=1)
    run(engine, Blab(hero=HAWK, details=("profession",), confidant="Lois"))
    command = SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR, reveal=("profession",))
    error = refused(engine, command, errors.DetailAlreadyPublic, faces=(1,) * 4)
    assert {"name": HAWK, "detail": Detail.PROFESSION} == error.data


def test_an_opponent_without_a_step_is_named_as_the_campaign_knows_it(engine: Engine) -> None:
    """StepsNotRuled names Kestrel, though the GM named her by her player (R-TC-04)."""
    rivals(engine)
    command = SettleContest(task="t", hero=HAWK, step=2, opponent="eli")
    assert KESTREL == refused(engine, command, errors.StepsNotRuled).data["names"]


def test_an_npc_without_motivation_takes_no_day_off(engine: Engine) -> None:
    """NoMotivationScore names the NPC (R-TC-05)."""
    table(engine)
    run(engine, CreateNpc(character="a thug"))
    assert {"name": "a thug"} == refused(
        engine, TakeDaysOff(hero="a thug"), errors.NoMotivationScore
    ).data


def test_exposure_one_still_drops_and_may_be_reduced(engine: Engine) -> None:
    """At Exposure 1 a session with no gain drops to 0; so does a session off reduced (R-TC-10)."""
    table(engine, exposure=1)
    run(engine, RollExposure(hero=HAWK), 3)
    assert 0 == sheet(engine).exposure
    other = CreateHero(**{**MITCH, "code_name": KESTREL, "player": "eli", "exposure": 1})
    engine.execute("Lab", other)
    run(engine, RollExposure(hero=KESTREL, off=True, reduce=True))
    assert 0 == sheet(engine, KESTREL).exposure


def test_an_even_mo_die_costs_a_point_of_exposure(engine: Engine) -> None:
    """The MO bonus die of the Objective roll comes up even: +1 Exposure (R-TC-06, TC-A11)."""
    table(engine, exposure=1)
    run(engine, FollowMo(hero=HAWK))
    events = run(engine, AccomplishObjective(hero=HAWK, reveal=("weakness",)), 1, 1, 1, 4, 1, 1, 1)
    assert [
        tc.ExposureChanged(
            before=1,
            after=2,
            delta=1,
            cause=ExposureCause.MO_BONUS_DIE,
            peak_before=1,
            peak_after=2,
            session=1,
        )
    ] == of(tc.ExposureChanged, events)
    revealed = of(tc.DetailRevealed, events)
    assert [(Detail.WEAKNESS, RevealCause.MO_BONUS_DIE, 2)] == [
        (r.detail, r.cause, r.level) for r in revealed
    ]


@pytest.mark.parametrize(
    ("a", "b", "winner", "winning"),
    [
        pytest.param((5, 1), (5,), 0, (1,), id="R-TC-04-a-one-wins-against-an-emptied-pool"),
        pytest.param((9, 4), (4,), 0, (9,), id="R-TC-04-only-dice-above-the-loser-win"),
    ],
)
def test_winning_dice_are_those_above_the_losers_best(
    a: tuple[int, ...], b: tuple[int, ...], winner: int, winning: tuple[int, ...]
) -> None:
    """Winning dice are strictly higher than the loser's highest left, any die against none
    (R-TC-04 step 6)."""
    settled = settle(a, b, TieRemoval.PAIRWISE)
    assert (winner, winning) == (settled.winner, settled.winning)
