"""Sprawl Goons rules that mutation testing (`make mutation`, issue 18) showed no test held: each
test states what the referee would see (the events recorded, the refusal and its message) and
cites the DIGEST rule it holds (§2.3 SG-R.., §2.6 SG-A..)."""

from __future__ import annotations

import pytest

from domain.errors import CharacterDead
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    CreateCharacter,
    Detonate,
    DisableCyberLimb,
    EndRound,
    Extinguish,
    Fall,
    Hack,
    Ignite,
    RepairCyberLimb,
    SlagArmour,
    ThrowGrenade,
)
from domain.rulesets.sprawl_goons.tables import Cause, DiceMode, Location, Purpose, Stat
from engine import Engine
from tests.golden.test_sprawl_goons import npc, refused, run, sheet, table

CONSOLE = "Ono-Sendai Cyberspace Console and 'trodes"


def dix(engine: Engine) -> None:
    """Dix: Cognition 2, a console, a cybernetic arm and a kevlar jacket."""
    create = CreateCharacter(
        character="Dix",
        player="hal",
        morphology=0,
        reaction=1,
        cognition=2,
        equilibrium=1,
        items=("console", "implant:Cybernetic arm", "armour:Kevlar jacket"),
    )
    run(engine, create, 1, 1, 1)


def hack_rolled(
    dice: tuple[int, ...], kept: tuple[int, ...], ds: int, **kw: object
) -> sg.ActionRolled:
    total = sum(kept) + 2 + 1
    fields: dict[str, object] = {
        "purpose": Purpose.HACK,
        "stat": Stat.COGNITION,
        "stat_value": 2,
        "items": (sg.ItemBonus(item=CONSOLE, bonus=1),),
        "modifiers": (),
        "encumbrance": 0,
        "mode": DiceMode.NORMAL,
        "called": (),
        "forced_glitch": False,
        "dice": dice,
        "kept": kept,
        "total": total,
        "ds": ds,
        "target": "Vault",
        "margin": total - ds,
        "success": total >= ds,
        "dangerous": False,
        "others": (),
    }
    return sg.ActionRolled(**fields)  # type: ignore[arg-type]


# --- Hacking (SG-R hacking, SG-A systemDsDepletes) ---------------------------------------------


def test_a_successful_hack_breaches_the_system(engine: Engine) -> None:
    """Hacking: Cognition + console + 2d6 against the system's DS; success breaches it."""
    table(engine)
    dix(engine)
    npc(engine, "Vault", "9", system=True)
    events = run(engine, Hack(character="Dix", system="Vault", console="console"), 3, 4)
    assert (hack_rolled((3, 4), (3, 4), 9), sg.SystemBreached(by="Dix")) == events
    assert sheet(engine, "Vault").breached


def test_a_called_glitch_and_a_bonus_count_in_the_hack(engine: Engine) -> None:
    """The referee's Glitch keeps the two lowest of three; a situational bonus adds to the total."""
    table(engine)
    dix(engine)
    npc(engine, "Vault", "10", system=True, neural=True)
    bonus = ("ICE-breaker=+2",)
    hack = Hack(character="Dix", system="Vault", console="console", bonuses=bonus, glitch=True)
    rolled = run(engine, hack, 6, 1, 2)[0]
    assert isinstance(rolled, sg.ActionRolled)
    expected = (DiceMode.GLITCH, (DiceMode.GLITCH,), (1, 2), 8, True, "Vault")
    actual = (
        rolled.mode,
        rolled.called,
        rolled.kept,
        rolled.total,
        rolled.dangerous,
        rolled.target,
    )
    assert expected == actual
    upgraded = Hack(character="Dix", system="Vault", console="console", upgrade=True)
    rolled = run(engine, upgraded, 6, 1, 2)[0]
    assert isinstance(rolled, sg.ActionRolled)
    assert (DiceMode.UPGRADE, (6, 2)) == (rolled.mode, rolled.kept)


def test_under_system_ds_depletes_a_hack_wears_the_ds_down_then_breaches(engine: Engine) -> None:
    """SG-A systemDsDepletes: a success takes its margin off the system's DS; at 0 it is
    breached. A failure against a system that is not secure costs nothing."""
    table(engine, systemDsDepletes="true")
    dix(engine)
    npc(engine, "Vault", "9", system=True)
    first = run(engine, Hack(character="Dix", system="Vault", console="console"), 3, 4)
    lost = sg.ResilienceLost(
        amount=1, cause=Cause.HIT, source="Dix", base=1, bonuses=(), before=9, after=8
    )
    assert (hack_rolled((3, 4), (3, 4), 9), lost) == first
    assert not sheet(engine, "Vault").breached
    missed = run(engine, Hack(character="Dix", system="Vault", console="console"), 1, 1)
    assert (hack_rolled((1, 1), (1, 1), 8),) == missed
    run(engine, Hack(character="Dix", system="Vault", console="console"), 6, 6)  # 8 -> 1
    last = run(engine, Hack(character="Dix", system="Vault", console="console"), 1, 2)
    lost = sg.ResilienceLost(
        amount=5, cause=Cause.HIT, source="Dix", base=5, bonuses=(), before=1, after=0
    )
    assert (hack_rolled((1, 2), (1, 2), 1), lost, sg.SystemBreached(by="Dix")) == last
    assert (True, 0) == (sheet(engine, "Vault").breached, sheet(engine, "Vault").resilience)


def test_hacking_refusals_say_why(engine: Engine) -> None:
    """No console named, one not carried, a non-console, a PC as the system, a breached one."""
    table(engine)
    dix(engine)
    npc(engine, "Vault", "3", system=True)
    cases = [
        (Hack(character="Dix", system="Vault"), errors.ConsoleRequired, "name the console Dix"),
        (Hack(character="Dix", system="Vault", console="deck"), errors.ConsoleRequired, "'deck'"),
        (
            Hack(character="Dix", system="Vault", console="kevlar"),
            errors.ConsoleRequired,
            "Kevlar jacket is not a cyberspace console",
        ),
        (
            Hack(character="Dix", system="Dix", console="console"),
            errors.WrongTarget,
            "Dix is a PC and cannot be hacked",
        ),
    ]
    for command, error, words in cases:
        assert words in refused(engine, command, error, 3, 4).reason
    run(engine, Hack(character="Dix", system="Vault", console="console"), 3, 4)
    again = refused(
        engine,
        Hack(character="Dix", system="Vault", console="console"),
        errors.SystemAlreadyBreached,
    )
    assert "Vault was breached already (Hacking)" == again.reason


def test_a_failed_hack_on_a_secure_system_hurts_the_hacker(engine: Engine) -> None:
    """Neural damage: the margin of failure against a secure system, from the system's name."""
    table(engine)
    dix(engine)
    npc(engine, "Ice", "12", system=True, neural=True)
    events = run(engine, Hack(character="Dix", system="Ice", console="console"), 1, 2)
    lost = sg.ResilienceLost(
        amount=6, cause=Cause.NEURAL, source="Ice", base=6, bonuses=(), before=12, after=6
    )
    assert lost == events[1]
    assert 6 == sheet(engine, "Dix").resilience


# --- Critical injuries negated or mended (Special Rules, Body Locations; SG-A6) -----------------


def hurt(engine: Engine) -> None:
    """Dix falls 40 m: injury 1 to the arm; then 3 m more: injury 2 to the leg."""
    run(engine, Fall(character="Dix", metres=40), 2, 5)
    run(engine, Fall(character="Dix", metres=3), 3, 1)


def test_slagging_armour_negates_the_latest_open_injury_or_the_one_named(engine: Engine) -> None:
    """Armour slags once to negate a critical injury: by default the latest one still open."""
    table(engine)
    dix(engine)
    none = refused(engine, SlagArmour(character="Dix", armour="kevlar"), errors.NoCriticalInjury)
    assert "Dix has no critical injury that is not negated or treated" == none.reason
    hurt(engine)
    slagged = run(engine, SlagArmour(character="Dix", armour="kevlar", injury=1))
    assert (sg.ArmourSlagged(item="Kevlar jacket", injury=1),) == slagged
    assert [1] == [i.number for i in sheet(engine, "Dix").injuries if i.negated_by]


def test_a_named_injury_must_be_open(engine: Engine) -> None:
    """An injury already negated cannot be negated again: the refusal names it."""
    table(engine)
    dix(engine)
    hurt(engine)
    run(engine, DisableCyberLimb(character="Dix", limb="arm", injury=1))
    taken = refused(
        engine, SlagArmour(character="Dix", armour="kevlar", injury=1), errors.NoCriticalInjury
    )
    assert "Dix has no critical injury that is numbered 1 and open" == taken.reason
    assert (sg.ArmourSlagged(item="Kevlar jacket", injury=2),) == run(
        engine, SlagArmour(character="Dix", armour="kevlar")
    )


def test_a_cyber_limb_shuts_down_for_an_injury_to_its_limb(engine: Engine) -> None:
    """Body Locations: a critical injury to a cybernetic arm shuts the arm down instead; the
    limb must match the injury's location, and must be a working cybernetic limb."""
    table(engine)
    dix(engine)
    hurt(engine)
    wrong = refused(engine, DisableCyberLimb(character="Dix", limb="arm"), errors.WrongLimb)
    assert "critical injury 2 struck the leg, not an arm (Body Locations)" == wrong.reason
    not_limb = refused(
        engine, DisableCyberLimb(character="Dix", limb="kevlar", injury=1), errors.NotACyberLimb
    )
    assert "Kevlar jacket is not a cybernetic arm or leg (Special Rules)" == not_limb.reason
    down = run(engine, DisableCyberLimb(character="Dix", limb="arm", injury=1))
    assert (sg.CyberLimbDisabled(item="Cybernetic arm", injury=1),) == down
    injuries = sheet(engine, "Dix").injuries
    assert [("Cybernetic arm", Location.ARM), (None, Location.LEG)] == [
        (i.negated_by, i.location) for i in injuries
    ]


@pytest.mark.parametrize(("tech", "named"), [(" Mo ", "Mo"), ("  ", "a tech")])
def test_a_tech_repairs_a_limb_that_shut_down(engine: Engine, tech: str, named: str) -> None:
    """Only a broken cybernetic limb is repaired; the tech is named (or 'a tech')."""
    table(engine)
    dix(engine)
    hurt(engine)
    working = refused(
        engine, RepairCyberLimb(character="Dix", limb="arm", tech="Mo"), errors.LimbWorking
    )
    assert "Cybernetic arm is working; there is nothing to repair" == working.reason
    not_limb = refused(
        engine, RepairCyberLimb(character="Dix", limb="kevlar", tech="Mo"), errors.NotACyberLimb
    )
    assert "Kevlar jacket is not a cybernetic arm or leg (Special Rules)" == not_limb.reason
    run(engine, DisableCyberLimb(character="Dix", limb="arm", injury=1))
    repaired = run(engine, RepairCyberLimb(character="Dix", limb="arm", tech=tech))
    assert (sg.CyberLimbRepaired(item="Cybernetic arm", tech=named),) == repaired


# --- Harm without an Action Roll: explosives, falls, fire, the end of a round (Special Rules) ---


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


# --- Grenades (Special Rules, SG-A12) ------------------------------------------------------------


def grenade_rolled(dice: tuple[int, ...], target: str, **changed: object) -> sg.ActionRolled:
    """Dix's grenade: a Reaction roll (Reaction 1) against Moderate, DS 10."""
    kept = changed.pop("kept", dice)
    modifiers = changed.pop("modifiers", ())
    items = changed.pop("items", ())
    bonus = sum(m.value for m in modifiers) + sum(i.bonus for i in items)  # type: ignore[attr-defined]
    total = sum(kept) + 1 + bonus  # type: ignore[arg-type]
    fields: dict[str, object] = {
        "purpose": Purpose.GRENADE,
        "stat": Stat.REACTION,
        "stat_value": 1,
        "items": items,
        "modifiers": modifiers,
        "encumbrance": 0,
        "mode": DiceMode.NORMAL,
        "called": (),
        "forced_glitch": False,
        "dice": dice,
        "kept": kept,
        "total": total,
        "ds": 10,
        "target": target,
        "margin": total - 10,
        "success": total >= 10,
        "dangerous": False,
        "others": (),
        **changed,
    }
    return sg.ActionRolled(**fields)  # type: ignore[arg-type]


def grenade_site(engine: Engine) -> None:
    table(engine)
    dix(engine)
    npc(engine, "Zoner", "20")
    npc(engine, "Boss", "20")


def test_a_grenade_in_an_enclosed_space_hurts_every_target_by_margin_plus_3(
    engine: Engine,
) -> None:
    """SG-A12: Reaction against DS 10; each target takes the margin, +3 enclosed."""
    grenade_site(engine)
    throw = ThrowGrenade(
        character="Dix", targets=("Zoner", "Boss"), enclosed=True, bonuses=("luck=+1",)
    )
    enclosed = (sg.Modifier(source="enclosed space", value=3),)
    lost = sg.ResilienceLost(
        amount=7, cause=Cause.GRENADE, source="Dix", base=4, bonuses=enclosed, before=20, after=13
    )
    rolled = grenade_rolled((6, 6), "Zoner, Boss", modifiers=(sg.Modifier(source="luck", value=1),))
    assert (rolled, lost, lost) == run(engine, throw, 6, 6)
    open_air = run(engine, ThrowGrenade(character="Dix", targets=("Zoner",)), 6, 5)
    lost = sg.ResilienceLost(
        amount=2, cause=Cause.GRENADE, source="Dix", base=2, bonuses=(), before=13, after=11
    )
    assert (grenade_rolled((6, 5), "Zoner"), lost) == open_air


def test_a_missed_grenade_hurts_nobody_unless_the_referee_rules_a_fumble(engine: Engine) -> None:
    """SG-A12: a miss does nothing; a fumble (a dangerous roll) hurts the thrower by the margin."""
    grenade_site(engine)
    arm = (sg.ItemBonus(item="Cybernetic arm", bonus=1),)
    glitched = ThrowGrenade(character="Dix", targets=("Zoner",), glitch=True, items=("arm",))
    expected = grenade_rolled(
        (1, 2, 6), "Zoner", kept=(1, 2), items=arm, mode=DiceMode.GLITCH, called=(DiceMode.GLITCH,)
    )
    assert (expected,) == run(engine, glitched, 1, 2, 6)
    fumbled = run(engine, ThrowGrenade(character="Dix", targets=("Zoner",), fumble=True), 1, 2)
    own = sg.ResilienceLost(
        amount=6,
        cause=Cause.GRENADE,
        source="own grenade (fumbled)",
        base=6,
        bonuses=(),
        before=12,
        after=6,
    )
    assert (grenade_rolled((1, 2), "Zoner", dangerous=True), own) == fumbled
    upgraded = run(engine, ThrowGrenade(character="Dix", targets=("Boss",), upgrade=True), 1, 2, 6)
    assert (DiceMode.UPGRADE, (2, 6)) == (upgraded[0].mode, upgraded[0].kept)  # type: ignore[attr-defined]


def test_a_grenade_named_must_have_uses_to_spend(engine: Engine) -> None:
    """Only a consumable is spent as the grenade thrown."""
    grenade_site(engine)
    throw = ThrowGrenade(character="Dix", targets=("Zoner",), grenade="kevlar")
    assert (
        "Kevlar jacket has no uses to spend"
        == refused(engine, throw, errors.NotConsumable, 1, 2).reason
    )
