"""The Code on the engine: undoing the ruling that caused an Exposure gain removes its reveals,
and the strict replay finds the later rulings that depend on an undone one."""

from __future__ import annotations

import pytest

from domain.errors import LaterRulingsDepend
from domain.lifecycle import EndSession, StartSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.commands import (
    BuyMotivation,
    FollowMo,
    RollExposure,
    SolveProblem,
)
from domain.rulesets.the_code.tables import Detail, Scale
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count
from tests.golden.test_the_code import HAWK, run, sheet, table


def test_undoing_the_gain_removes_its_reveal(engine: Engine) -> None:
    """A detail leaves the public's knowledge only by undoing the ruling that revealed it."""
    table(engine, exposure=1)
    run(engine, RollExposure(hero=HAWK), 2)
    assert [Detail.PHYSICAL_DESCRIPTION] == [r.detail for r in sheet(engine).revealed]
    engine.undo("Lab", reason="the roll was for the wrong hero")
    hawk = sheet(engine)
    assert ((), 1, 1) == (hawk.revealed, hawk.exposure, hawk.peak)


def test_an_mo_call_cannot_be_undone_under_a_roll_that_used_it(engine: Engine) -> None:
    """The Exposure roll that rolled the MO die depends on the MO ruling; together they can go."""
    table(engine, exposure=2)
    mo = engine.execute("Lab", FollowMo(hero=HAWK)).number
    run(engine, RollExposure(hero=HAWK), 1, 1, 1)
    before = event_count(engine)
    with pytest.raises(LaterRulingsDepend):
        engine.undo("Lab", mo, reason="no phone booth tonight")
    assert before == event_count(engine)
    engine.undo("Lab", mo, reason="no phone booth tonight", with_dependents=True)
    assert not sheet(engine).flags_for(1).mo_followed


def test_a_later_reveal_depends_on_the_earlier_gain(engine: Engine) -> None:
    """Exposure 1 -> 2 then 2 -> 3: the first gain cannot be undone alone."""
    table(engine, exposure=1, reward_points=50)
    gain = engine.execute(
        "Lab", SolveProblem(hero=HAWK, description="a", scale=Scale.MINOR), dice=_faces(4)
    ).number
    run(engine, SolveProblem(hero=HAWK, description="b", scale=Scale.MINOR), 1, 1, 1, 1, 1)
    with pytest.raises(LaterRulingsDepend):
        engine.undo("Lab", gain, reason="that was not minor")


def test_a_later_spend_depends_on_the_earlier_one(engine: Engine) -> None:
    """Spends record the points before and after, so a later purchase pins the earlier spend."""
    table(engine, reward_points=50)
    solved = engine.execute(
        "Lab", SolveProblem(hero=HAWK, description="a", scale=Scale.MINOR), dice=_faces(4)
    ).number
    run(engine, BuyMotivation(hero=HAWK), 2)
    with pytest.raises(LaterRulingsDepend):
        engine.undo("Lab", solved, reason="wrong scale")
    engine.undo("Lab", solved, reason="wrong scale", with_dependents=True)
    assert (50, 3) == (sheet(engine).reward_points, sheet(engine).max_motivation)


def test_a_session_ends_only_after_every_exposure_roll(engine: Engine) -> None:
    """`session end` is refused until every hero's Exposure is settled, then ends."""
    table(engine)
    before = event_count(engine)
    with pytest.raises(errors.ExposureRollMissing):
        engine.execute("Lab", EndSession())
    assert before == event_count(engine)
    run(engine, RollExposure(hero=HAWK, off=True))
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    assert not sheet(engine).flags_for(2).exposure_settled


def _faces(count: int) -> DiceSpec:
    return DiceSpec(faces=(1,) * count)
