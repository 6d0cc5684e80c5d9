"""The GM's calls on the session (session_flags.py, R-TC-14): the Weakness in play, and a
secretive or violent hero (R-TC-12)."""

from __future__ import annotations

import pytest

from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import AccomplishObjective, RuleConduct, RuleWeaknessInPlay
from domain.rulesets.the_code.tables import DieRole
from engine import Engine
from tests.golden.test_the_code import HAWK, of, run, sheet, table


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
