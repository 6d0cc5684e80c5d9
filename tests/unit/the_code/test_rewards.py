"""Reward Points and the Objective (rewards.py, R-TC-06 to R-TC-09): the Objective accomplished
and its MO die, problems solved and coming back, Motivation bought, the Objective altered."""

from __future__ import annotations

import pytest

from domain.errors import NoActiveSession
from domain.lifecycle import EndSession, StartSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import (
    AccomplishObjective,
    AlterObjective,
    BuyMotivation,
    CreateHero,
    FollowMo,
    RecurProblem,
    RollExposure,
    SolveProblem,
)
from domain.rulesets.the_code.tables import (
    Detail,
    ExposureCause,
    PopularityCause,
    RevealCause,
    Scale,
)
from engine import Engine
from tests.conftest import refused
from tests.golden.test_the_code import HAWK, MITCH, of, run, sheet, spend_motivation, table


def test_objectives_need_a_session(engine: Engine) -> None:
    """Accomplishing the Objective (and the Exposure roll) happen in a running session."""
    engine.create_campaign("Lab", "the-code")
    engine.execute("Lab", CreateHero(**MITCH))
    refused(engine, AccomplishObjective(hero=HAWK), NoActiveSession)
    refused(engine, RollExposure(hero=HAWK), NoActiveSession)


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


def test_an_mo_die_without_a_gain_reveals_nothing_chosen(engine: Engine) -> None:
    """An odd MO bonus die: the GM's choice of detail to reveal is refused (R-TC-06, TC-A12)."""
    table(engine)
    run(engine, FollowMo(hero=HAWK))
    command = AccomplishObjective(hero=HAWK, reveal=("weakness",))
    error = refused(engine, command, errors.RevealChoiceUnused, faces=(1, 1, 1, 3, 1, 1, 1))
    assert {"given": 1, "levels": 0} == error.data


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


def test_reward_points_short_of_a_problem_name_the_cost(engine: Engine) -> None:
    """InsufficientRewardPoints names the purchase, its cost and the points held (R-TC-08)."""
    table(engine, reward_points=49)
    command = SolveProblem(hero=HAWK, description="x", scale=Scale.GENERAL)
    error = refused(engine, command, errors.InsufficientRewardPoints)
    assert {"name": HAWK, "what": "a general problem", "cost": 50, "held": 49} == error.data


def test_a_problem_that_did_not_come_back_lists_those_that_hold(engine: Engine) -> None:
    """ProblemNotOpen lists the solved problems that still hold, not those that came back
    (R-TC-08)."""
    table(engine, reward_points=50)
    for where, dice in (("the park", 4), ("Elm Street", 5)):  # Popularity 4, then 5: all odd
        run(engine, SolveProblem(hero=HAWK, description=where, scale=Scale.MINOR), *[1] * dice)
    run(engine, RecurProblem(hero=HAWK, description="the park"))
    error = refused(engine, RecurProblem(hero=HAWK, description="the docks"), errors.ProblemNotOpen)
    assert {"name": HAWK, "description": "the docks", "known": "'Elm Street'"} == error.data


def test_problems_that_still_hold_are_listed_in_order(engine: Engine) -> None:
    """ProblemNotOpen lists every solved problem that holds, quoted, comma-separated (R-TC-08)."""
    table(engine, reward_points=50)
    for where, dice in (("the park", 4), ("Elm Street", 5)):
        run(engine, SolveProblem(hero=HAWK, description=where, scale=Scale.MINOR), *[1] * dice)
    error = refused(engine, RecurProblem(hero=HAWK, description="the docks"), errors.ProblemNotOpen)
    assert "'the park', 'Elm Street'" == error.data["known"]


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


def test_exactly_the_cost_in_reward_points_is_enough(engine: Engine) -> None:
    """25 RP buy a Motivation die, leaving none (R-TC-09)."""
    table(engine, reward_points=25)
    run(engine, BuyMotivation(hero=HAWK), 3)
    assert 0 == sheet(engine).reward_points


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
