"""A first end-to-end check of the engine in memory."""

from __future__ import annotations

from domain.audience import GMS
from domain.rulesets.code_green.commands import DeclareTest
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import FROZEN_AT, place, scene_with_s1


def test_a_declared_and_rolled_test_sets_adaptation_pending(engine: Engine) -> None:
    """G-CG-06 through the engine: pool 2 from R1C1 and R2C2, [2,5] -> 5."""
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    result = engine.execute(
        "Lab",
        DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True),
        dice=DiceSpec(faces=(2, 5)),
    )
    rolled = result.events[-1]
    assert (2, (2, 5), 5) == (rolled.pool, rolled.dice, rolled.result)  # type: ignore[attr-defined]
    assert engine.character("Lab", who, audience=GMS).adaptation_pending


def test_pytest_keeps_its_real_clock_under_a_frozen_one(frozen: None) -> None:
    """The frozen clock is the product's: pytest's own timing (``--durations``) keeps counting."""
    import time

    from _pytest import timing

    assert FROZEN_AT.timestamp() == time.time()
    assert FROZEN_AT.timestamp() != timing.time()
