"""Sims damage (damage.py, R-PDQ-07, R-PDQ-08, R-PDQ-09): the ranks taken distributed over the
qualities, going out of the scene below Poor (PDQ-A4), and Out for Blood: killing damage and
the kill stated on the killer's turn (PDQ-A18)."""

from __future__ import annotations

import pytest
from freezegun import freeze_time
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import CharacterDead, DomainError
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import (
    AllocateRanks,
    Attack,
    CreateCharacter,
    EndTurn,
    Kill,
    SetTurnOrder,
)
from domain.rulesets.sims.tables import RankKind, TieBreak
from engine import Engine
from tests.conftest import FROZEN_AT, event_count
from tests.golden.test_sims import NAME, STARTING_SHEET, of, refused, run
from tests.unit.sims.conftest import hit_neo, hit_neo_once, knock_neo_out, table, who


def test_allocating_more_ranks_than_taken_is_refused(game: Engine) -> None:
    """2 ranks taken, 3 steps given: refused, nothing recorded; then too few is refused too."""
    hit_neo(game, (5, 4))  # 11 against 9: 2 ranks
    refused(
        game,
        AllocateRanks(character="Neo", steps=("Hiding", "Memory", "Languages")),
        errors.AllocationCountMismatch,
    )
    refused(game, AllocateRanks(character="Neo", steps=("Hiding",)), errors.AllocationCountMismatch)
    refused(game, AllocateRanks(character="Neo", steps=("Hiding", "Wings")), errors.QualityNotOwned)


def test_more_steps_than_ranks_are_refused_with_both_counts(game: Engine) -> None:
    """Two ranks, three steps: AllocationCountMismatch names the ranks taken and the steps
    given, before any step is placed (R-PDQ-07)."""
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    command = AllocateRanks(character="Neo", steps=("Hiding", "Memory", "Languages"))
    error = refused(game, command, errors.AllocationCountMismatch)
    assert {"name": "Neo", "ranks": 2, "steps": 3} == error.data


def test_steps_after_bottoming_out_are_refused(game: Engine) -> None:
    """Charisma is Poor: its first step takes it below Poor, so no step may follow it."""
    hit_neo(game, (5, 4))
    refused(
        game,
        AllocateRanks(character="Neo", steps=("Charisma", "Hiding")),
        errors.StepsAfterOutOfScene,
    )
    events = run(game, AllocateRanks(character="Neo", steps=("Charisma",)))
    assert [ev.RanksDiscarded(count=1)] == [e for e in events if isinstance(e, ev.RanksDiscarded)]


QUALITY_NAMES = [q.split(":")[0] for q in STARTING_SHEET] + ["Wings", "none"]


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.sampled_from(QUALITY_NAMES), max_size=5))
def test_every_allocation_is_exact_or_refused(steps: list[str]) -> None:
    """Any list of steps for 2 ranks either fits exactly or is refused with nothing appended."""
    with freeze_time(FROZEN_AT), Engine() as engine:
        table(engine)
        hit_neo(engine, (5, 4))
        before = event_count(engine)
        try:
            events = run(engine, AllocateRanks(character="Neo", steps=tuple(steps)))
        except DomainError:
            assert before == event_count(engine)
            return
        downshifts = [e for e in events if isinstance(e, ev.QualityDownshifted)]
        out = any(isinstance(e, ev.CharacterOutOfScene) for e in events)
        assert len(downshifts) == (len(steps) if out else 2)
        assert who(engine, "Neo").pending is None


def test_force_bottom_out_last_keeps_other_qualities_first(engine: Engine) -> None:
    """forceBottomOutLast: a Poor quality goes below Poor only when all others are Poor."""
    table(engine, forceBottomOutLast="true")
    hit_neo(engine, (5, 4))
    refused(engine, AllocateRanks(character="Neo", steps=("Charisma",)), errors.BottomOutLast)


def test_bottoming_out_last_is_allowed_once_every_other_quality_is_poor(engine: Engine) -> None:
    """forceBottomOutLast: with his other quality at Poor, Tank's Poor Grit may go below Poor
    (PDQ-A4 option, Kristov L323)."""
    table(engine, forceBottomOutLast="true")
    tank = CreateCharacter(
        character="Tank",
        player="carol",
        qualities=("Grit:Physical:Poor", "Wit:Mental:Poor"),
        custom=True,
    )
    run(engine, tank)
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Tank",)), 4, 2)
    events = run(engine, AllocateRanks(character="Tank", steps=("Grit",)))
    assert [ev.CharacterOutOfScene(quality="Grit", turn=0)] == of(events, ev.CharacterOutOfScene)


def test_bottoming_out_last_waits_for_an_average_quality(engine: Engine) -> None:
    """forceBottomOutLast: Tank's Wit is still Average, so his Poor Grit may not go below Poor
    yet (PDQ-A4 option)."""
    table(engine, forceBottomOutLast="true")
    tank = CreateCharacter(
        character="Tank",
        player="carol",
        qualities=("Grit:Physical:Poor", "Wit:Mental:Average"),
        custom=True,
    )
    run(engine, tank)
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Tank",)), 4, 2)
    error = refused(engine, AllocateRanks(character="Tank", steps=("Grit",)), errors.BottomOutLast)
    assert {"quality": "Grit"} == error.data


def test_a_secondary_npc_bottoms_out_under_the_house_rule_too(engine: Engine) -> None:
    """forceBottomOutLast: the Ninja's one track has no other quality to wait for (PDQ-A16)."""
    table(engine, forceBottomOutLast="true")
    events = run(engine, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 4, 3)
    assert [(1, 0), (0, -1)] == [(e.before, e.after) for e in of(events, ev.QualityDownshifted)]
    assert who(engine, "Ninja").out


def test_undoing_an_attack_needs_its_allocation_undone_first(game: Engine) -> None:
    """The allocation depends on the hit: undo refuses alone, and undoes both together."""
    hit_neo(game, (5, 4))
    run(game, AllocateRanks(character="Neo", steps=("Hiding", "Memory")))
    attack = game.campaign(NAME).rulings - 1
    with pytest.raises(DomainError):
        game.undo(NAME, attack, reason="wrong target")
    game.undo(NAME, attack, reason="wrong target", with_dependents=True)
    assert (0, None) == (who(game, "Neo").lost, who(game, "Neo").pending)


def test_killing_damage_kills_when_it_takes_a_character_out(engine: Engine) -> None:
    """lethality=choose-at-start: killing damage that takes a character out kills it."""
    table(engine, lethality="choose-at-start")
    events = run(
        engine,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
        6,
        6,
    )
    assert 1 == len([e for e in events if isinstance(e, ev.CharacterKilled)])
    assert who(engine, "Ninja").killed


def test_killing_damage_on_a_player_kills_once_the_ranks_put_him_out(engine: Engine) -> None:
    """lethality=choose-at-start: Neo distributes killing damage and goes out, so he dies by
    the damage's source (R-PDQ-09 option)."""
    table(engine, lethality="choose-at-start")
    attack = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), killing=True)
    run(engine, attack, 5, 4)
    events = run(engine, AllocateRanks(character="Neo", steps=("Charisma",)))
    assert [ev.CharacterKilled(by_id=None, by="Boss")] == of(events, ev.CharacterKilled)
    assert who(engine, "Neo").killed


def test_killing_damage_that_leaves_a_player_standing_kills_nobody(engine: Engine) -> None:
    """The same two killing ranks on Hiding and Memory: Neo stays in, alive."""
    table(engine, lethality="choose-at-start")
    attack = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), killing=True)
    run(engine, attack, 5, 4)
    events = run(engine, AllocateRanks(character="Neo", steps=("Hiding", "Memory")))
    assert [] == of(events, ev.CharacterKilled)
    assert (False, False) == (who(engine, "Neo").killed, who(engine, "Neo").out)


def test_killing_damage_dealt_as_failure_ranks_is_refused(engine: Engine) -> None:
    """Killing needs a physical conflict: not Failure Ranks (R-PDQ-09 NotAPhysicalConflict)."""
    table(engine, lethality="choose-at-start")
    attack = Attack(
        attacker="Boss",
        qualities=("Brawler",),
        targets=("Neo",),
        killing=True,
        kind=RankKind.FAILURE,
    )
    error = refused(engine, attack, errors.NotAPhysicalConflict, 5, 4)
    assert {"what": "killing damage dealt as Failure Ranks"} == error.data


def test_a_killing_blow_on_a_secondary_npc_kills_it_at_once(engine: Engine) -> None:
    """A secondary NPC's one track takes the ranks at once: killing damage that takes it out
    records its death by the attacker (R-PDQ-09 option, PDQ-A16)."""
    table(engine, lethality="choose-at-start")
    events = run(
        engine,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
        4,
        4,
    )
    assert [ev.CharacterKilled(by_id=who(engine, "Neo").id, by="Neo")] == of(
        events, ev.CharacterKilled
    )
    (inflicted,) = of(events, ev.DamageRanksInflicted)
    assert (3, True) == (inflicted.ranks, inflicted.killing)


def test_outside_a_conflict_a_helpless_victim_is_killed_by_a_statement(game: Engine) -> None:
    """No roll, no turn order: CharacterKilled names who killed (R-PDQ-09, G-PDQ-36)."""
    knock_neo_out(game)
    events = run(game, Kill(attacker="boss", victim="neo"))
    assert [ev.CharacterKilled(by_id=who(game, "Boss").id, by="Boss")] == list(events)
    assert who(game, "Neo").killed


def test_in_a_conflict_the_kill_waits_for_the_killers_turn(game: Engine) -> None:
    """Neo goes out on the Boss's turn 1: the kill is refused then (KillNotOnNextTurn); Neo's
    turn is passed over, and the kill is stated on the Boss's next turn (PDQ-A18)."""
    run(game, SetTurnOrder(entries=("Boss:Brawler", "Neo:Cutlass"), ties=TieBreak.AS_LISTED))
    knock_neo_out(game)
    error = refused(game, Kill(attacker="Boss", victim="Neo"), errors.KillNotOnNextTurn)
    assert {"name": "Neo"} == error.data
    run(game, EndTurn())  # Neo cannot act: the Boss's turn 2 starts
    assert [ev.CharacterKilled(by_id=who(game, "Boss").id, by="Boss")] == list(
        run(game, Kill(attacker="Boss", victim="Neo"))
    )


def test_a_kill_is_stated_on_the_killers_own_turn(game: Engine) -> None:
    """The Boss took the Ninja out on his turn; on Neo's turn the Boss cannot state the kill
    (NotYourTurn names whose turn it is) (R-PDQ-09 NotAttackersTurn)."""
    order = SetTurnOrder(entries=("Boss:Brawler", "Neo:Cutlass"), ties=TieBreak.AS_LISTED)
    run(game, order)
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Ninja",)), 6, 6)
    run(game, EndTurn())
    error = refused(game, Kill(attacker="Boss", victim="Ninja"), errors.NotYourTurn)
    assert {"name": "Boss", "current": "Neo"} == error.data


def test_out_on_failure_ranks_is_no_kill_whatever_else_was_hurt(game: Engine) -> None:
    """Neo's Hiding took a Damage Rank (Average to Poor), then his Poor Charisma went below Poor
    on a Failure Rank: he went out on Failure, so no kill (R-PDQ-09 NotAPhysicalConflict)."""
    hit_neo_once(game, RankKind.DAMAGE, "Hiding")
    hit_neo_once(game, RankKind.FAILURE, "Charisma")
    assert who(game, "Neo").out
    error = refused(game, Kill(attacker="Boss", victim="Neo"), errors.NotAPhysicalConflict)
    assert {"what": "Neo went out on Failure Ranks"} == error.data


def test_the_dead_are_refused_with_the_shared_refusal(engine: Engine) -> None:
    """A killed character cannot be killed again: CHARACTER_DEAD, naming Out for Blood."""
    table(engine, lethality="choose-at-start")
    run(
        engine,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
        6,
        6,
    )
    before = event_count(engine)
    with pytest.raises(CharacterDead) as raised:
        engine.execute(NAME, Kill(attacker="Neo", victim="Ninja"))
    assert before == event_count(engine)
    assert "CHARACTER_DEAD" == raised.value.code
    assert "Ninja is dead and cannot be killed again (Out for Blood)" == raised.value.reason
