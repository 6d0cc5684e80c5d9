"""Days off (days_off.py, R-TC-05): a point of Motivation back a day, up to the maximum."""

from __future__ import annotations

from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import CreateNpc, TakeDaysOff
from domain.rulesets.the_code.tables import RegainCause
from engine import Engine
from tests.conftest import refused
from tests.golden.test_the_code import HAWK, run, spend_motivation, table


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


def test_an_npc_without_motivation_takes_no_day_off(engine: Engine) -> None:
    """NoMotivationScore names the NPC (R-TC-05)."""
    table(engine)
    run(engine, CreateNpc(character="a thug"))
    assert {"name": "a thug"} == refused(
        engine, TakeDaysOff(hero="a thug"), errors.NoMotivationScore
    ).data
