"""Harm without an Action Roll (hazards.py; Special Rules, SG-A5, SG-A13): planted explosives,
falls, fire, and the end of a round, when fire burns and the dying die."""

from __future__ import annotations

from domain.errors import CharacterDead, DomainError
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import Detonate, EndRound, Extinguish, Fall, Ignite
from domain.rulesets.sprawl_goons.tables import Cause, Location
from engine import Engine
from tests.golden.test_sprawl_goons import npc, one, refused, run, sheet, table
from tests.unit.sprawl_goons.conftest import dix


def blast_site(engine: Engine) -> None:
    table(engine)
    dix(engine)
    npc(engine, "Zoner", "5")
    npc(engine, "Vault", "5", system=True)


def test_planted_explosives_refuse_what_the_rules_do_not_allow(engine: Engine) -> None:
    """2d6 or 3d6 only, at least one target, no system, each target once."""
    blast_site(engine)
    cases = [
        (
            Detonate(dice_count=4, targets=("Dix",)),
            errors.UnknownExplosiveType,
            "planted explosives do 2d6 to 3d6 by type: give 2 or 3 dice, got 4 (Special Rules)",
        ),
        (
            Detonate(dice_count=2, targets=()),
            errors.TargetRequired,
            "an explosion needs at least one target",
        ),
        (
            Detonate(dice_count=2, targets=("Dix", "Vault")),
            errors.WrongTarget,
            "Vault is a system and cannot be caught in the blast",
        ),
        (
            Detonate(dice_count=2, targets=("Dix", "dix")),
            errors.DuplicateTarget,
            "Dix is named twice; name each target once",
        ),
    ]
    for command, error, reason in cases:
        assert reason == refused(engine, command, error, 1, 1).reason


def test_one_blast_hurts_everyone_caught_by_the_same_dice(engine: Engine) -> None:
    """Special Rules: the explosive's dice hit each target in full; an NPC at DS 0 dies."""
    blast_site(engine)
    events = run(engine, Detonate(dice_count=3, targets=("Dix", "Zoner"), what=" "), 1, 2, 3)

    def lost(before: int, after: int) -> sg.ResilienceLost:
        return sg.ResilienceLost(
            amount=6,
            cause=Cause.EXPLOSIVE,
            source="planted explosive",
            base=6,
            bonuses=(),
            dice=(1, 2, 3),
            before=before,
            after=after,
        )

    died = sg.CharacterDied(cause="DS reached 0 (planted explosive)")
    assert (lost(12, 6), lost(5, 0), died) == events
    dead = refused(engine, Fall(character="Zoner", metres=3), CharacterDead)
    assert "Zoner is dead and cannot be hurt by a fall (Character Death)" == dead.reason
    grenade = run(engine, Detonate(dice_count=2, targets=("Dix",), what="a grenade"), 2, 2)
    assert [("a grenade", (2, 2), 4)] == [
        (e.source, e.dice, e.amount) for e in grenade if isinstance(e, sg.ResilienceLost)
    ]


def test_explosive_dice_are_d6(engine: Engine) -> None:
    """Special Rules: planted explosives roll d6s; a 7 is refused."""
    blast_site(engine)
    error = refused(engine, Detonate(dice_count=2, targets=("Dix",)), DomainError, 7, 1)
    assert "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up" == (
        f"{error.code}: {error.reason}"
    )


def test_a_fall_costs_1_a_started_3_metres(engine: Engine) -> None:
    """Special Rules: 1 damage per 3 m fallen, rounded up; a fall of 0 m is refused."""
    blast_site(engine)
    zero = refused(engine, Fall(character="Dix", metres=0), errors.InvalidDistance)
    assert "a fall is a distance in metres above 0, got 0 (Special Rules: falling)" == zero.reason
    fallen = run(engine, Fall(character="Dix", metres=4))
    lost = sg.ResilienceLost(
        amount=2, cause=Cause.FALLING, source="a 4 m fall", base=2, bonuses=(), before=12, after=10
    )
    assert (lost,) == fallen


def test_fire_is_set_for_1_to_3_rounds_of_at_least_1_damage(engine: Engine) -> None:
    """SG-A13: fire does its damage at the end of each of up to 3 rounds."""
    blast_site(engine)
    cases = [
        (Ignite(character="Dix", damage=1, rounds=4), errors.FireRoundsOutOfRange, "got 4"),
        (Ignite(character="Dix", damage=1, rounds=0), errors.FireRoundsOutOfRange, "got 0"),
        (
            Ignite(character="Dix", damage=0),
            errors.InvalidAmount,
            "fire damage must be a whole number of 1 or more, got 0",
        ),
        (Ignite(character="Vault", damage=1), errors.WrongTarget, "Vault is a system and cannot"),
    ]
    for command, error, words in cases:
        assert words in refused(engine, command, error).reason
    assert (sg.SetOnFire(damage=1, rounds=3),) == run(engine, Ignite(character="Dix", damage=1))
    assert (sg.SetOnFire(damage=2, rounds=1),) == run(
        engine, Ignite(character="Zoner", damage=2, rounds=1)
    )


def test_putting_a_fire_out_says_how(engine: Engine) -> None:
    """Only a burning character's fire goes out; the reason defaults to 'put out'."""
    blast_site(engine)
    cold = refused(engine, Extinguish(character="Dix"), errors.NotOnFire)
    assert "Dix is not on fire" == cold.reason
    run(engine, Ignite(character="Dix", damage=1))
    assert (sg.FireExtinguished(reason="put out"),) == run(
        engine, Extinguish(character="Dix", reason=" ")
    )
    run(engine, Ignite(character="Dix", damage=1))
    assert (sg.FireExtinguished(reason="rain"),) == run(
        engine, Extinguish(character="Dix", reason=" rain ")
    )


def test_the_end_of_a_round_burns_the_burning_and_counts_rounds(engine: Engine) -> None:
    """SG-A13: at each round's end fire burns (its rounds count down) and does its damage; the
    rounds are numbered; with nobody fighting, burning or dying there is no round to end."""
    blast_site(engine)
    none = refused(engine, EndRound(), errors.NoCombat)
    assert "nobody has rolled initiative, is dying or burning" in none.reason
    run(engine, Ignite(character="Dix", damage=5, rounds=2))
    burned = sg.ResilienceLost(
        amount=5, cause=Cause.FIRE, source="fire", base=5, bonuses=(), before=12, after=7
    )
    first = (sg.RoundEnded(number=1), sg.FireBurned(rounds_left=1), burned)
    assert first == run(engine, EndRound())
    second = run(engine, EndRound())
    assert (sg.RoundEnded(number=2), sg.FireBurned(rounds_left=0)) == second[:2]
    assert (7, 2) == (second[2].before, second[2].after)  # type: ignore[attr-defined]
    assert sheet(engine, "Dix").fire is None


def test_the_dying_die_when_their_clock_runs_out(engine: Engine) -> None:
    """SG-A5: a 7+ critical injury (the second, at +3) is death at the end of the next round:
    the round it came in ends with the clock at 1, the next one kills."""
    blast_site(engine)
    run(engine, Fall(character="Dix", metres=40), 2, 5)
    crit = run(engine, Fall(character="Dix", metres=3), 6, 1)
    assert sg.DeathClockStarted(injury=2) in crit
    ticked = (sg.RoundEnded(number=1), sg.DeathClockTicked(rounds_left=1))
    assert ticked == run(engine, EndRound())
    assert not sheet(engine, "Dix").dead
    died = sg.CharacterDied(cause="a 7+ critical injury: death in 1 round")
    assert (sg.RoundEnded(number=2), died) == run(engine, EndRound())
    assert sheet(engine, "Dix").dead


def test_a_blast_and_a_fire_that_reach_zero_roll_critical_injuries(engine: Engine) -> None:
    """R-SG-06: a blast that takes a PC to 0 rolls a critical injury after its own dice; so
    does fire burning at the end of a round, from the referee's dice then."""
    blast_site(engine)
    run(engine, Fall(character="Dix", metres=30))
    run(engine, Ignite(character="Dix", damage=2))
    blast = run(engine, Detonate(dice_count=2, targets=("Dix",)), 1, 1, 2, 6)
    crit = one(blast, sg.CriticalInjuryRolled)
    assert (2, 0, Location.HEAD) == (crit.severity_die, crit.modifier, crit.location)
    burned = run(engine, EndRound(), 1, 1)
    crit = one(burned, sg.CriticalInjuryRolled)
    assert (2, 1, 4, Location.LEG) == (crit.number, crit.severity_die, crit.total, crit.location)
