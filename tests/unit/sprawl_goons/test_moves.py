"""Sprawl Goons' reading of the state for the table's actions (``moves.py``): an Action Roll
in a scene, the attack and the round in a fight, a level due first; the dead act no more."""

from __future__ import annotations

from domain.lifecycle import EndScene
from domain.rulesets.sprawl_goons import commands as sg
from engine import DiceSpec, Engine
from tests.web.scenes import GM, SCENES, actions_now, played

CAMPAIGN = next(s.campaign for s in SCENES if s.system == "sprawl-goons")


def _table() -> Engine:
    return played("sprawl-goons")[0]


def _now(engine: Engine, who: str, character: str | None = None) -> list[tuple[str, bool]]:
    return actions_now(engine, CAMPAIGN, who, character)


def test_a_scene_out_of_a_fight_expects_a_roll() -> None:
    """No fight: an Action Roll first; the round's end is not offered."""
    engine = _table()
    now = _now(engine, "alice")
    assert ("roll", True) == now[0]
    assert ("attack", False) in now
    assert "round" not in [v for v, _ in _now(engine, GM)]


def test_a_fight_expects_the_attack_and_the_round() -> None:
    """Initiative rolled: the attack (then aiming) first, and the referee's round."""
    engine = _table()
    fight = sg.RollInitiative(combatants=("Tanner", "Vex"))
    engine.execute(CAMPAIGN, fight, dice=DiceSpec(faces=(3, 4)))
    assert [("attack", True), ("aim", True)] == _now(engine, "alice")[:2]
    assert [("attack", True), ("aim", True), ("round", True)] == _now(engine, GM, "Tanner")[:3]


def test_between_scenes_no_roll_is_offered() -> None:
    """Out of a scene the rolls and fighting are refused: not offered; the kit still is."""
    engine = _table()
    engine.execute(CAMPAIGN, EndScene())
    verbs = [v for v, _ in _now(engine, "alice")]
    assert not {"roll", "attack", "aim", "hack", "first-aid", "grenade"} & set(verbs)
    assert {"reload", "patch", "use-item", "item drop"} <= set(verbs)
    assert [] == [v for v, e in _now(engine, "alice") if e]


def test_a_level_due_comes_first() -> None:
    """A mission completed: each goon's level is due, before anything else."""
    engine = _table()
    assert "level-up" not in [v for v, _ in _now(engine, "alice")]
    engine.execute(CAMPAIGN, sg.CompleteMission(mission="the docks"))
    assert ("level-up", True) == _now(engine, "alice")[0]
