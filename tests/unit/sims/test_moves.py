"""The Sims RPG's reading of the state for the table's actions (``moves.py``): ranks to
distribute come before anyone acts, a conflict's attack is the turn holder's, and the GM moves
the turn on; out of a conflict a roll."""

from __future__ import annotations

from domain.rulesets.sims import commands as sims
from engine import DiceSpec, Engine
from tests.web.scenes import GM, SCENES, actions_now, played

CAMPAIGN = next(s.campaign for s in SCENES if s.system == "sims")


def _table() -> Engine:
    engine = played("sims")[0]
    order = sims.SetTurnOrder(entries=("Neo:Kung Fu", "Cypher:Knives"), ties="as-listed")
    engine.execute(CAMPAIGN, order)
    return engine


def _now(engine: Engine, who: str, character: str | None = None) -> list[tuple[str, bool]]:
    return actions_now(engine, CAMPAIGN, who, character)


def test_out_of_a_conflict_a_roll_is_expected() -> None:
    """A scene with no conflict: a roll first; no turn to move on."""
    engine = played("sims")[0]
    assert ("roll", True) == _now(engine, "alice")[0]
    assert "next" not in [v for v, _ in _now(engine, GM)]


def test_the_turn_holder_attacks_and_the_gm_moves_the_turn_on() -> None:
    """Neo's turn: alice's attack first, bob is offered no attack, the GM's `next` waits."""
    engine = _table()
    assert [("attack", True), ("strategy", True)] == _now(engine, "alice")[:2]
    assert "attack" not in [v for v, _ in _now(engine, "bob")]
    assert [] == [v for v, e in _now(engine, "bob") if e]
    assert ("next", True) in _now(engine, GM)


def test_ranks_to_distribute_come_first() -> None:
    """Neo hits Cypher: Cypher's player distributes the ranks before anything else; nobody
    rolls or moves the turn on meanwhile."""
    engine = _table()
    hit = sims.Attack(attacker="Neo", qualities=("Kung Fu",), targets=("Cypher",))
    engine.execute(CAMPAIGN, hit, actor="alice", dice=DiceSpec(faces=(6, 6)))
    assert ("allocate", True) == _now(engine, "bob")[0]
    everyone = [v for v, _ in _now(engine, GM)]
    assert not {"roll", "attack", "next", "strategy"} & set(everyone)
