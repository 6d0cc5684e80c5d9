"""Sprawl Goons rules that mutation testing (`make mutation`, issue 18) showed no test held: each
test states what the referee would see (the events recorded, the refusal and its message) and
cites the DIGEST rule it holds (§2.3 SG-R.., §2.6 SG-A..)."""

from __future__ import annotations

from uuid import UUID, uuid4

import pytest
from attrs import define

from domain.campaign import CampaignState
from domain.commands import Command
from domain.dice import EnteredDice
from domain.errors import CharacterDead, DomainError, ReplayMismatch
from domain.events import Event
from domain.lifecycle import EndScene
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.commands import (
    AddItem,
    ApplyPatch,
    Attack,
    ChangeCash,
    CompleteMission,
    CreateCharacter,
    Detonate,
    DisableCyberLimb,
    DropItem,
    EndRound,
    Extinguish,
    Fall,
    GiveFirstAid,
    GiveMedicalAttention,
    Hack,
    Ignite,
    LevelUp,
    MakeActionRoll,
    Reload,
    RepairCyberLimb,
    Rest,
    RollInitiative,
    RuleBulkiness,
    SlagArmour,
    TakeAim,
    ThrowGrenade,
    UseItem,
)
from domain.rulesets.sprawl_goons.state import evolve
from domain.rulesets.sprawl_goons.tables import (
    Category,
    Cause,
    DiceMode,
    Location,
    Purpose,
    Stat,
    limb_of,
)
from engine import Engine
from tests.golden.test_sprawl_goons import (
    CAMPAIGN,
    npc,
    one,
    only,
    refused,
    run,
    sheet,
    smg_table,
    table,
    tanner,
)

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
    total = sum(kept) + 1 + bonus  # type: ignore[call-overload]
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


# --- Refusals: the code, and a message naming who and why ------------------------------------


def doc(engine: Engine) -> None:
    """Doc: Cognition 2, four Lazarus Patches, a toolkit, a penlight and a first aid kit."""
    create = CreateCharacter(
        character="Doc",
        player="fay",
        morphology=0,
        reaction=1,
        cognition=2,
        equilibrium=1,
        items=("lazarus", "toolkit", "penlight"),
    )
    run(engine, create, 1, 1, 1, 4)
    run(engine, AddItem(character="Doc", item="First aid kit", category="gear"))


def corpses(engine: Engine) -> None:
    """Cass, a PC dead of a 7+ injury (Character Death), and Stiff, an NPC fallen to DS 0."""
    create = CreateCharacter(
        character="Cass",
        player="gil",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("penlight", "toolkit", "drone"),
    )
    run(engine, create, 1, 1, 1)
    run(engine, Fall(character="Cass", metres=40), 2, 5)
    run(engine, Fall(character="Cass", metres=3), 6, 1)
    run(engine, EndRound())
    run(engine, EndRound())
    npc(engine, "Stiff", "5")
    run(engine, Fall(character="Stiff", metres=30))
    assert (True, True) == (sheet(engine, "Cass").dead, sheet(engine, "Stiff").dead)


def cast(engine: Engine) -> None:
    """Dix and Doc (PCs), Tanner at 10/12, the Zoner (NPC, DS 10), the Vault (a system), and
    the dead: Cass (a PC) and Stiff (an NPC)."""
    table(engine)
    dix(engine)
    doc(engine)
    tanner(engine)
    run(engine, Fall(character="Tanner", metres=6))
    npc(engine, "Zoner", "10")
    npc(engine, "Vault", "9", system=True)
    corpses(engine)


SG_REFUSALS: list[tuple[str, Command, tuple[int, ...], str]] = [
    # Healing (SG-R07): who may patch, be patched, treated, rest or get first aid.
    (
        "patch-by-the-dead",
        ApplyPatch(character="Cass"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot apply a patch (Character Death)",
    ),
    (
        "patch-none-left",
        ApplyPatch(character="Dix"),
        (),
        "NO_PATCHES_LEFT: Dix has no Lazarus Patches left (Healing)",
    ),
    (
        "patch-an-npc",
        ApplyPatch(character="Doc", patient="Zoner"),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters heal with Lazarus "
        "Patches (Game Structure)",
    ),
    (
        "patch-the-dead",
        ApplyPatch(character="Doc", patient="Cass"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot be patched up (Character Death)",
    ),
    (
        "first-aid-an-npc",
        GiveFirstAid(healer="Doc", patient="Zoner", kit="first aid"),
        (5, 4),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters receive first aid "
        "(Game Structure)",
    ),
    (
        "first-aid-the-dead",
        GiveFirstAid(healer="Doc", patient="Cass", kit="first aid"),
        (5, 4),
        "CHARACTER_DEAD: Cass is dead and cannot receive first aid (Character Death)",
    ),
    (
        "first-aid-unhurt",
        GiveFirstAid(healer="Doc", patient="Dix", kit="first aid"),
        (5, 4),
        "PATIENT_UNHURT: Dix has lost no Resilience (12/12): first aid gains an injured PC 2 "
        "Resilience Points, and critical injuries cannot be healed this way (Healing)",
    ),
    (
        "first-aid-no-kit-named",
        GiveFirstAid(healer="Doc", patient="Tanner"),
        (5, 4),
        "FIRST_AID_KIT_REQUIRED: first aid needs an allied character with a first aid kit: "
        "name the kit Doc uses (Healing)",
    ),
    (
        "first-aid-kit-not-carried",
        GiveFirstAid(healer="Doc", patient="Tanner", kit="bandage"),
        (5, 4),
        "FIRST_AID_KIT_REQUIRED: first aid needs an allied character with a first aid kit: "
        "Doc carries no 'bandage' (Healing)",
    ),
    (
        "treat-the-dead",
        GiveMedicalAttention(character="Cass", provider="Dr Ito"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot be treated (Character Death)",
    ),
    (
        "treat-nothing",
        GiveMedicalAttention(character="Dix", provider="Dr Ito"),
        (),
        "NOTHING_TO_TREAT: Dix has no untreated critical injury to treat (Healing)",
    ),
    (
        "rest-7-hours",
        Rest(characters=("Dix",), hours=7),
        (),
        "REST_TOO_SHORT: lost Resilience comes back after 8 hours' rest; 7 hours is not "
        "enough (Healing)",
    ),
    (
        "rest-nobody",
        Rest(characters=()),
        (),
        "TARGET_REQUIRED: resting needs at least one target",
    ),
    (
        "rest-an-npc",
        Rest(characters=("Zoner",)),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters rest to heal "
        "(Game Structure)",
    ),
    (
        "rest-the-dead",
        Rest(characters=("Cass",)),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot rest (Character Death)",
    ),
    # Initiative (SG-R05, SG-A10).
    (
        "initiative-nobody",
        RollInitiative(combatants=()),
        (),
        "TARGET_REQUIRED: initiative needs at least one target",
    ),
    (
        "initiative-the-dead",
        RollInitiative(combatants=("Dix", "Cass")),
        (1, 2),
        "CHARACTER_DEAD: Cass is dead and cannot fight (Character Death)",
    ),
    (
        "initiative-a-system",
        RollInitiative(combatants=("Dix", "Vault")),
        (1, 2),
        "WRONG_TARGET: Vault is a system and cannot be in a fight",
    ),
    (
        "initiative-twice",
        RollInitiative(combatants=("Dix", "dix")),
        (1, 2),
        "DUPLICATE_TARGET: Dix is named twice; name each target once",
    ),
    (
        "initiative-modifier-outsider",
        RollInitiative(combatants=("Dix",), modifiers=("Zoner=+1",)),
        (1,),
        "NOT_A_COMBATANT: Zoner is not among the combatants rolling initiative",
    ),
    (
        "initiative-not-speedware",
        RollInitiative(combatants=("Dix",), items=("Dix:kevlar",)),
        (1,),
        "NOT_SPEEDWARE: Kevlar jacket is not an augmentation or a drug; initiative adds only "
        "speedware and performance drugs (Initiative Roll)",
    ),
    (
        "initiative-a-d7",
        RollInitiative(combatants=("Dix",)),
        (7,),
        "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up",
    ),
    (
        "initiative-roll-off-d7",
        RollInitiative(combatants=("Dix", "Tanner")),
        (3, 3, 7, 1),
        "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up",
    ),
    # Inventory and cash (SG-R09, SG-R23).
    (
        "cash-for-an-npc",
        ChangeCash(character="Zoner", delta=5, reason="loot"),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters carry cash "
        "(Game Structure)",
    ),
    (
        "cash-change-of-0",
        ChangeCash(character="Dix", delta=0, reason="nothing"),
        (),
        "INVALID_AMOUNT: a change of cash must be a whole number of 1 or more, got 0",
    ),
    (
        "cash-overspent",
        ChangeCash(character="Dix", delta=-31, reason="a deck"),
        (),
        "INSUFFICIENT_CASH: Dix has 30 cash and cannot spend 31",
    ),
    (
        "reload-by-the-dead",
        Reload(character="Cass", item="penlight"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot reload (Character Death)",
    ),
    (
        "reload-no-gun",
        Reload(character="Dix", item="kevlar"),
        (),
        "NOT_A_RANGED_WEAPON: Kevlar jacket is not a ranged weapon with a magazine (Special Rules)",
    ),
    (
        "use-by-the-dead",
        UseItem(character="Cass", item="penlight"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot use items (Character Death)",
    ),
    (
        "use-no-uses",
        UseItem(character="Dix", item="kevlar"),
        (),
        "NOT_CONSUMABLE: Kevlar jacket has no uses to spend",
    ),
    # Advancement (SG-R08).
    (
        "level-for-the-dead",
        LevelUp(character="Cass", stat="reaction", secondary="resilience"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot level up (Character Death)",
    ),
    (
        "level-unknown-secondary",
        LevelUp(character="Dix", stat="reaction", secondary="luck"),
        (),
        "UNKNOWN_SECONDARY: a level raises Resilience or Inventory Score: got 'luck' "
        "(Character Advancement)",
    ),
    (
        "level-not-due",
        LevelUp(character="Dix", stat="reaction", secondary="resilience"),
        (),
        "NO_LEVEL_DUE: Dix has no level to take: a level comes at the end of each mission "
        "(Character Advancement)",
    ),
    # Armour (Special Rules: armour can be slagged).
    (
        "slag-a-console",
        SlagArmour(character="Dix", armour="console"),
        (),
        "NOT_ARMOUR: Ono-Sendai Cyberspace Console and 'trodes is not armour; only armour can "
        "be slagged (Special Rules)",
    ),
    (
        "slag-by-the-dead",
        SlagArmour(character="Cass", armour="penlight"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot slag armour (Character Death)",
    ),
    (
        "limb-of-the-dead",
        DisableCyberLimb(character="Cass", limb="penlight"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot lose a limb (Character Death)",
    ),
    # The Action Roll (SG-R02): the dead roll nothing, not even a plain roll.
    (
        "plain-roll-by-the-dead",
        MakeActionRoll(character="Cass", stat="reaction", ds="8"),
        (3, 4),
        "CHARACTER_DEAD: Cass is dead and cannot act (Character Death)",
    ),
    (
        "aim-by-the-dead",
        TakeAim(character="Cass", target="Zoner"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot act (Character Death)",
    ),
    (
        "plain-roll-by-an-npc",
        MakeActionRoll(character="Zoner", stat="reaction", ds="8"),
        (3, 4),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters make Action Rolls "
        "(Game Structure)",
    ),
    # Starting items outside the list (SG-R01): CATEGORY:NAME.
    (
        "custom-item-unnamed",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit"),
            custom=("armour: ",),
        ),
        (1, 1, 1),
        "ITEM_SPEC_REQUIRED: armour:  must be specified, e.g. armour:NAME (Starting Items)",
    ),
    (
        "custom-item-bare",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit"),
            custom=(":",),
        ),
        (1, 1, 1),
        "ITEM_SPEC_REQUIRED: : must be specified, e.g. gear:NAME (Starting Items)",
    ),
    # Relevant items (SG-R02): owned, usable, each once.
    (
        "item-twice",
        MakeActionRoll(character="Dix", stat="cognition", ds="8", items=("kevlar", "Kevlar")),
        (3, 4),
        "DUPLICATE_ITEM: Kevlar jacket is listed twice; each relevant item adds its bonus once "
        "(The Action Roll)",
    ),
    (
        "item-not-owned",
        MakeActionRoll(character="Doc", stat="cognition", ds="8", items=("deck",)),
        (3, 4),
        "ITEM_NOT_OWNED: Doc has no item 'deck' (carries: Lazarus Patches, Toolkit, Penlight, "
        "First aid kit)",
    ),
    (
        "fire-mode-both",
        Attack(character="Dix", targets=("Zoner",), stat="reaction", full_auto="x", burst="x"),
        (3, 4),
        "ONE_FIRE_MODE: fire full auto or in bursts, not both in one attack (Special Rules)",
    ),
    (
        "two-targets-no-shotgun",
        Attack(character="Dix", targets=("Zoner", "Tanner"), stat="reaction"),
        (3, 4),
        "ONE_TARGET_ONLY: only a shotgun at range hits several bunched targets (--shotgun "
        "range); got 2 targets (Special Rules)",
    ),
    (
        "two-targets-close",
        Attack(character="Dix", targets=("Zoner", "Tanner"), stat="reaction", shotgun="close"),
        (3, 4),
        "ONE_TARGET_ONLY: only a shotgun at range hits several bunched targets (--shotgun "
        "range); got 2 targets (Special Rules)",
    ),
    (
        "four-bunched-targets",
        Attack(
            character="Dix",
            targets=("Zoner", "Tanner", "Doc", "Stiff"),
            stat="reaction",
            shotgun="range",
        ),
        (3, 4),
        "TOO_MANY_TARGETS: a shotgun hits up to 3 bunched targets, got 4 (Special Rules)",
    ),
    (
        "full-auto-no-gun",
        Attack(character="Dix", targets=("Zoner",), stat="reaction", full_auto="kevlar"),
        (3, 4),
        "NOT_A_RANGED_WEAPON: Kevlar jacket is not a ranged weapon with a magazine (Special Rules)",
    ),
    # Creation, look-ups and inventory (SG-R01, SG-R02, SG-R09).
    (
        "negative-stat",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=-1,
            reaction=3,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
        "NEGATIVE_STAT: Morphology is -1: a stat may be 0 but not below (Character Creation)",
    ),
    (
        "stats-total-7",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=2,
            reaction=3,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
        "STAT_POINTS_MUST_TOTAL_FOUR: distribute exactly 4 points between the stats; "
        "these total 7 (Character Creation)",
    ),
    (
        "two-starting-items",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit"),
        ),
        (1, 1, 1),
        "STARTING_ITEM_COUNT_MUST_BE_THREE: choose 3 starting items, got 2 (Starting Items)",
    ),
    (
        "melee-unspecified",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "melee"),
        ),
        (1, 1, 1),
        "ITEM_SPEC_REQUIRED: Melee Weapon must be specified, e.g. melee:NAME (Starting Items)",
    ),
    (
        "unknown-starting-item",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "plasma rifle"),
        ),
        (1, 1, 1),
        "UNKNOWN_STARTING_ITEM: 'plasma rifle' is not on the starting item list (melee, "
        "ranged, armour, implant, penlight, phone, console, toolkit, goggles, "
        "credit-card, vodka, hyperdex, hotel-key, cigarettes, fake-id, handcuffs, "
        "mirrorshades, drone, lazarus); another item needs the referee's approval: "
        "--custom CATEGORY:NAME (Starting Items)",
    ),
    (
        "custom-unknown-category",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit"),
            custom=("laser:Beam",),
        ),
        (1, 1, 1),
        "UNKNOWN_CATEGORY: 'laser' is not an item kind; use one of: melee, ranged, "
        "armour, implant, console, consumable, drug, gear",
    ),
    (
        "cash-d7",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 7),
        "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up",
    ),
    (
        "credit-card-d7",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "credit card"),
        ),
        (1, 1, 1, 3, 7),
        "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up",
    ),
    (
        "unnamed-character",
        CreateCharacter(
            character=" ",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
        "NAME_REQUIRED: a character needs a name (Character Creation: name your character)",
    ),
    (
        "name-taken",
        CreateCharacter(
            character="dix",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
        "NAME_TAKEN: 'dix' is already a character's name in this campaign (Character Creation)",
    ),
    (
        "unknown-stat",
        MakeActionRoll(character="Dix", stat="luck", ds="8"),
        (3, 4),
        "UNKNOWN_STAT: 'luck' is not a stat: morphology, reaction, cognition or equilibrium",
    ),
    (
        "no-ds",
        MakeActionRoll(character="Dix", stat="cog", ds=" "),
        (3, 4),
        "DS_REQUIRED: the referee sets the Difficulty Score: give a DS or a target (The "
        "Action Roll)",
    ),
    (
        "ds-0",
        MakeActionRoll(character="Dix", stat="cog", ds="0"),
        (3, 4),
        "INVALID_DS: a Difficulty Score is a whole number of 1 or more, or easy 8, "
        "moderate 10, challenging 12, hard 14, formidable 16, extreme 18, impossible "
        "20; got '0' (Difficulty Score)",
    ),
    (
        "ds-unknown-word",
        MakeActionRoll(character="Dix", stat="cog", ds="tricky"),
        (3, 4),
        "INVALID_DS: a Difficulty Score is a whole number of 1 or more, or easy 8, "
        "moderate 10, challenging 12, hard 14, formidable 16, extreme 18, impossible "
        "20; got 'tricky' (Difficulty Score)",
    ),
    (
        "bad-modifier",
        MakeActionRoll(character="Dix", stat="cog", ds="hard", bonuses=("luck+2",)),
        (3, 4),
        "INVALID_MODIFIER: 'luck+2' is not a modifier: write SOURCE=+N, e.g. 'ICE-breaker=+2'",
    ),
    (
        "add-unknown-category",
        AddItem(character="Dix", item="Beam", category="laser"),
        (),
        "UNKNOWN_CATEGORY: 'laser' is not an item kind; use one of: melee, ranged, "
        "armour, implant, console, consumable, drug, gear",
    ),
    (
        "add-unnamed",
        AddItem(character="Dix", item=" ", category="gear"),
        (),
        "NAME_REQUIRED: a character needs a name (Character Creation: name your character)",
    ),
    (
        "add-held",
        AddItem(character="Dix", item="kevlar jacket", category="gear"),
        (),
        "ITEM_ALREADY_HELD: Dix already carries an item named 'kevlar jacket'; give "
        "this one another name",
    ),
    (
        "add-0-uses",
        AddItem(character="Dix", item="Gum", category="gear", uses=0),
        (),
        "INVALID_AMOUNT: uses must be a whole number of 1 or more, got 0",
    ),
    (
        "add-to-an-npc",
        AddItem(character="Zoner", item="Gum", category="gear"),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters carry items "
        "(Game Structure)",
    ),
    (
        "add-to-the-dead",
        AddItem(character="Cass", item="Gum", category="gear"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot pick up items (Character Death)",
    ),
    (
        "bulky-implant",
        RuleBulkiness(character="Dix", item="arm", bulky=True),
        (),
        "IMPLANT_NEVER_BULKY: Cybernetic arm is an implant: implants are interfaced "
        "with the body and don't count towards the Inventory total "
        "(Implants/Augmentations)",
    ),
    (
        "bulky-unchanged",
        RuleBulkiness(character="Dix", item="kevlar", bulky=True),
        (),
        "BULKINESS_UNCHANGED: Kevlar jacket already counts towards Dix's Inventory "
        "Score (Inventory)",
    ),
    (
        "bulky-for-an-npc",
        RuleBulkiness(character="Zoner", item="kevlar", bulky=False),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters carry items "
        "(Game Structure)",
    ),
    # Targets (Dangerous Action Roll, Special Rules).
    (
        "attack-self",
        Attack(character="Dix", targets=("Dix",), stat="reaction"),
        (3, 4),
        "CANNOT_TARGET_SELF: Dix cannot be their own target",
    ),
    (
        "attack-a-system",
        Attack(character="Dix", targets=("Vault",), stat="reaction"),
        (3, 4),
        "WRONG_TARGET: Vault is a system and cannot be attacked",
    ),
    (
        "attack-the-dead",
        Attack(character="Dix", targets=("Stiff",), stat="reaction"),
        (3, 4),
        "CHARACTER_DEAD: Stiff is dead and cannot be attacked (Character Death)",
    ),
    (
        "attack-nobody",
        Attack(character="Dix", targets=(), stat="reaction"),
        (3, 4),
        "TARGET_REQUIRED: attacked needs at least one target",
    ),
    (
        "attack-twice-the-same",
        Attack(character="Dix", targets=("Zoner", "zoner"), stat="reaction", shotgun="range"),
        (3, 4),
        "DUPLICATE_TARGET: Zoner is named twice; name each target once",
    ),
    (
        "shotgun-unknown-range",
        Attack(character="Dix", targets=("Zoner",), stat="reaction", shotgun="far"),
        (3, 4),
        "UNKNOWN_SHOTGUN_RANGE: a shotgun fires point-blank, close or at range, not 'far' "
        "(Special Rules)",
    ),
    (
        "aim-at-a-system",
        TakeAim(character="Dix", target="Vault"),
        (),
        "WRONG_TARGET: Vault is a system and cannot be aimed at",
    ),
    (
        "aim-at-the-dead",
        TakeAim(character="Dix", target="Stiff"),
        (),
        "CHARACTER_DEAD: Stiff is dead and cannot be aimed at (Character Death)",
    ),
    (
        "grenade-at-the-dead",
        ThrowGrenade(character="Dix", targets=("Stiff",)),
        (3, 4),
        "CHARACTER_DEAD: Stiff is dead and cannot be caught in the blast (Character Death)",
    ),
    (
        "grenade-at-nobody",
        ThrowGrenade(character="Dix", targets=()),
        (3, 4),
        "TARGET_REQUIRED: caught in the blast needs at least one target",
    ),
    (
        "fire-on-the-dead",
        Ignite(character="Stiff", damage=1),
        (),
        "CHARACTER_DEAD: Stiff is dead and cannot be set on fire (Character Death)",
    ),
]


@pytest.mark.parametrize(
    ("command", "faces", "message"),
    [pytest.param(c, f, m, id=i) for i, c, f, m in SG_REFUSALS],
)
def test_a_sprawl_goons_refusal_names_who_and_why(
    engine: Engine, command: Command, faces: tuple[int, ...], message: str
) -> None:
    """Each refusal carries its stable code and a message naming the character, the item or
    the target and the rule; nothing is recorded."""
    cast(engine)
    error = refused(engine, command, DomainError, *faces)
    assert message == f"{error.code}: {error.reason}"


# --- Healing (SG-R07, SG-A7, SG-A17) -------------------------------------------------------------


def test_a_lazarus_patch_may_heal_another_pc(engine: Engine) -> None:
    """SG-R07: the patch comes out of the user's blister and +3 goes to the named patient."""
    cast(engine)
    events = run(engine, ApplyPatch(character="Doc", patient="Tanner"))
    restored = sg.ResilienceRestored(amount=3, cause="a Lazarus Patch", before=10, after=12)
    assert (sg.ItemUsed(item="Lazarus Patches", before=4, after=3), restored) == events
    assert (12, 12) == (sheet(engine, "Tanner").resilience, sheet(engine, "Doc").resilience)


def test_first_aid_rolls_as_the_referee_called_it(engine: Engine) -> None:
    """SG-R07 + SG-R04: first aid is a Cognition roll with the items, bonuses and dice the
    referee called; Glitch and Upgrade together cancel to 2d6 (SG-A3)."""
    cast(engine)
    aid = GiveFirstAid(
        healer="Doc",
        patient="Tanner",
        kit="first aid",
        ds="12",
        items=("toolkit",),
        bonuses=("steady hands=+1",),
        glitch=True,
        upgrade=True,
    )
    events = run(engine, aid, 4, 4)
    rolled = events[0]
    assert isinstance(rolled, sg.ActionRolled)
    expected = (
        Purpose.FIRST_AID,
        DiceMode.NORMAL,
        (DiceMode.GLITCH, DiceMode.UPGRADE),
        (sg.ItemBonus(item="Toolkit", bonus=1),),
        (sg.Modifier(source="steady hands", value=1),),
        (4, 4),
        12,
        12,
        True,
    )
    actual = (
        rolled.purpose,
        rolled.mode,
        rolled.called,
        rolled.items,
        rolled.modifiers,
        rolled.kept,
        rolled.total,
        rolled.ds,
        rolled.success,
    )
    assert expected == actual
    restored = sg.ResilienceRestored(amount=2, cause="first aid", before=10, after=12)
    assert (sg.FirstAidReceived(healer="Doc", scene=1, success=True), restored) == events[1:]


def test_first_aid_glitched_by_the_referee_keeps_the_two_worst(engine: Engine) -> None:
    """SG-R04: the referee's Glitch (or Upgrade) on first aid rolls three dice."""
    cast(engine)
    glitched = GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid", glitch=True)
    rolled = run(engine, glitched, 6, 5, 1)[0]
    assert isinstance(rolled, sg.ActionRolled)
    assert (DiceMode.GLITCH, (5, 1), False) == (rolled.mode, rolled.kept, rolled.success)
    run(engine, Fall(character="Dix", metres=3))
    upgraded = GiveFirstAid(healer="Doc", patient="Dix", kit="first aid", upgrade=True)
    rolled = run(engine, upgraded, 6, 5, 1)[0]
    assert isinstance(rolled, sg.ActionRolled)
    assert (DiceMode.UPGRADE, (6, 5), True) == (rolled.mode, rolled.kept, rolled.success)


def test_rest_restores_what_was_lost(engine: Engine) -> None:
    """SG-R07: 8 hours' rest brings Resilience back to its maximum; the amount is what was lost."""
    cast(engine)
    restored = sg.ResilienceRestored(amount=2, cause="9 hours' rest", before=10, after=12)
    assert (restored,) == run(engine, Rest(characters=("Tanner",), hours=9))


def test_medical_attention_names_a_professional_when_none_is_given(engine: Engine) -> None:
    """SG-R07: medical attention treats every open critical injury; the provider defaults."""
    cast(engine)
    run(engine, Fall(character="Dix", metres=40), 2, 5)
    treated = sg.MedicalAttentionReceived(provider="a medical professional", treated=(1,))
    assert (treated,) == run(engine, GiveMedicalAttention(character="Dix", provider="  "))


# --- Critical injuries: the dice and the +3 (SG-R06, SG-A4) --------------------------------------


@pytest.mark.parametrize("faces", [(7, 1), (1, 7)], ids=["severity-d7", "location-d7"])
def test_critical_injury_dice_are_d6(engine: Engine, faces: tuple[int, ...]) -> None:
    """SG-R06: the referee rolls a d6 for severity and a d6 for location: a 7 is refused."""
    cast(engine)
    error = refused(engine, Fall(character="Dix", metres=40), DomainError, *faces)
    assert "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up" == (
        f"{error.code}: {error.reason}"
    )


@pytest.mark.parametrize(
    ("scope", "modifiers"),
    [("untreated", (0, 0, 3)), ("ever", (0, 3, 3))],
    ids=["SG-A4-untreated", "SG-A4-ever"],
)
def test_the_plus_3_after_a_treated_injury_follows_the_house_rule(
    engine: Engine, scope: str, modifiers: tuple[int, ...]
) -> None:
    """SG-A4: by default the +3 applies while an earlier critical injury is untreated; under
    critBonusScope=ever, once any was taken, even if it was treated since."""
    table(engine, critBonusScope=scope)
    dix(engine)
    first = run(engine, Fall(character="Dix", metres=40), 1, 2)
    run(engine, GiveMedicalAttention(character="Dix", provider="Dr Ito"))
    second = run(engine, Fall(character="Dix", metres=3), 1, 3)
    third = run(engine, Fall(character="Dix", metres=3), 1, 4)
    crits = [one(e, sg.CriticalInjuryRolled) for e in (first, second, third)]
    assert modifiers == tuple(c.modifier for c in crits)
    assert tuple(1 + m for m in modifiers) == tuple(c.total for c in crits)


# --- Initiative (SG-R05, SG-A9, SG-A10) ----------------------------------------------------------


def gang(engine: Engine, *names: str) -> None:
    table(engine)
    for name in names:
        npc(engine, name, "10")


def places(events: tuple[Event, ...], names: tuple[str, ...]) -> dict[str, tuple[object, ...]]:
    rolled = only(events, sg.InitiativeRolled)
    return {n: (r.total, r.place, r.roll_off) for n, r in zip(names, rolled, strict=True)}


def test_a_roll_off_settles_the_higher_faces_first(engine: Engine) -> None:
    """SG-A10: four NPCs tied on 3 roll off; the two on 5 are still level and roll again
    before the two on 2 do (the order is settled from the top down)."""
    names = ("Ash", "Bo", "Cy", "Di")
    gang(engine, *names)
    events = run(engine, RollInitiative(combatants=names), 3, 3, 3, 3, 5, 5, 2, 2, 3, 1, 6, 4)
    expected = {
        "Ash": (3, 1, (5, 3)),
        "Bo": (3, 2, (5, 1)),
        "Cy": (3, 3, (2, 6)),
        "Di": (3, 4, (2, 4)),
    }
    assert expected == places(events, names)


def test_a_tie_rolled_again_keeps_the_next_tie_waiting(engine: Engine) -> None:
    """SG-A10: two separate ties: the upper one rolls level and rolls again, and the lower
    one still rolls off after it."""
    names = ("Ash", "Bo", "Cy", "Di")
    gang(engine, *names)
    roll = RollInitiative(combatants=names, modifiers=("Ash=+1", "Bo=+2", "ash=+1"))
    events = run(engine, roll, 3, 3, 3, 3, 4, 4, 6, 1, 2, 5)
    expected = {
        "Ash": (5, 1, (4, 6)),
        "Bo": (5, 2, (4, 1)),
        "Cy": (3, 4, (2,)),
        "Di": (3, 3, (5,)),
    }
    assert expected == places(events, names)
    assert [2, 2, 0, 0] == [r.modifier for r in only(events, sg.InitiativeRolled)]


def test_speedware_named_with_a_colon_in_its_name(engine: Engine) -> None:
    """SG-R05: ``WHO:ITEM`` splits at the first colon, so an item's own colon stays in it;
    each augment or drug adds 1 (G-SG-11)."""
    table(engine)
    create = CreateCharacter(
        character="Rex",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("implant:Reflex booster: Mk II", "penlight", "toolkit"),
    )
    run(engine, create, 1, 1, 1)
    rolled = one(
        run(engine, RollInitiative(combatants=("Rex",), items=("Rex:Reflex booster: Mk II",)), 4),
        sg.InitiativeRolled,
    )
    assert ((sg.ItemBonus(item="Reflex booster: Mk II", bonus=1),), 6) == (
        rolled.items,
        rolled.total,
    )


@pytest.mark.parametrize(
    ("on", "burden", "total"), [("true", 1, 4), ("false", 0, 5)], ids=["SG-A9-on", "SG-A9-off"]
)
def test_encumbrance_slows_initiative_by_house_rule(
    engine: Engine, on: str, burden: int, total: int
) -> None:
    """SG-A9: an item beyond the Inventory Score costs 1 on initiative, a Reaction roll,
    unless encumbranceOnInitiative is off."""
    table(engine, encumbranceOnInitiative=on)
    tanner(engine)
    for n in range(8):
        run(engine, AddItem(character="Tanner", item=f"Brick {n}", category="gear"))
    assert 1 == sheet(engine, "Tanner").encumbrance
    rolled = one(run(engine, RollInitiative(combatants=("Tanner",)), 4), sg.InitiativeRolled)
    assert (4, 1, burden, total) == (rolled.die, rolled.reaction, rolled.encumbrance, rolled.total)


# --- Inventory and cash (SG-R09, SG-R23) ---------------------------------------------------------


def test_cash_may_be_spent_to_the_last_coin(engine: Engine) -> None:
    """SG-R23: spending all one's cash is allowed (30 of 30); a reason defaults to 'unstated'."""
    cast(engine)
    spent = sg.CashChanged(delta=-30, before=30, after=0, reason="unstated")
    assert (spent,) == run(engine, ChangeCash(character="Dix", delta=-30, reason=" "))
    gained = sg.CashChanged(delta=5, before=0, after=5, reason="loot")
    assert (gained,) == run(engine, ChangeCash(character="Dix", delta=5, reason=" loot "))


def test_a_drug_gives_plus_1_for_the_scene_and_wears_off(engine: Engine) -> None:
    """SG-R23, SG-A15: a dose of Hyperdex is one use and +1 Morphology until the scene ends."""
    table(engine)
    create = CreateCharacter(
        character="Rex",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("hyperdex", "penlight", "toolkit"),
    )
    run(engine, create, 1, 1, 1)
    used = run(engine, UseItem(character="Rex", item="hyperdex"))
    boost = sg.TempModifierApplied(stat=Stat.MORPHOLOGY, value=1, source="Brazilian Hyperdex")
    assert (sg.ItemUsed(item="Brazilian Hyperdex", before=3, after=2), boost) == used
    npc(engine, "Zoner", "10")
    run(engine, TakeAim(character="Rex", target="Zoner"))
    run(engine, Ignite(character="Rex", damage=1))
    cleared = engine.execute(CAMPAIGN, EndScene()).events
    what = (
        "Brazilian Hyperdex (+1 morphology) wears off",
        "aim on Zoner lost",
        "the fire goes out",
    )
    assert sg.SceneEffectsCleared(what=what) in cleared


def test_dropping_and_reloading_name_the_item(engine: Engine) -> None:
    """SG-R09: a dropped item leaves the kit; a ranged weapon reloads to a full magazine."""
    smg_table(engine)
    run(engine, Attack(character="Kat", targets=("Zoner",), stat="r", full_auto="smg"), 6, 6)
    assert (sg.WeaponReloaded(item="SMG"),) == run(engine, Reload(character="Kat", item="smg"))
    assert 0 == sheet(engine, "Kat").item("SMG").bursts_fired  # type: ignore[union-attr]
    assert (sg.ItemDropped(item="Toolkit"),) == run(engine, DropItem(character="Kat", item="tool"))
    assert None is sheet(engine, "Kat").item("Toolkit")


# --- Advancement (SG-R08) ------------------------------------------------------------------------


def test_a_mission_levels_only_the_living_pcs(engine: Engine) -> None:
    """SG-R08: each living PC has a level due; the dead and NPCs do not; a mission has a name."""
    cast(engine)
    done = engine.execute(CAMPAIGN, CompleteMission(mission=" ")).events
    assert [sg.MissionCompleted(mission="the mission")] * 3 == list(done)
    assert [1, 1, 1, 0] == [sheet(engine, n).levels_due for n in ("Dix", "Doc", "Tanner", "Cass")]


# --- Shotguns against bunched targets (SG-R14, SG-A11) -------------------------------------------


def test_a_shotgun_compares_one_roll_with_each_bunched_target(engine: Engine) -> None:
    """SG-A11: one roll against each target's DS: a higher DS is missed by the shortfall, a
    lower one is hit by the margin; the attacker takes the largest shortfall once."""
    smg_table(engine)
    npc(engine, "Runt", "8")
    attack = Attack(character="Kat", targets=("Boss", "Zoner", "Runt"), stat="r", shotgun="range")
    events = run(engine, attack, 6, 5)
    rolled = one(events, sg.ActionRolled)
    others = (
        sg.Against(target="Zoner", ds=20, margin=-7, success=False),
        sg.Against(target="Runt", ds=8, margin=5, success=True),
    )
    assert (13, 16, -3, others) == (rolled.total, rolled.ds, rolled.margin, rolled.others)
    lost = only(events, sg.ResilienceLost)
    assert [("Zoner", 7, 12, 5), ("Kat", 5, 8, 3)] == [
        (x.source, x.amount, x.before, x.after) for x in lost
    ]


# --- Negated injuries in replay (Special Rules: slagged armour, cyber limbs; SG-A5) --------------


def test_negating_one_injury_leaves_the_death_clock_of_another(engine: Engine) -> None:
    """SG-A5: a shut-down cyber arm negates injury 1; the 7+ injury 2 still kills in a round.
    Slagging armour against injury 2 itself stops the clock."""
    cast(engine)
    run(engine, Fall(character="Dix", metres=40), 2, 5)
    run(engine, Fall(character="Dix", metres=3), 6, 1)
    run(engine, DisableCyberLimb(character="Dix", limb="arm", injury=1))
    dix_now = sheet(engine, "Dix")
    assert (2, 2) == (dix_now.death_clock, dix_now.dying_from)
    assert ["Cybernetic arm", None] == [i.negated_by for i in dix_now.injuries]
    run(engine, SlagArmour(character="Dix", armour="kevlar", injury=2))
    dix_now = sheet(engine, "Dix")
    assert (None, None) == (dix_now.death_clock, dix_now.dying_from)


@pytest.mark.parametrize(
    ("number", "what"),
    [(9, "is numbered 9 and not negated"), (1, "is numbered 1 and not negated")],
    ids=["no-such-injury", "negated-already"],
)
def test_a_history_negating_what_is_not_open_does_not_replay(
    engine: Engine, number: int, what: str
) -> None:
    """Strict replay: an injury is negated once, and only one that exists."""
    cast(engine)
    run(engine, Fall(character="Dix", metres=40), 2, 5)
    run(engine, DisableCyberLimb(character="Dix", limb="arm", injury=1))
    with pytest.raises(errors.NoCriticalInjury) as raised:
        evolve(sg.ArmourSlagged(item="Kevlar jacket", injury=number), sheet(engine, "Dix"))
    assert f"Dix has no critical injury that {what}" == raised.value.reason


# --- Harm that rolls a critical injury (SG-R06) from hacks, blasts and fire -----------------------


def test_neural_feedback_to_zero_rolls_a_critical_injury(engine: Engine) -> None:
    """SG-R10 + SG-R06: neural damage that takes the hacker to 0 rolls a critical injury; the
    referee's Glitch and Upgrade together cancel to 2d6 (SG-A3)."""
    table(engine)
    dix(engine)
    npc(engine, "Ice", "18", system=True, neural=True)
    run(engine, Fall(character="Dix", metres=27))
    hack = Hack(character="Dix", system="Ice", console="console", glitch=True, upgrade=True)
    events = run(engine, hack, 1, 1, 3, 5)
    rolled = one(events, sg.ActionRolled)
    assert (DiceMode.NORMAL, (1, 1), 5) == (rolled.mode, rolled.kept, rolled.total)
    lost = one(events, sg.ResilienceLost)
    assert (13, 3, 0) == (lost.amount, lost.before, lost.after)
    crit = one(events, sg.CriticalInjuryRolled)
    assert (3, 0, Location.ARM) == (crit.severity_die, crit.modifier, crit.location)


def test_a_blast_and_a_fire_that_reach_zero_roll_critical_injuries(engine: Engine) -> None:
    """SG-R06: a blast that takes a PC to 0 rolls a critical injury after its own dice; so
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


def test_explosive_dice_are_d6(engine: Engine) -> None:
    """Special Rules: planted explosives roll d6s; a 7 is refused."""
    blast_site(engine)
    error = refused(engine, Detonate(dice_count=2, targets=("Dix",)), DomainError, 7, 1)
    assert "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up" == (
        f"{error.code}: {error.reason}"
    )


def test_a_custom_item_keeps_a_colon_in_its_name(engine: Engine) -> None:
    """SG-R01: CATEGORY:NAME splits at the first colon; the rest is the item's name."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("penlight", "toolkit"),
        custom=("gear:Data chip: Maas-Neotek",),
    )
    run(engine, create, 1, 1, 1)
    assert "Data chip: Maas-Neotek" == sheet(engine, "Eve").items[-1].name


def test_slagged_armour_cannot_slag_again(engine: Engine) -> None:
    """Special Rules: armour slags once; it is useless after and cannot negate another injury."""
    table(engine)
    dix(engine)
    hurt(engine)
    run(engine, SlagArmour(character="Dix", armour="kevlar", injury=1))
    again = refused(engine, SlagArmour(character="Dix", armour="kevlar", injury=2), DomainError)
    assert (
        "ARMOUR_ALREADY_SLAGGED: Kevlar jacket was slagged already: it is useless and must be "
        "replaced; it cannot be repaired (Special Rules)"
    ) == f"{again.code}: {again.reason}"


@define
class StateView:
    """The engine's campaign and characters, one of them changed by hand."""

    campaign: CampaignState
    characters: dict[UUID, SgCharacter]

    def character(self, character_id: UUID) -> SgCharacter:
        return self.characters[character_id]

    def new_id(self) -> UUID:
        return uuid4()


def test_a_boost_to_reaction_counts_in_initiative(engine: Engine) -> None:
    """SG-R05: initiative adds Reaction as it stands, a temporary boost included (a drug's +1
    Reaction, SG-A15); a Morphology boost does not count."""
    table(engine)
    tanner(engine)
    boosted: SgCharacter | None = sheet(engine, "Tanner")
    for stat in (Stat.REACTION, Stat.MORPHOLOGY):
        boosted = evolve(sg.TempModifierApplied(stat=stat, value=1, source="Adrenal"), boosted)
    assert boosted is not None
    view = StateView(campaign=engine.campaign(CAMPAIGN), characters={boosted.id: boosted})
    changes = RollInitiative(combatants=("Tanner",)).decide(view, EnteredDice((4,)))
    rolled = changes[0].event
    assert isinstance(rolled, sg.InitiativeRolled)
    assert (4, 2, 6) == (rolled.die, rolled.reaction, rolled.total)


def test_slagged_armour_and_a_shut_down_limb_add_nothing(engine: Engine) -> None:
    """Special Rules: slagged armour is useless, a shut-down cyber limb is broken: naming
    either as a relevant item is refused with the reason."""
    table(engine)
    dix(engine)
    hurt(engine)
    run(engine, DisableCyberLimb(character="Dix", limb="arm", injury=1))
    run(engine, SlagArmour(character="Dix", armour="kevlar", injury=2))
    cases = [
        ("kevlar", "ITEM_UNUSABLE: Kevlar jacket is slagged and cannot be used (Special Rules)"),
        (
            "arm",
            "ITEM_UNUSABLE: Cybernetic arm is broken (shut down) and cannot be used "
            "(Special Rules)",
        ),
    ]
    for item, message in cases:
        roll = MakeActionRoll(character="Dix", stat="cognition", ds="8", items=(item,))
        error = refused(engine, roll, DomainError, 3, 4)
        assert message == f"{error.code}: {error.reason}"


def test_a_second_7_plus_while_dying_starts_no_second_clock(engine: Engine) -> None:
    """SG-A5: a death clock starts once; another 7+ injury while dying adds the injury only."""
    table(engine)
    dix(engine)
    run(engine, Fall(character="Dix", metres=40), 2, 5)
    run(engine, Fall(character="Dix", metres=3), 6, 1)
    again = run(engine, Fall(character="Dix", metres=3), 4, 6)
    assert [sg.ResilienceLost, sg.CriticalInjuryRolled] == [type(e) for e in again]
    assert (3, 7) == (again[1].number, again[1].total)  # type: ignore[attr-defined]
    assert 2 == sheet(engine, "Dix").dying_from


def test_a_major_npc_at_ds_0_takes_critical_injuries(engine: Engine) -> None:
    """SG-R06, SG-R24: the referee may use critical injuries for major NPCs: DS 0 rolls one
    instead of killing them."""
    table(engine)
    npc(engine, "Boss", "5", major=True)
    events = run(engine, Fall(character="Boss", metres=30), 3, 6)
    assert [sg.ResilienceLost, sg.CriticalInjuryRolled] == [type(e) for e in events]
    assert (3, Location.HEAD) == (events[1].severity_die, events[1].location)  # type: ignore[attr-defined]
    assert not sheet(engine, "Boss").dead


def test_against_a_monofilament_attacker_armour_adds_nothing(engine: Engine) -> None:
    """SG-R19, G-SG-29: facing monofilament, the PC's armour bonus is negated (noted, 0)."""
    table(engine)
    dix(engine)
    roll = MakeActionRoll(
        character="Dix", stat="cognition", ds="8", items=("kevlar", "console"), vs_mono=True
    )
    rolled = one(run(engine, roll, 3, 4), sg.ActionRolled)
    expected = (
        sg.ItemBonus(item="Kevlar jacket", bonus=0, note="negated by monofilament"),
        sg.ItemBonus(item=CONSOLE, bonus=1),
    )
    assert (expected, 10) == (rolled.items, rolled.total)


def test_creation_rolls_cash_and_names_a_fake_id(engine: Engine) -> None:
    """SG-R01: 3d6 x 10 cash; a Fake ID is named for whom it claims; a credit card rolls 2d6
    uses; with no player named, the character plays itself."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="  ",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("fake id: Ana Ruiz ", "credit card", "toolkit"),
    )
    events = run(engine, create, 1, 2, 3, 6, 5)
    created = one(events, sg.CharacterCreated)
    assert ("Eve", 12, 10, 1) == (
        created.player,
        created.resilience,
        created.inventory,
        created.level,
    )
    assert sg.StartingCashRolled(dice=(1, 2, 3), cash=60) == one(events, sg.StartingCashRolled)
    items = [(e.item.name, e.item.uses, e.uses_dice) for e in only(events, sg.ItemAcquired)]
    assert [
        ("Fake ID (Ana Ruiz)", None, ()),
        ("Stolen Credit Card", 11, (6, 5)),
        ("Toolkit", None, ()),
    ] == items


def test_modifiers_read_a_source_and_a_signed_number(engine: Engine) -> None:
    """SG-R02: situational bonuses are SOURCE=+N or SOURCE=-N, spaces allowed around both."""
    cast(engine)
    roll = MakeActionRoll(
        character="Dix", stat="cog", ds="hard", bonuses=(" good luck = -2 ", "intel=+3", "x=1")
    )
    rolled = one(run(engine, roll, 3, 4), sg.ActionRolled)
    expected = (
        sg.Modifier(source="good luck", value=-2),
        sg.Modifier(source="intel", value=3),
        sg.Modifier(source="x", value=1),
    )
    assert (expected, 11, 14) == (rolled.modifiers, rolled.total, rolled.ds)


def test_an_item_added_and_ruled_light(engine: Engine) -> None:
    """SG-R09: an item joins with the kind, bonus, uses and bulk the referee gives (armor reads
    as armour); ruled not bulky, it leaves the Inventory count."""
    cast(engine)
    added = run(engine, AddItem(character="Dix", item=" Mesh ", category="armor", bonus=2, uses=3))
    item = one(added, sg.ItemAcquired).item
    assert ("Mesh", Category.ARMOUR, 2, 3, True) == (
        item.name,
        item.category,
        item.bonus,
        item.uses,
        item.bulky,
    )
    ruled = run(engine, RuleBulkiness(character="Dix", item="mesh", bulky=False, reason=" light "))
    expected = sg.ItemBulkinessRuled(
        item="Mesh", bulky=False, reason="light", bulky_items=2, encumbrance=0
    )
    assert (expected,) == ruled
    assert not sheet(engine, "Dix").item("Mesh").bulky  # type: ignore[union-attr]


def test_a_mission_is_named_as_given(engine: Engine) -> None:
    """SG-R08: the mission's name is recorded without its spaces, once per living PC."""
    cast(engine)
    done = engine.execute(CAMPAIGN, CompleteMission(mission=" Heist ")).events
    assert [sg.MissionCompleted(mission="Heist")] * 3 == list(done)


def test_an_item_is_found_by_its_name_or_the_one_name_holding_the_words(engine: Engine) -> None:
    """Items are named loosely: the exact name (any case) first, else the only item whose name
    holds the words; words held by several names find none."""
    cast(engine)
    run(engine, AddItem(character="Doc", item="Kit", category="gear"))
    assert (sg.ItemDropped(item="Kit"),) == run(engine, DropItem(character="Doc", item=" KIT "))
    assert (sg.ItemDropped(item="First aid kit"),) == run(
        engine, DropItem(character="Doc", item="aid")
    )
    error = refused(engine, DropItem(character="Doc", item="t"), DomainError)
    assert (
        "ITEM_NOT_OWNED: Doc has no item 't' (carries: Lazarus Patches, Toolkit, Penlight)"
        == f"{error.code}: {error.reason}"
    )


def test_under_ever_a_negated_injury_does_not_count_as_taken(engine: Engine) -> None:
    """SG-A4 with critBonusScope=ever, Special Rules: an injury negated by slagged armour is
    not 'critical damage already taken': the next one rolls without the +3."""
    table(engine, critBonusScope="ever")
    dix(engine)
    run(engine, Fall(character="Dix", metres=40), 1, 2)
    run(engine, SlagArmour(character="Dix", armour="kevlar", injury=1))
    crit = one(run(engine, Fall(character="Dix", metres=3), 1, 3), sg.CriticalInjuryRolled)
    assert (0, 1) == (crit.modifier, crit.total)


# --- Monofilament against armour (SG-R19) --------------------------------------------------------


def test_monofilament_adds_1_only_against_an_unarmoured_target(engine: Engine) -> None:
    """SG-R19: a monofilament hit does +1 damage if the target is unarmoured: an NPC as the
    referee made it, a PC by intact armour carried (slagged armour no longer counts)."""
    cast(engine)
    npc(engine, "Guard", "5", armoured=True)
    npc(engine, "Punk", "5")
    hits = {}
    for who in ("Guard", "Punk", "Tanner", "Doc"):
        attack = Attack(character="Dix", targets=(who,), stat="cognition", mono=True)
        lost = one(run(engine, attack, 6, 6), sg.ResilienceLost)
        hits[who] = [(b.source, b.value) for b in lost.bonuses]
    mono = [("monofilament, unarmoured", 1)]
    assert {"Guard": [], "Punk": mono, "Tanner": [], "Doc": mono} == hits


def test_a_pc_whose_armour_is_slagged_is_unarmoured(engine: Engine) -> None:
    """SG-R19 + Special Rules: slagged armour is useless, so monofilament cuts as if none."""
    cast(engine)
    run(engine, Fall(character="Tanner", metres=40), 1, 2)
    run(engine, SlagArmour(character="Tanner", armour="kevlar"))
    attack = Attack(character="Dix", targets=("Tanner",), stat="cognition", mono=True)
    events = run(engine, attack, 6, 6, 1, 3)
    lost = only(events, sg.ResilienceLost)[0]
    assert [("monofilament, unarmoured", 1)] == [(b.source, b.value) for b in lost.bonuses]


def test_a_used_up_consumable_has_no_uses_left(engine: Engine) -> None:
    """SG-R23: the fifth patch of a blister of four is refused by name."""
    cast(engine)
    for _ in range(4):
        run(engine, UseItem(character="Doc", item="lazarus"))
    error = refused(engine, UseItem(character="Doc", item="lazarus"), DomainError)
    assert "NO_USES_LEFT: Lazarus Patches has no uses left" == f"{error.code}: {error.reason}"


def test_a_grenade_thrown_is_spent_and_can_bring_a_critical_injury(engine: Engine) -> None:
    """SG-R16, SG-A12: the grenade named is one use of it; a target it takes to 0 rolls a
    critical injury (SG-R06); the referee's Glitch and Upgrade cancel (SG-A3)."""
    cast(engine)
    run(engine, AddItem(character="Dix", item="Frag grenade", category="consumable", uses=2))
    run(engine, Fall(character="Tanner", metres=27))
    throw = ThrowGrenade(
        character="Dix", targets=("Tanner",), grenade="frag", glitch=True, upgrade=True
    )
    events = run(engine, throw, 6, 6, 2, 3)
    rolled = one(events, sg.ActionRolled)
    assert (DiceMode.NORMAL, 13, True) == (rolled.mode, rolled.total, rolled.success)
    assert sg.ItemUsed(item="Frag grenade", before=2, after=1) == one(events, sg.ItemUsed)
    lost = one(events, sg.ResilienceLost)
    assert (3, 1, 0) == (lost.amount, lost.before, lost.after)
    crit = one(events, sg.CriticalInjuryRolled)
    assert (2, Location.TORSO) == (crit.severity_die, crit.location)


def decided(engine: Engine, command: Command) -> DomainError:
    """The refusal ``command`` decides on, from the engine's state (before any replay)."""
    view = StateView(
        campaign=engine.campaign(CAMPAIGN),
        characters={c.id: c for c in (sheet(engine, n) for n in ("Dix", "Zoner"))},
    )
    with pytest.raises(DomainError) as raised:
        command.decide(view, EnteredDice(()))
    return raised.value


def test_the_fourth_round_of_aim_is_refused_when_decided(engine: Engine) -> None:
    """SG-R13 (G-SG-26): aiming gives at most +3: the command itself refuses a fourth round,
    naming the aimer and the target."""
    table(engine)
    dix(engine)
    npc(engine, "Zoner", "10")
    for _ in range(3):
        run(engine, TakeAim(character="Dix", target="Zoner"))
    error = decided(engine, TakeAim(character="Dix", target="Zoner"))
    assert (
        "AIM_LIMIT_REACHED: Dix has aimed at Zoner for 3 rounds: aiming gives at most +3 "
        "(Special Rules)"
    ) == f"{error.code}: {error.reason}"


@pytest.mark.parametrize(
    ("bulky", "counts"), [(True, "already counts"), (False, "already does not count")]
)
def test_a_bulk_ruling_must_change_the_item_when_decided(
    engine: Engine, bulky: bool, counts: str
) -> None:
    """SG-R09: the referee's ruling on an item's bulk must change it; the command refuses one
    that would not, saying how the item counts now."""
    table(engine)
    dix(engine)
    npc(engine, "Zoner", "10")
    if not bulky:
        run(engine, RuleBulkiness(character="Dix", item="kevlar", bulky=False))
    error = decided(engine, RuleBulkiness(character="Dix", item="kevlar", bulky=bulky))
    assert (
        f"BULKINESS_UNCHANGED: Kevlar jacket {counts} towards Dix's Inventory Score (Inventory)"
    ) == f"{error.code}: {error.reason}"


def test_first_aid_is_once_per_patient_per_scene(engine: Engine) -> None:
    """SG-A7: by default first aid helps a patient once a scene, even after a failed roll."""
    cast(engine)
    run(engine, GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid"), 1, 1)
    again = GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid")
    error = refused(engine, again, DomainError, 5, 4)
    assert (
        "FIRST_AID_ALREADY_GIVEN: Tanner had first aid in this scene already (house rule "
        "firstAidLimit=oncePerPatientPerScene)"
    ) == f"{error.code}: {error.reason}"


def test_the_last_grenade_thrown_leaves_none_to_throw(engine: Engine) -> None:
    """SG-R23: a consumable with 1 use left can be used; with 0 it is refused by name."""
    grenade_site(engine)
    run(engine, AddItem(character="Dix", item="Frag grenade", category="consumable", uses=1))
    throw = ThrowGrenade(character="Dix", targets=("Zoner",), grenade="frag")
    assert sg.ItemUsed(item="Frag grenade", before=1, after=0) == one(
        run(engine, throw, 1, 1), sg.ItemUsed
    )
    error = refused(engine, throw, DomainError, 1, 1)
    assert "NO_USES_LEFT: Frag grenade has no uses left" == f"{error.code}: {error.reason}"


def test_an_empty_magazine_says_to_reload(engine: Engine) -> None:
    """SG-R11 (G-SG-24): after full auto the magazine is empty: a burst is refused by name."""
    smg_table(engine)
    run(engine, Attack(character="Kat", targets=("Zoner",), stat="r", full_auto="smg"), 6, 6)
    burst = Attack(character="Kat", targets=("Zoner",), stat="r", burst="smg")
    error = refused(engine, burst, DomainError, 6, 6)
    assert (
        "MAGAZINE_EMPTY: SMG's magazine is empty: reload before firing (Special Rules)"
        == f"{error.code}: {error.reason}"
    )


# --- The Dangerous Action Roll as an attack (SG-R03, SG-R14, SG-A11) -----------------------------


def test_a_dangerous_roll_is_recorded_as_dangerous(engine: Engine) -> None:
    """SG-R03: a dangerous roll (and every attack) is recorded so; a plain roll is not."""
    cast(engine)
    plain = one(
        run(engine, MakeActionRoll(character="Dix", stat="cog", ds="8"), 3, 4), sg.ActionRolled
    )
    risky = MakeActionRoll(character="Dix", stat="cog", ds="8", dangerous=True)
    dangerous = one(run(engine, risky, 3, 4), sg.ActionRolled)
    attack = Attack(character="Dix", targets=("Zoner",), stat="cog")
    attacked = one(run(engine, attack, 3, 4), sg.ActionRolled)
    assert (False, True, True) == (plain.dangerous, dangerous.dangerous, attacked.dangerous)


def test_an_attack_rolls_the_dice_the_referee_called(engine: Engine) -> None:
    """SG-R04: Glitch keeps the two worst of three, Upgrade the two best; both cancel (SG-A3)."""
    cast(engine)
    modes = []
    for glitch, upgrade, faces in (
        (True, False, (6, 5, 1)),
        (False, True, (6, 5, 1)),
        (True, True, (6, 5)),
    ):
        attack = Attack(
            character="Dix", targets=("Zoner",), stat="cog", glitch=glitch, upgrade=upgrade
        )
        rolled = one(run(engine, attack, *faces), sg.ActionRolled)
        modes.append((rolled.mode, rolled.kept))
    assert [
        (DiceMode.GLITCH, (5, 1)),
        (DiceMode.UPGRADE, (6, 5)),
        (DiceMode.NORMAL, (6, 5)),
    ] == modes


def test_a_shotgun_bonus_comes_before_the_referees_damage_bonuses(engine: Engine) -> None:
    """SG-R14 (G-SG-23): point blank adds +3 damage, listed first, then other damage bonuses."""
    cast(engine)
    attack = Attack(
        character="Dix",
        targets=("Zoner",),
        stat="cog",
        shotgun="point-blank",
        damage_bonuses=("slug rounds=+1",),
    )
    lost = one(run(engine, attack, 4, 5), sg.ResilienceLost)
    assert (
        1,
        (
            sg.Modifier(source="shotgun point-blank", value=3),
            sg.Modifier(source="slug rounds", value=1),
        ),
        5,
    ) == (lost.base, lost.bonuses, lost.amount)


def test_a_shotgun_hits_every_bunched_target_it_beats(engine: Engine) -> None:
    """SG-A11: each target whose DS the one roll beats takes its own margin."""
    smg_table(engine)
    npc(engine, "Runt", "8")
    npc(engine, "Imp", "9")
    attack = Attack(character="Kat", targets=("Runt", "Imp"), stat="r", shotgun="range")
    lost = only(run(engine, attack, 5, 4), sg.ResilienceLost)
    assert [(8, 3, 5), (9, 2, 7)] == [(x.before, x.amount, x.after) for x in lost]
    assert (5, 7) == (sheet(engine, "Runt").resilience, sheet(engine, "Imp").resilience)


def test_the_attacker_takes_the_largest_shortfall_once(engine: Engine) -> None:
    """SG-A11: missing several bunched targets costs the attacker the largest shortfall, once;
    an attacker taken to 0 so rolls a critical injury (SG-R06)."""
    smg_table(engine)
    npc(engine, "Alpha", "20")
    npc(engine, "Zed", "16")
    run(engine, Fall(character="Kat", metres=30))
    attack = Attack(character="Kat", targets=("Alpha", "Zed"), stat="r", shotgun="range")
    events = run(engine, attack, 6, 5, 2, 3)
    lost = one(events, sg.ResilienceLost)
    assert ("Alpha", 7, 2, 0) == (lost.source, lost.amount, lost.before, lost.after)
    crit = one(events, sg.CriticalInjuryRolled)
    assert (2, Location.TORSO) == (crit.severity_die, crit.location)


def test_a_drug_boost_is_named_in_the_roll(engine: Engine) -> None:
    """SG-R23, SG-A15: Hyperdex's +1 Morphology shows in a Morphology roll under its name."""
    table(engine)
    create = CreateCharacter(
        character="Rex",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("hyperdex", "penlight", "toolkit"),
    )
    run(engine, create, 1, 1, 1)
    run(engine, UseItem(character="Rex", item="hyperdex"))
    rolled = one(
        run(engine, MakeActionRoll(character="Rex", stat="m", ds="8"), 3, 4), sg.ActionRolled
    )
    assert ((sg.Modifier(source="Brazilian Hyperdex", value=1),), 9) == (
        rolled.modifiers,
        rolled.total,
    )


def test_a_bunched_target_whose_ds_the_roll_equals_is_beaten(engine: Engine) -> None:
    """SG-A2 with SG-A11: against each bunched target a total equal to its DS succeeds, for 0
    damage; the attacker takes nothing."""
    smg_table(engine)
    npc(engine, "Runt", "8")
    npc(engine, "Imp", "9")
    attack = Attack(character="Kat", targets=("Runt", "Imp"), stat="r", shotgun="range")
    events = run(engine, attack, 3, 4)
    rolled = one(events, sg.ActionRolled)
    assert (sg.Against(target="Imp", ds=9, margin=0, success=True),) == rolled.others
    assert [8] == [x.before for x in only(events, sg.ResilienceLost)]


def test_an_item_held_already_is_refused_when_decided(engine: Engine) -> None:
    """SG-R09: an item joins under a name the character does not carry yet (any case)."""
    table(engine)
    dix(engine)
    npc(engine, "Zoner", "10")
    error = decided(engine, AddItem(character="Dix", item=" kevlar JACKET ", category="gear"))
    assert "ITEM_ALREADY_HELD" == error.code


def test_a_character_carrying_nothing_is_told_so(engine: Engine) -> None:
    """SG-R02: a relevant item must be carried; with nothing left, the refusal says so."""
    table(engine)
    dix(engine)
    for item in ("console", "arm", "kevlar"):
        run(engine, DropItem(character="Dix", item=item))
    roll = MakeActionRoll(character="Dix", stat="cog", ds="8", items=("deck",))
    error = refused(engine, roll, DomainError, 3, 4)
    assert "ITEM_NOT_OWNED: Dix has no item 'deck' (carries: nothing)" == (
        f"{error.code}: {error.reason}"
    )


@pytest.mark.parametrize(
    ("die", "location"),
    [
        (1, Location.LEG),
        (2, Location.TORSO),
        (4, Location.TORSO),
        (5, Location.ARM),
        (6, Location.HEAD),
    ],
)
def test_the_location_die_names_the_body_part(engine: Engine, die: int, location: Location) -> None:
    """SG-R06 Body Locations: 1 leg, 2-4 torso, 5 arm, 6 head."""
    table(engine)
    dix(engine)
    crit = one(run(engine, Fall(character="Dix", metres=40), 1, die), sg.CriticalInjuryRolled)
    assert location == crit.location


@pytest.mark.parametrize(
    ("name", "limb"),
    [
        ("Cybernetic arm", Location.ARM),
        ("Cyber leg", Location.LEG),
        ("Cyberarm Mk II", Location.ARM),
        ("cyberleg", Location.LEG),
        ("Cyber eye", None),
        ("Reflex booster arm", None),
        ("Leg brace", None),
    ],
)
def test_a_cybernetic_limb_is_an_implant_named_so(name: str, limb: Location | None) -> None:
    """Special Rules (cybernetic limbs): an implant is an arm or a leg when its name says
    cyber(netic) and arm or leg (or cyberarm, cyberleg)."""
    assert limb == limb_of(name)


def test_only_implants_are_limbs_and_only_ranged_weapons_have_magazines(engine: Engine) -> None:
    """SG-R09: an item joins as what it is: gear named 'Cyber arm brace' is no limb and has no
    magazine; an implant so named is the arm; a ranged weapon starts with a full magazine."""
    cast(engine)
    kinds = (("Cyber arm brace", "gear"), ("Cyber arm", "implant"), ("Pistol", "ranged"))
    made = []
    for name, kind in kinds:
        item = one(
            run(engine, AddItem(character="Tanner", item=name, category=kind)), sg.ItemAcquired
        )
        made.append((item.item.limb, item.item.bursts_fired, item.item.bulky))
    assert [(None, None, True), (Location.ARM, None, False), (None, 0, True)] == made


def test_a_starting_pick_is_read_without_its_punctuation(engine: Engine) -> None:
    """SG-R01: a pick names a list entry by key or name, whatever the punctuation around it."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("[credit card]", "(Penlight)", "toolkit"),
    )
    events = run(engine, create, 1, 1, 1, 3, 4)
    names = [e.item.name for e in only(events, sg.ItemAcquired)]
    assert ["Stolen Credit Card", "Penlight", "Toolkit"] == names


def test_a_history_out_of_order_does_not_replay(engine: Engine) -> None:
    """Strict replay: a character stream starts with its creation, and the dead roll no
    initiative (Character Death)."""
    with pytest.raises(ReplayMismatch) as raised:
        evolve(sg.CharacterDied(cause="x"), None)
    assert "a character stream must start with its creation" == str(raised.value)
    cast(engine)
    rolled = sg.InitiativeRolled(
        die=3, reaction=1, items=(), modifier=0, encumbrance=0, total=4, place=1, of=1
    )
    with pytest.raises(CharacterDead) as dead:
        evolve(rolled, sheet(engine, "Cass"))
    assert "Cass is dead and cannot act (Character Death)" == dead.value.reason


def test_four_starting_items_are_counted_with_the_custom_ones(engine: Engine) -> None:
    """SG-R01 (G-SG-10): three starting items, list picks and custom ones together."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("penlight", "toolkit"),
        custom=("gear:Rope", "gear:Tape"),
    )
    error = refused(engine, create, DomainError, 1, 1, 1)
    assert (
        "STARTING_ITEM_COUNT_MUST_BE_THREE: choose 3 starting items, got 4 (Starting Items)"
        == f"{error.code}: {error.reason}"
    )


def test_a_fumbled_grenade_can_bring_its_thrower_a_critical_injury(engine: Engine) -> None:
    """SG-A12 + SG-R06: a fumble hurts the thrower by the shortfall; taken to 0, they roll a
    critical injury."""
    grenade_site(engine)
    run(engine, Fall(character="Dix", metres=33))
    fumble = ThrowGrenade(character="Dix", targets=("Zoner",), fumble=True)
    events = run(engine, fumble, 1, 2, 2, 6)
    lost = one(events, sg.ResilienceLost)
    assert ("own grenade (fumbled)", 6, 1, 0) == (lost.source, lost.amount, lost.before, lost.after)
    crit = one(events, sg.CriticalInjuryRolled)
    assert (2, Location.HEAD) == (crit.severity_die, crit.location)


def test_a_starting_armor_pick_reads_as_armour(engine: Engine) -> None:
    """SG-R01: 'armor' is read as the list's 'armour' (ARMOUR:NAME to specify)."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("Armor: Kevlar vest", "penlight", "toolkit"),
    )
    events = run(engine, create, 1, 1, 1)
    item = only(events, sg.ItemAcquired)[0].item
    assert ("Kevlar vest", Category.ARMOUR) == (item.name, item.category)
