"""Sims conflict turns (turns.py, R-PDQ-05, R-PDQ-10): the turn order by rank, PCs first and a
roll-off (PDQ-A11), turns passing round the order, and strategies declared and expiring."""

from __future__ import annotations

import random
from uuid import uuid4

import attrs
from attrs import frozen
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import EnteredDice
from domain.errors import InvalidDieFace
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import (
    AllocateRanks,
    Attack,
    CreateCharacter,
    DeclareStrategy,
    EndTurn,
    RollComplicated,
    SetTurnOrder,
)
from domain.rulesets.sims.tables import SheetKind, Strategy, TieBreak
from domain.rulesets.sims.turns import in_order
from domain.rulesets.sims.values import TurnSlot
from engine import Engine
from tests.golden.test_sims import NAME, of, refused, run
from tests.unit.sims.conftest import who


def _slot(engine: Engine, name: str, quality: str, rank: int) -> TurnSlot:
    return TurnSlot(character_id=who(engine, name).id, name=name, quality=quality, rank=rank)


def test_the_turn_order_goes_by_rank_then_pc_first(game: Engine) -> None:
    """Neo (Good, a PC) before the Boss (Good, an NPC) before the Ninja (Average): no roll-off
    is needed; every side records the order, and Neo's turn 1 starts (R-PDQ-05, PDQ-A11)."""
    result = game.execute(NAME, SetTurnOrder(entries=("Ninja", "Boss:Brawler", "Neo:Cutlass")))
    order = (
        _slot(game, "Neo", "Cutlass", 2),
        _slot(game, "Boss", "Brawler", 2),
        _slot(game, "Ninja", "Henchman", 1),
    )
    assert [ev.TurnOrderSet(order=order)] * 3 == of(result.events, ev.TurnOrderSet)
    assert [ev.TurnStarted(number=1)] == of(result.events, ev.TurnStarted)
    assert () == result.dice
    assert (True, 1) == (who(game, "Neo").turn, who(game, "Neo").last_turn)


def test_equal_npcs_roll_off_and_record_their_faces(game: Engine) -> None:
    """Two NPCs of equal rank roll 1d6 each, in the order listed: the higher goes first, and the
    faces are kept on the slots (PDQ-A11)."""
    run(
        game,
        CreateCharacter(
            character="Twin", player="GM", qualities=("Brawler:Combat:Good",), kind=SheetKind.NPC
        ),
    )
    (order, *_) = run(game, SetTurnOrder(entries=("Boss:Brawler", "Twin:Brawler")), 2, 5)
    assert isinstance(order, ev.TurnOrderSet)
    assert [("Twin", (5,)), ("Boss", (2,))] == [(s.name, s.roll_off) for s in order.order]


def test_a_roll_off_rolls_six_sided_dice(game: Engine) -> None:
    """The 1d6 roll-off between equal NPCs refuses a 7 (PDQ-A11)."""
    twin = CreateCharacter(
        character="Twin", player="GM", qualities=("Brawler:Combat:Good",), kind=SheetKind.NPC
    )
    run(game, twin)
    refused(game, SetTurnOrder(entries=("Boss:Brawler", "Twin:Brawler")), InvalidDieFace, 7, 1)


@frozen
class SeededDice:
    """A d6 source from Python's seeded generator (a test fake, never the product's dice)."""

    rng: random.Random

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)


@given(
    st.lists(st.tuples(st.integers(-1, 5), st.sampled_from(SheetKind)), min_size=2, max_size=6),
    st.integers(0, 2**16),
)
@settings(max_examples=200, deadline=None)
def test_turn_order_ties_pc_first_then_roll_off(
    sides: list[tuple[int, SheetKind]], seed: int
) -> None:
    """PDQ-A11: higher rank first; at equal ranks a PC before an NPC; characters still tied are
    ordered by their roll-off faces, round by round, all of them distinct in the end."""
    slots = [
        (TurnSlot(character_id=uuid4(), name=f"C{n}", quality=None, rank=rank), kind)
        for n, (rank, kind) in enumerate(sides)
    ]
    kinds = {slot.name: kind for slot, kind in slots}
    order = in_order(slots, TieBreak.ROLL_OFF, SeededDice(random.Random(seed)))
    assert sorted(s.name for s in order) == sorted(kinds)

    def place(s: TurnSlot) -> tuple[int, bool, tuple[int, ...]]:
        return (-s.rank, kinds[s.name] is not SheetKind.PC, tuple(-f for f in s.roll_off))

    assert [place(s) for s in order] == sorted(place(s) for s in order)
    assert len({place(s) for s in order}) == len(order)  # no tie is left unbroken


def test_turn_order_as_listed_rolls_nothing() -> None:
    """PDQ-A11, the GM's call: equal ranks keep the order listed, whatever the sheets."""
    slots = [
        (TurnSlot(character_id=uuid4(), name=name, quality=None, rank=2), kind)
        for name, kind in (("Ninja", SheetKind.SECONDARY), ("Neo", SheetKind.PC))
    ]
    order = in_order(slots, TieBreak.AS_LISTED, EnteredDice(faces=()))
    assert ["Ninja", "Neo"] == [s.name for s in order]


def test_a_character_is_listed_once(game: Engine) -> None:
    """DefenderTwice names the character listed twice (R-PDQ-05)."""
    error = refused(
        game, SetTurnOrder(entries=("Neo", "Boss", "neo:Cutlass")), errors.DefenderTwice
    )
    assert {"name": "Neo"} == error.data


def test_a_new_order_ends_the_turn_running(game: Engine) -> None:
    """A second turn order ends the running turn first, then starts again at turn 1."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Boss:Brawler")))
    events = run(game, SetTurnOrder(entries=("Neo:Cutlass", "Ninja")))
    assert [ev.TurnEnded(number=1)] == of(events, ev.TurnEnded)
    assert [ev.TurnStarted(number=1)] == of(events, ev.TurnStarted)
    assert (True, 1) == (who(game, "Neo").turn, who(game, "Neo").last_turn)


def test_turns_pass_round_the_order_and_skip_who_cannot_act(game: Engine) -> None:
    """Neo, the Boss, the Ninja: the Boss ends turn 2; the Ninja, out of the scene, is passed
    over, so Neo's turn 3 starts (R-PDQ-05, R-PDQ-08)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Boss:Brawler", "Ninja")))
    assert [ev.TurnEnded(number=1), ev.TurnStarted(number=2)] == list(run(game, EndTurn()))
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Ninja",)), 6, 6)
    assert who(game, "Ninja").out
    events = run(game, EndTurn())
    assert [ev.TurnEnded(number=2), ev.TurnStarted(number=3)] == list(events)
    assert (True, False) == (who(game, "Neo").turn, who(game, "Boss").turn)


def test_when_nobody_else_can_act_the_turn_comes_back(game: Engine) -> None:
    """Neo and the Ninja: the Ninja is out, so ending Neo's turn starts Neo's next one
    (R-PDQ-05)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Ninja")))
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 6, 6)
    assert [ev.TurnEnded(number=1), ev.TurnStarted(number=2)] == list(run(game, EndTurn()))
    assert (True, 2) == (who(game, "Neo").turn, who(game, "Neo").last_turn)


def test_when_nobody_at_all_can_act_the_holder_keeps_the_turn(game: Engine) -> None:
    """Neo takes the Ninja out, then falls out himself on a hazard: nobody can act, and the
    turn stays with Neo, the holder (R-PDQ-05, R-PDQ-08)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Ninja")))
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 6, 6)
    fall = RollComplicated(character="Neo", qualities=("Charisma",), difficulty="Good")
    run(game, attrs.evolve(fall, hazardous=True), 1, 1)
    run(game, AllocateRanks(character="Neo", steps=("Charisma",)))
    assert who(game, "Neo").out
    assert [ev.TurnEnded(number=1), ev.TurnStarted(number=2)] == list(run(game, EndTurn()))


def test_a_strategy_expires_when_its_owners_turn_comes_again(game: Engine) -> None:
    """Full Defense declared on Neo's turn lasts until his next turn (R-PDQ-10)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Boss:Brawler")))
    run(game, DeclareStrategy(character="Neo", strategy=" Full-Defense "))
    run(game, EndTurn())
    events = run(game, EndTurn())
    assert [
        ev.TurnEnded(number=2),
        ev.StrategyExpired(strategy=Strategy.FULL_DEFENSE),
        ev.TurnStarted(number=3),
    ] == list(events)


def test_full_attack_waits_for_the_characters_turn(game: Engine) -> None:
    """Full Attack is declared on one's own turn; Full Defense may be declared at any time
    (R-PDQ-10, Kristov L305-311)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Boss:Brawler")))
    error = refused(
        game, DeclareStrategy(character="Boss", strategy="full-attack"), errors.NotYourTurn
    )
    assert {"name": "Boss", "current": "Neo"} == error.data
    events = run(game, DeclareStrategy(character="Boss", strategy="full-defense"))
    assert [ev.StrategyDeclared(strategy=Strategy.FULL_DEFENSE)] == list(events)
