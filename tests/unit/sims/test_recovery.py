"""The end of a Sims scene and recovery (recovery.py, the ruleset's ``end_scene``; R-PDQ-08,
R-PDQ-13, PDQ-A3): ranks back by the danger the GM declared, recovery rolls and where the
recovered ranks go, and a scene that cannot end yet."""

from __future__ import annotations

import attrs

from domain.errors import InvalidDieFace
from domain.events import Event
from domain.lifecycle import EndScene
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import (
    AllocateRanks,
    Attack,
    AuthorizeRecovery,
    DeclareDanger,
    DeclareStrategy,
    Kill,
    PlaceRecovery,
    RollRecovery,
)
from domain.rulesets.sims.tables import Danger, RankKind
from domain.rulesets.sims.values import RankRestored
from engine import Engine
from tests.golden.test_sims import NAME, of, refused, run
from tests.unit.sims.conftest import hit_neo, hit_neo_once, knock_neo_out, table, who


def test_a_scene_cannot_end_with_ranks_to_distribute(game: Engine) -> None:
    """Pending ranks block the scene's end."""
    hit_neo(game, (5, 4))
    refused(game, EndScene(), errors.SceneHasUnfinishedBusiness)


def test_a_scene_with_a_tied_attack_cannot_end(game: Engine) -> None:
    """The tie is rolled again before the scene ends (PDQ-A1)."""
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    error = refused(game, EndScene(), errors.SceneHasUnfinishedBusiness)
    assert (
        "Neo: the tied attack on Ninja is rolled again first; finish it before the scene ends"
    ) == error.reason


def _events_of(result_events: tuple[Event, ...], kinds: tuple[type[Event], ...]) -> list[Event]:
    return [e for e in result_events if isinstance(e, kinds)]


def test_momentary_danger_restores_everything_and_brings_back_the_fallen(game: Engine) -> None:
    """Neo went out on his Poor Charisma: at the end of a momentary scene the rank comes back
    and he is back in the scene; the Boss, untouched and without a strategy, is left alone
    (R-PDQ-13 momentary, R-PDQ-08)."""
    knock_neo_out(game)
    events = game.execute(NAME, EndScene()).events
    neo = [
        ev.SceneWrappedUp(danger=Danger.MOMENTARY),
        ev.RanksRecovered(
            restored=(RankRestored(quality="Charisma", before=-1, after=0),), kind=None
        ),
        ev.CharacterReturnedToScene(quality="Charisma"),
    ]
    kinds = (ev.SceneWrappedUp, ev.RanksRecovered, ev.CharacterReturnedToScene)
    assert neo == _events_of(events, kinds)
    assert (False, 0) == (who(game, "Neo").out, who(game, "Neo").lost)


def test_coming_back_names_the_quality_that_was_below_poor(game: Engine) -> None:
    """Hiding went to Poor and Charisma below it: back in the scene names Charisma, the one
    that was zeroed, not the Poor Hiding listed before it (R-PDQ-08)."""
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    run(game, AllocateRanks(character="Neo", steps=("Hiding", "Charisma")))
    events = game.execute(NAME, EndScene()).events
    assert [ev.CharacterReturnedToScene(quality="Charisma")] == of(
        events, ev.CharacterReturnedToScene
    )


def test_a_scene_end_wraps_up_whoever_had_something_going(game: Engine) -> None:
    """Danger declared for the Boss only, Full Defense for the Ninja: both are wrapped up at the
    end of a scene, Neo (nothing lost, nothing going) is not (R-PDQ-13)."""
    run(game, DeclareDanger(danger=Danger.MOMENTARY, characters=("Boss",)))
    run(game, DeclareStrategy(character="Ninja", strategy="full-defense"))
    events = game.execute(NAME, EndScene()).events
    assert [ev.SceneWrappedUp(danger=Danger.MOMENTARY)] * 2 == of(events, ev.SceneWrappedUp)
    assert [None, False] == [who(game, "Ninja").strategy, who(game, "Boss").danger_declared]
    assert not who(game, "Ninja").has_scene_state


def test_the_dead_do_not_stop_the_others_recovering(game: Engine) -> None:
    """Neo is dead; the Boss, hurt by the Ninja, still gets every rank back at the end of a
    momentary scene (R-PDQ-13)."""
    knock_neo_out(game)
    run(game, Kill(attacker="Boss", victim="Neo"))
    run(game, Attack(attacker="Ninja", qualities=(), targets=("Boss:Brawler",)), 6, 5)
    run(game, AllocateRanks(character="Boss", steps=("Nerve", "Brawler")))
    events = game.execute(NAME, EndScene()).events
    assert 1 == len(of(events, ev.RanksRecovered))
    assert (0, True) == (who(game, "Boss").lost, who(game, "Neo").killed)


def test_continuing_danger_authorizes_a_recovery_roll(game: Engine) -> None:
    """Continuing danger: no rank comes back at the end of the scene, a recovery roll is
    authorized instead, once (R-PDQ-13 continuing)."""
    knock_neo_out(game)
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    events = game.execute(NAME, EndScene()).events
    kinds = (ev.SceneWrappedUp, ev.RanksRecovered, ev.RecoveryRollAuthorized)
    assert [
        ev.SceneWrappedUp(danger=Danger.CONTINUING),
        ev.RecoveryRollAuthorized(reason="continuing danger at the end of the scene"),
    ] == _events_of(events, kinds)
    assert who(game, "Neo").out


def test_danger_is_declared_for_the_living_only(game: Engine) -> None:
    """DeclareDanger for everyone skips the dead (R-PDQ-13)."""
    knock_neo_out(game)
    run(game, Kill(attacker="Boss", victim="Neo"))
    events = run(game, DeclareDanger(danger=Danger.CONTINUING))
    assert [ev.DangerDeclared(danger=Danger.CONTINUING)] * 2 == list(events)
    assert [False, True, True] == [who(game, n).danger_declared for n in ("Neo", "Boss", "Ninja")]


def test_failure_ranks_clear_at_scene_end_even_in_continuing_danger(engine: Engine) -> None:
    """failureRanksClearAtSceneEnd: Failure Ranks come back at once; Damage Ranks need a roll."""
    table(engine, failureRanksClearAtSceneEnd="true")
    run(
        engine,
        Attack(
            attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), kind=RankKind.FAILURE
        ),
        5,
        4,
    )
    run(engine, AllocateRanks(character="Neo", steps=("Hiding", "Memory")))
    run(engine, DeclareDanger(danger=Danger.CONTINUING))
    events = engine.execute(NAME, EndScene()).events
    assert 1 == len([e for e in events if isinstance(e, ev.RanksRecovered)])
    assert 0 == who(engine, "Neo").lost
    assert not who(engine, "Neo").recovery_available


def test_failure_ranks_clear_and_damage_ranks_wait_for_a_roll(engine: Engine) -> None:
    """failureRanksClearAtSceneEnd in continuing danger: the Failure Rank comes back at once, the
    Damage Rank needs a recovery roll (PDQ-A3)."""
    table(engine, failureRanksClearAtSceneEnd="true")
    boss = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",))
    run(engine, attrs.evolve(boss, kind=RankKind.FAILURE), 4, 4)
    run(engine, AllocateRanks(character="Neo", steps=("Hiding",)))
    run(engine, boss, 4, 4)
    run(engine, AllocateRanks(character="Neo", steps=("Memory",)))
    run(engine, DeclareDanger(danger=Danger.CONTINUING))
    events = engine.execute(NAME, EndScene()).events
    kinds = (ev.RanksRecovered, ev.RecoveryRollAuthorized)
    assert [
        ev.RanksRecovered(
            restored=(RankRestored(quality="Hiding", before=0, after=1),), kind=RankKind.FAILURE
        ),
        ev.RecoveryRollAuthorized(reason="continuing danger at the end of the scene"),
    ] == _events_of(events, kinds)
    assert {"Hiding": 1, "Memory": 0} == {
        q.name: q.current for q in who(engine, "Neo").qualities if q.name in ("Hiding", "Memory")
    }


def test_failure_ranks_wait_for_the_recovery_roll_by_default(game: Engine) -> None:
    """Continuing danger, default rules: Neo's Failure Rank on Hiding does not come back at the
    end of the scene; his recovery roll brings it back (R-PDQ-13, PDQ-A3)."""
    hit_neo_once(game, RankKind.FAILURE, "Hiding")
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    events = game.execute(NAME, EndScene()).events
    assert ([], 1) == (of(events, ev.RanksRecovered), len(of(events, ev.RecoveryRollAuthorized)))
    recovered = run(game, RollRecovery(character="Neo", steps=("Hiding",)), 2)
    assert [ev.RankRecovered(quality="Hiding", before=0, after=1)] == of(
        recovered, ev.RankRecovered
    )
    assert 0 == who(game, "Neo").lost


def test_the_gm_authorizes_another_roll_with_a_reason(game: Engine) -> None:
    """AuthorizeRecovery records the GM's reason, or 'GM ruling' when none is given."""
    knock_neo_out(game)
    events = run(game, AuthorizeRecovery(character="Neo", reason="  "))
    assert [ev.RecoveryRollAuthorized(reason="GM ruling")] == list(events)


def test_a_recovery_roll_for_nothing_lost_is_refused(game: Engine) -> None:
    """NothingToRecover names the character (R-PDQ-13 NoLostRanks)."""
    error = refused(game, AuthorizeRecovery(character="Neo"), errors.NothingToRecover)
    assert {"name": "Neo"} == error.data


def test_recovery_placed_later_and_not_above_base(game: Engine) -> None:
    """The roll leaves ranks to place; a quality at its base rank takes none."""
    hit_neo(game, (5, 4))
    run(game, AllocateRanks(character="Neo", steps=("Hiding", "Memory")))
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    game.execute(NAME, EndScene())
    events = run(game, RollRecovery(character="Neo"), 6)
    assert [ev.RecoveryRolled(die=6, lost=2, restorable=2, wasted=4)] == list(events)
    refused(game, PlaceRecovery(character="Neo", steps=("Hiding", "Cutlass")), errors.AboveBaseRank)
    refused(
        game, PlaceRecovery(character="Neo", steps=("Hiding",)), errors.RecoveryStepCountMismatch
    )
    run(game, PlaceRecovery(character="Neo", steps=("Hiding", "Memory")))
    assert 0 == who(game, "Neo").lost


def test_a_recovery_placed_at_once_brings_the_character_back(game: Engine) -> None:
    """Neo rolls a 4 with one rank lost: one comes back, three are wasted; placed on the zeroed
    Charisma he is back in the scene, named by that quality (R-PDQ-13, G-PDQ-20)."""
    knock_neo_out(game)
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    game.execute(NAME, EndScene())
    events = run(game, RollRecovery(character="Neo", steps=("charisma",)), 4)
    assert [
        ev.RecoveryRolled(die=4, lost=1, restorable=1, wasted=3),
        ev.RankRecovered(quality="Charisma", before=-1, after=0),
        ev.CharacterReturnedToScene(quality="Charisma"),
    ] == list(events)
    refused(game, RollRecovery(character="Neo"), errors.NothingToRecover, 3)


def test_recovered_ranks_name_the_quality_that_brought_him_back(game: Engine) -> None:
    """Hiding at Poor and Charisma zeroed: placing Hiding first, then Charisma, he is back in
    the scene by Charisma (R-PDQ-13, G-PDQ-20)."""
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    run(game, AllocateRanks(character="Neo", steps=("Hiding", "Charisma")))
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    game.execute(NAME, EndScene())
    events = run(game, RollRecovery(character="Neo", steps=("Hiding", "Charisma")), 5)
    assert [ev.CharacterReturnedToScene(quality="Charisma")] == of(
        events, ev.CharacterReturnedToScene
    )


def test_a_recovery_roll_is_one_six_sided_die(game: Engine) -> None:
    """1d6: a 7 is refused (InvalidDieFace) (R-PDQ-13)."""
    knock_neo_out(game)
    run(game, AuthorizeRecovery(character="Neo"))
    refused(game, RollRecovery(character="Neo"), InvalidDieFace, 7)
