"""Unopposed challenges (challenges.py, R-TC-02, R-TC-03, TC-A23): the GM's call on a task, the
step ruled for it, and the Motivation dice rolled or declined."""

from __future__ import annotations

import pytest

from domain.errors import InvalidDieFace
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import (
    CreateHero,
    RuleAbilityStep,
    RuleChallenge,
    UseMotivation,
)
from domain.rulesets.the_code.tables import STEPS, MotivationUse, NeedReason, TaskOutcome
from engine import Engine
from tests.conftest import refused
from tests.golden.test_the_code import HAWK, MITCH, of, run, sheet, spend_motivation, table
from tests.unit.the_code.conftest import lab_in_session


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


def test_a_hero_with_motivation_is_left_to_roll(engine: Engine) -> None:
    """With Motivation left the same call only requires the roll: the task waits for it."""
    table(engine)
    events = run(
        engine,
        RuleChallenge(hero=HAWK, task="leap the gap", needs_motivation=NeedReason.BAD_CONDITIONS),
    )
    assert [] == of(tc.UnopposedActionResolved, events)
    assert "leap the gap" == sheet(engine).pending_task


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


def test_d6_house_rule_refuses_a_seven(engine: Engine) -> None:
    """dieSides=6: the text's 'a 6 and a 7' cannot be entered (TC-X1)."""
    lab_in_session(engine, dieSides="6")
    engine.execute("Lab", CreateHero(**MITCH))
    run(engine, RuleChallenge(hero=HAWK, task="jump", weakness=True))
    refused(engine, UseMotivation(hero=HAWK, dice=2), InvalidDieFace, faces=(6, 7))


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
