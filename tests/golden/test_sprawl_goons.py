"""Golden tests for Sprawl Goons: Upgraded, every case G-SG-01..G-SG-30 of DIGEST §2.4.

Tanner and Katya are the rule text's own examples (Dangerous Action Roll). The text gives only
their dice totals, so the tests enter faces that add up to them (3,5 for 8; 4,6 for 10). Cases
run through the in-memory engine, so what is checked is what was recorded; refusals also prove
that nothing was appended.
"""

from __future__ import annotations

from typing import TypeVar

import pytest

from domain.audience import GMS
from domain.commands import Command
from domain.errors import DomainError
from domain.events import Event
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.commands import (
    AddItem,
    ApplyPatch,
    Attack,
    CompleteMission,
    CreateCharacter,
    CreateNpc,
    Fall,
    GiveFirstAid,
    Hack,
    LevelUp,
    MakeActionRoll,
    Rest,
    RollInitiative,
    SlagArmour,
    TakeAim,
)
from domain.rulesets.sprawl_goons.tables import (
    SEVERITY,
    Cause,
    DiceMode,
    Difficulty,
    Location,
    Stat,
    difficulty_named,
)
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count

E = TypeVar("E", bound=DomainError)
T = TypeVar("T", bound=Event)
CAMPAIGN = "Sprawl"


def table(engine: Engine, **house_rules: str) -> None:
    """A Sprawl Goons campaign in a running scene."""
    engine.create_campaign(CAMPAIGN, "sprawl-goons", house_rules=house_rules)
    engine.execute(CAMPAIGN, StartSession())
    engine.execute(CAMPAIGN, StartScene(stage="Night market, Chiba"))


def run(engine: Engine, command: Command, *faces: int) -> tuple[Event, ...]:
    return engine.execute(CAMPAIGN, command, dice=DiceSpec(faces=faces)).events


def refused(engine: Engine, command: Command, error: type[E], *faces: int) -> E:
    """Run ``command``, expect ``error``, and prove that nothing was appended."""
    before = event_count(engine)
    with pytest.raises(error) as raised:
        engine.execute(CAMPAIGN, command, dice=DiceSpec(faces=faces))
    assert before == event_count(engine)
    return raised.value


def sheet(engine: Engine, who: str) -> SgCharacter:
    state: SgCharacter = engine.character(CAMPAIGN, who, audience=GMS)
    return state


def only(events: tuple[Event, ...], kind: type[T]) -> list[T]:
    return [e for e in events if isinstance(e, kind)]


def one(events: tuple[Event, ...], kind: type[T]) -> T:
    found = only(events, kind)
    assert 1 == len(found), found
    return found[0]


def tanner(engine: Engine) -> None:
    """Tanner: Morphology 2, a katana and a kevlar jacket (Dangerous Action Roll)."""
    create = CreateCharacter(
        character="Tanner",
        player="ana",
        morphology=2,
        reaction=1,
        cognition=1,
        equilibrium=0,
        items=("melee:Katana", "armour:Kevlar jacket", "penlight"),
    )
    run(engine, create, 1, 1, 1)


def katya(engine: Engine) -> None:
    """Katya Kaiser: Reaction 1, a shard pistol, explosive flechettes, a spiderweave vest."""
    create = CreateCharacter(
        character="Katya",
        player="ben",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("ranged:Hideyoki shard pistol", "armour:Spiderweave armour vest"),
        custom=("gear:Explosive flechettes",),
    )
    run(engine, create, 1, 1, 1)


def npc(engine: Engine, name: str, ds: str, **flags: bool) -> None:
    run(engine, CreateNpc(character=name, ds=ds, **flags))


def tanner_hits(*faces: int) -> Attack:
    return Attack(
        character="Tanner", targets=("Zoner",), stat="morphology", items=("katana", "kevlar")
    )


# --- The rule text's examples --------------------------------------------------------------------


def test_g_sg_01_tanner_cuts_the_zoner(engine: Engine) -> None:
    """G-SG-01 (TEXT): 8 + 2 + 1 + 1 = 12 against DS 10: the Zoner takes 2, its DS is now 8."""
    table(engine)
    tanner(engine)
    npc(engine, "Zoner", "10")
    events = run(engine, tanner_hits(), 3, 5)
    rolled = one(events, sg.ActionRolled)
    assert (12, 10, 2, True) == (rolled.total, rolled.ds, rolled.margin, rolled.success)
    assert (Stat.MORPHOLOGY, 2) == (rolled.stat, rolled.stat_value)
    assert [("Katana", 1), ("Kevlar jacket", 1)] == [(b.item, b.bonus) for b in rolled.items]
    assert (3, 5) == rolled.kept
    lost = one(events, sg.ResilienceLost)
    assert (2, 10, 8, Cause.HIT) == (lost.amount, lost.before, lost.after, lost.cause)
    assert 8 == sheet(engine, "Zoner").resilience
    assert 12 == sheet(engine, "Tanner").resilience


def test_g_sg_02_tanner_would_have_lost_2(engine: Engine) -> None:
    """G-SG-02 (COUNTERFACTUAL): a total of 8 against DS 10: Tanner loses 2, the Zoner nothing."""
    table(engine)
    tanner(engine)
    npc(engine, "Zoner", "10")
    events = run(engine, tanner_hits(), 1, 3)
    assert 8 == one(events, sg.ActionRolled).total
    lost = one(events, sg.ResilienceLost)
    assert (2, 12, 10, Cause.FAILED_ROLL) == (lost.amount, lost.before, lost.after, lost.cause)
    assert 10 == sheet(engine, "Zoner").resilience
    assert 10 == sheet(engine, "Tanner").resilience


def katya_shoots() -> Attack:
    return Attack(
        character="Katya",
        targets=("Genexus agent",),
        stat="reaction",
        items=("shard pistol", "flechettes", "vest"),
    )


def test_g_sg_03_katya_shoots_the_genexus_agent(engine: Engine) -> None:
    """G-SG-03 (TEXT): 10 on the dice + 4 = 14: the agent takes 4, its DS is down to 6."""
    table(engine)
    katya(engine)
    npc(engine, "Genexus agent", "10")
    events = run(engine, katya_shoots(), 4, 6)
    rolled = one(events, sg.ActionRolled)
    assert (14, 4) == (rolled.total, rolled.margin)
    assert 3 == sum(b.bonus for b in rolled.items)
    assert 6 == sheet(engine, "Genexus agent").resilience


def test_g_sg_04_katya_would_have_taken_3(engine: Engine) -> None:
    """G-SG-04 (COUNTERFACTUAL): a total of 7 against DS 10: Katya takes 3 from the agent."""
    table(engine)
    katya(engine)
    npc(engine, "Genexus agent", "10")
    events = run(engine, katya_shoots(), 1, 2)
    assert 7 == one(events, sg.ActionRolled).total
    assert 3 == one(events, sg.ResilienceLost).amount
    assert 9 == sheet(engine, "Katya").resilience
    assert 10 == sheet(engine, "Genexus agent").resilience


@pytest.mark.parametrize(
    ("name", "ds"),
    [
        pytest.param("easy", 8, id="G-SG-05-easy-8"),
        pytest.param("moderate", 10, id="G-SG-05-moderate-10"),
        pytest.param("challenging", 12, id="G-SG-05-challenging-12"),
        pytest.param("hard", 14, id="G-SG-05-hard-14"),
        pytest.param("formidable", 16, id="G-SG-05-formidable-16"),
        pytest.param("extreme", 18, id="G-SG-05-extreme-18"),
        pytest.param("impossible", 20, id="G-SG-05-impossible-20"),
    ],
)
def test_g_sg_05_difficulty_score_guidelines(name: str, ds: int) -> None:
    """G-SG-05 (TEXT): the guideline names read as their Difficulty Scores."""
    assert ds == difficulty_named(name)
    assert ds == Difficulty[name.upper()]


def test_g_sg_05_systems_basic_easy_and_zaibatsu_extreme(engine: Engine) -> None:
    """G-SG-05 (TEXT): a basic system might be Easy (8), a zaibatsu mainframe Extreme (18)."""
    table(engine)
    npc(engine, "Basic system", "easy", system=True)
    npc(engine, "Zaibatsu mainframe", "extreme", system=True)
    assert 8 == sheet(engine, "Basic system").resilience
    assert 18 == sheet(engine, "Zaibatsu mainframe").resilience


# --- Glitch and Upgrade dice ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("glitch", "upgrade", "faces", "mode", "kept"),
    [
        pytest.param(True, False, (6, 2, 5), DiceMode.GLITCH, (2, 5), id="G-SG-06-glitch-7"),
        pytest.param(False, True, (6, 2, 5), DiceMode.UPGRADE, (6, 5), id="G-SG-07-upgrade-11"),
        pytest.param(True, True, (6, 2), DiceMode.NORMAL, (6, 2), id="G-SG-08-both-cancel-8"),
    ],
)
def test_g_sg_06_to_08_glitch_and_upgrade(
    engine: Engine,
    glitch: bool,
    upgrade: bool,
    faces: tuple[int, ...],
    mode: DiceMode,
    kept: tuple[int, ...],
) -> None:
    """Glitch keeps the two worst of three, Upgrade the two best; both together cancel."""
    table(engine)
    tanner(engine)
    roll = MakeActionRoll(
        character="Tanner", stat="equilibrium", ds="10", glitch=glitch, upgrade=upgrade
    )
    rolled = one(run(engine, roll, *faces), sg.ActionRolled)
    assert (mode, faces, kept, sum(kept)) == (rolled.mode, rolled.dice, rolled.kept, rolled.total)


# --- Character creation --------------------------------------------------------------------------


def test_g_sg_09_creation_rolls_cash_and_uses(engine: Engine) -> None:
    """G-SG-09: cash 2,5,6 -> 130; credit card 3,4 -> 7 uses; blister 4 -> 4 patches."""
    table(engine)
    create = CreateCharacter(
        character="Molly",
        player="cy",
        morphology=2,
        reaction=1,
        cognition=1,
        equilibrium=0,
        items=("Stolen Credit Card", "lazarus", "melee:Katana"),
    )
    events = run(engine, create, 2, 5, 6, 3, 4, 4)
    assert 130 == one(events, sg.StartingCashRolled).cash
    molly = sheet(engine, "Molly")
    assert (12, 12, 10, 1, 130) == (
        molly.resilience,
        molly.resilience_max,
        molly.inventory,
        molly.level,
        molly.cash,
    )
    assert [7, 4, None] == [i.uses for i in molly.items]
    assert [(3, 4), (4,), ()] == [e.uses_dice for e in only(events, sg.ItemAcquired)]


@pytest.mark.parametrize(
    ("stats", "items", "error"),
    [
        pytest.param(
            (3, 2, 0, 0), 3, errors.StatPointsMustTotalFour, id="G-SG-10-stats-total-five"
        ),
        pytest.param((5, 0, 0, -1), 3, errors.NegativeStat, id="G-SG-10-negative-stat"),
        pytest.param((2, 1, 1, 0), 2, errors.StartingItemCountMustBeThree, id="G-SG-10-two-items"),
    ],
)
def test_g_sg_10_bad_creations_are_refused(
    engine: Engine, stats: tuple[int, int, int, int], items: int, error: type[DomainError]
) -> None:
    """Stats must total exactly 4, none below 0; exactly three starting items."""
    table(engine)
    picks = ("penlight", "toolkit", "handcuffs")[:items]
    m, r, c, e = stats
    create = CreateCharacter(
        character="Case",
        player="dee",
        morphology=m,
        reaction=r,
        cognition=c,
        equilibrium=e,
        items=picks,
    )
    refused(engine, create, error, 1, 1, 1)


# --- Initiative ----------------------------------------------------------------------------------


def test_g_sg_11_initiative_adds_speedware_and_drugs(engine: Engine) -> None:
    """G-SG-11: d6 4 + Reaction 1 + Reflex Booster 1 + 'Dorph 1 = 7."""
    table(engine)
    create = CreateCharacter(
        character="Rex",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("implant:Reflex booster", "penlight"),
        custom=("drug:'Dorph",),
    )
    run(engine, create, 1, 1, 1)
    roll = RollInitiative(combatants=("Rex",), items=("Rex:reflex", "Rex:dorph"))
    rolled = one(run(engine, roll, 4), sg.InitiativeRolled)
    assert (4, 1, 2, 7) == (rolled.die, rolled.reaction, len(rolled.items), rolled.total)


# --- Critical injuries ---------------------------------------------------------------------------


def down_to_two(engine: Engine) -> None:
    """Tanner at 2/12 Resilience (a 30 m fall does 10)."""
    table(engine)
    tanner(engine)
    run(engine, Fall(character="Tanner", metres=30))
    assert 2 == sheet(engine, "Tanner").resilience


def first_crit(engine: Engine) -> tuple[Event, ...]:
    """G-SG-12's injury: 3 damage at 2/12, crit dice 2 (severity) and 3 (location)."""
    down_to_two(engine)
    return run(engine, Fall(character="Tanner", metres=9), 2, 3)


def test_g_sg_12_reaching_zero_rolls_a_critical_injury(engine: Engine) -> None:
    """G-SG-12: 2 -> 0 rolls one critical injury: severity 2, Torso; Glitch dice from now on."""
    events = first_crit(engine)
    lost = one(events, sg.ResilienceLost)
    assert (3, 2, 0) == (lost.amount, lost.before, lost.after)
    crit = one(events, sg.CriticalInjuryRolled)
    assert (2, 0, 2, 2, SEVERITY[2], 3, Location.TORSO) == (
        crit.severity_die,
        crit.modifier,
        crit.total,
        crit.band,
        crit.effect,
        crit.location_die,
        crit.location,
    )
    assert sheet(engine, "Tanner").must_glitch


def test_g_sg_13_a_second_injury_rolls_with_plus_3(engine: Engine) -> None:
    """G-SG-13: 1 more damage at 0: crit 4 + 3 = 7 -> 7+, Head: the death clock starts."""
    first_crit(engine)
    events = run(engine, Fall(character="Tanner", metres=1), 4, 6)
    crit = one(events, sg.CriticalInjuryRolled)
    assert (4, 3, 7, 7, Location.HEAD) == (
        crit.severity_die,
        crit.modifier,
        crit.total,
        crit.band,
        crit.location,
    )
    assert sg.DeathClockStarted(injury=2) == one(events, sg.DeathClockStarted)


def test_g_sg_14_an_untreated_injury_forces_the_glitch_dice(engine: Engine) -> None:
    """G-SG-14: the referee called no dice, yet 6,1,2 keeps [1,2] = 3."""
    first_crit(engine)
    rolled = one(
        run(engine, MakeActionRoll(character="Tanner", stat="equilibrium", ds="8"), 6, 1, 2),
        sg.ActionRolled,
    )
    assert (DiceMode.GLITCH, True, (1, 2), 3) == (
        rolled.mode,
        rolled.forced_glitch,
        rolled.kept,
        rolled.total,
    )


def test_g_sg_15_slagged_armour_negates_a_deadly_injury(engine: Engine) -> None:
    """G-SG-15: crit 6 + 3 = 9 (7+), then Tanner slags his kevlar: no death clock, no +1."""
    first_crit(engine)
    events = run(engine, Fall(character="Tanner", metres=3), 6, 2)
    assert 7 == one(events, sg.CriticalInjuryRolled).band
    assert 2 == sheet(engine, "Tanner").death_clock
    slagged = one(run(engine, SlagArmour(character="Tanner", armour="kevlar")), sg.ArmourSlagged)
    assert sg.ArmourSlagged(item="Kevlar jacket", injury=2) == slagged
    after = sheet(engine, "Tanner")
    assert (None, "Kevlar jacket") == (after.death_clock, after.injuries[1].negated_by)
    refused(
        engine,
        MakeActionRoll(character="Tanner", stat="m", ds="8", items=("kevlar",)),
        errors.ItemUnusable,
        1,
        1,
        1,
    )


@pytest.mark.parametrize(
    ("resilience", "expected"),
    [pytest.param(5, 8, id="G-SG-16-5-to-8"), pytest.param(11, 12, id="G-SG-16-11-capped-12")],
)
def test_g_sg_16_a_lazarus_patch_restores_3(engine: Engine, resilience: int, expected: int) -> None:
    """G-SG-16: +3 Resilience, capped at the maximum; one patch fewer."""
    table(engine)
    run(
        engine,
        CreateCharacter(
            character="Tanner",
            player="ana",
            morphology=2,
            reaction=1,
            cognition=1,
            equilibrium=0,
            items=("lazarus", "toolkit", "penlight"),
        ),
        1,
        1,
        1,
        4,
    )
    run(engine, Fall(character="Tanner", metres=3 * (12 - resilience)))
    run(engine, ApplyPatch(character="Tanner"))
    after = sheet(engine, "Tanner")
    assert (expected, 3) == (after.resilience, after.items[0].uses)


def test_g_sg_17_rest_restores_resilience_but_not_injuries(engine: Engine) -> None:
    """G-SG-17: 8 hours' rest in a safe area: 3 -> 12, the injury stays, Glitch still forced."""
    table(engine)
    run(
        engine,
        CreateCharacter(
            character="Tanner",
            player="ana",
            morphology=2,
            reaction=1,
            cognition=1,
            equilibrium=0,
            items=("lazarus", "toolkit", "penlight"),
        ),
        1,
        1,
        1,
        4,
    )
    run(engine, Fall(character="Tanner", metres=36), 1, 1)
    run(engine, ApplyPatch(character="Tanner"))
    assert 3 == sheet(engine, "Tanner").resilience
    restored = one(run(engine, Rest(characters=("Tanner",))), sg.ResilienceRestored)
    assert (3, 12) == (restored.before, restored.after)
    after = sheet(engine, "Tanner")
    assert (1, True) == (len(after.injuries), after.must_glitch)


def test_g_sg_18_first_aid_gains_2(engine: Engine) -> None:
    """G-SG-18: Cognition 2 with a kit (a prerequisite, not +1) rolls 5,4 = 11 >= 10: 4 -> 6."""
    table(engine)
    tanner(engine)
    run(
        engine,
        CreateCharacter(
            character="Doc",
            player="fay",
            morphology=0,
            reaction=1,
            cognition=2,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        1,
        1,
        1,
    )
    run(engine, AddItem(character="Doc", item="First aid kit", category="gear"))
    run(engine, Fall(character="Tanner", metres=24))
    events = run(engine, GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid"), 5, 4)
    rolled = one(events, sg.ActionRolled)
    assert (11, True, ()) == (rolled.total, rolled.success, rolled.items)
    assert (4, 6) == (one(events, sg.ResilienceRestored).before, sheet(engine, "Tanner").resilience)


@pytest.mark.parametrize(
    ("metres", "damage"),
    [
        pytest.param(1, 1, id="G-SG-19-1m-1"),
        pytest.param(3, 1, id="G-SG-19-3m-1"),
        pytest.param(7, 3, id="G-SG-19-7m-3"),
        pytest.param(9, 3, id="G-SG-19-9m-3"),
        pytest.param(10, 4, id="G-SG-19-10m-4"),
    ],
)
def test_g_sg_19_falling_damage(engine: Engine, metres: int, damage: int) -> None:
    """G-SG-19: 1 damage per 3 metres, rounded up."""
    table(engine)
    tanner(engine)
    assert (
        damage
        == one(run(engine, Fall(character="Tanner", metres=metres)), sg.ResilienceLost).amount
    )


def test_g_sg_20_encumbrance_hits_morphology_and_reaction_only(engine: Engine) -> None:
    """G-SG-20: 12 bulky items (+2 implants) over Inventory 10: -2 on Reaction, 0 on Cognition."""
    table(engine)
    tanner(engine)
    for n in range(9):
        run(engine, AddItem(character="Tanner", item=f"Crate {n}", category="gear"))
    run(engine, AddItem(character="Tanner", item="Thermal optics", category="implant"))
    run(engine, AddItem(character="Tanner", item="Amped hearing", category="implant"))
    reaction = one(
        run(engine, MakeActionRoll(character="Tanner", stat="reaction", ds="8"), 3, 3),
        sg.ActionRolled,
    )
    cognition = one(
        run(engine, MakeActionRoll(character="Tanner", stat="cognition", ds="8"), 3, 3),
        sg.ActionRolled,
    )
    assert (2, 5) == (reaction.encumbrance, reaction.total)
    assert (0, 7) == (cognition.encumbrance, cognition.total)


def test_g_sg_21_a_level_after_the_mission(engine: Engine) -> None:
    """G-SG-21: mission complete; raise Cognition and Resilience: level 2, Cognition 2, 13/13."""
    table(engine)
    tanner(engine)
    run(engine, CompleteMission(mission="Docklands job"))
    gained = one(
        run(engine, LevelUp(character="Tanner", stat="cognition", secondary="resilience")),
        sg.LevelGained,
    )
    assert (2, 2, 13) == (gained.level, gained.stat_value, gained.secondary_value)
    after = sheet(engine, "Tanner")
    assert (2, 2, 13, 13) == (
        after.level,
        after.stats.cognition,
        after.resilience,
        after.resilience_max,
    )
    refused(
        engine,
        LevelUp(character="Tanner", stat="cognition", secondary="resilience"),
        errors.NoLevelDue,
    )


def test_g_sg_22_an_npc_dies_at_ds_0(engine: Engine) -> None:
    """G-SG-22: a total of 10 against DS 3: margin 7, DS 3 -> 0, the NPC dies."""
    table(engine)
    tanner(engine)
    npc(engine, "Zoner", "3")
    events = run(engine, tanner_hits(), 3, 3)
    lost = one(events, sg.ResilienceLost)
    assert (10, 7, 3, 0) == (
        one(events, sg.ActionRolled).total,
        lost.amount,
        lost.before,
        lost.after,
    )
    assert sheet(engine, "Zoner").dead


# --- Special rules -------------------------------------------------------------------------------


def test_g_sg_23_a_shotgun_point_blank_adds_3(engine: Engine) -> None:
    """G-SG-23: margin 2 point blank: 2 + 3 = 5 damage."""
    table(engine)
    tanner(engine)
    npc(engine, "Zoner", "10")
    attack = Attack(
        character="Tanner",
        targets=("Zoner",),
        stat="m",
        items=("katana", "kevlar"),
        shotgun="point-blank",
    )
    lost = one(run(engine, attack, 3, 5), sg.ResilienceLost)
    assert (2, 5) == (lost.base, lost.amount)


def smg_table(engine: Engine) -> None:
    table(engine)
    run(
        engine,
        CreateCharacter(
            character="Kat",
            player="gil",
            morphology=0,
            reaction=2,
            cognition=1,
            equilibrium=1,
            items=("ranged:SMG", "toolkit", "penlight"),
        ),
        1,
        1,
        1,
    )
    npc(engine, "Zoner", "20")
    npc(engine, "Boss", "16")


def test_g_sg_24_full_auto_empties_the_magazine(engine: Engine) -> None:
    """G-SG-24: full auto: +4 and the magazine is empty; a burst then is refused."""
    smg_table(engine)
    events = run(
        engine,
        Attack(character="Kat", targets=("Zoner",), stat="r", items=("smg",), full_auto="smg"),
        6,
        6,
    )
    rolled = one(events, sg.ActionRolled)
    assert [("full auto (SMG)", 4)] == [(m.source, m.value) for m in rolled.modifiers]
    assert sg.MagazineEmptied(item="SMG") == one(events, sg.MagazineEmptied)
    refused(
        engine,
        Attack(character="Kat", targets=("Zoner",), stat="r", burst="smg"),
        errors.MagazineEmpty,
        6,
        6,
    )


def test_g_sg_25_three_bursts_to_a_magazine(engine: Engine) -> None:
    """G-SG-25: +2 a burst; the third empties the magazine; the fourth is refused."""
    smg_table(engine)
    for n in (1, 2, 3):
        events = run(
            engine, Attack(character="Kat", targets=("Boss",), stat="r", burst="smg"), 6, 6
        )
        assert 2 == sum(m.value for m in one(events, sg.ActionRolled).modifiers)
        assert n == one(events, sg.BurstFired).bursts
    refused(
        engine,
        Attack(character="Kat", targets=("Boss",), stat="r", burst="smg"),
        errors.MagazineEmpty,
        6,
        6,
    )


def test_g_sg_26_aiming_tops_out_at_3_rounds(engine: Engine) -> None:
    """G-SG-26: three rounds of aim give +3; a fourth is refused."""
    smg_table(engine)
    for _ in range(3):
        run(engine, TakeAim(character="Kat", target="Zoner"))
    refused(engine, TakeAim(character="Kat", target="Zoner"), errors.AimLimitReached)
    rolled = one(
        run(engine, Attack(character="Kat", targets=("Zoner",), stat="r"), 6, 6), sg.ActionRolled
    )
    assert [("aimed 3 round(s)", 3)] == [(m.source, m.value) for m in rolled.modifiers]
    assert sheet(engine, "Kat").aim is None


def test_g_sg_27_hacking_needs_a_console(engine: Engine) -> None:
    """G-SG-27: no console, no hack."""
    table(engine)
    tanner(engine)
    npc(engine, "Basic system", "easy", system=True)
    refused(engine, Hack(character="Tanner", system="Basic system"), errors.ConsoleRequired, 3, 3)
    refused(
        engine,
        Hack(character="Tanner", system="Basic system", console="penlight"),
        errors.ConsoleRequired,
        3,
        3,
    )


def test_g_sg_28_neural_damage_from_a_secure_system(engine: Engine) -> None:
    """G-SG-28: Cognition 2 + console 1 + 3,4 = 10 against DS 14: 4 neural damage."""
    table(engine)
    run(
        engine,
        CreateCharacter(
            character="Dix",
            player="hal",
            morphology=0,
            reaction=1,
            cognition=2,
            equilibrium=1,
            items=("console", "penlight", "toolkit"),
        ),
        1,
        1,
        1,
    )
    npc(engine, "Secure system", "14", system=True, neural=True)
    events = run(engine, Hack(character="Dix", system="Secure system", console="console"), 3, 4)
    assert 10 == one(events, sg.ActionRolled).total
    lost = one(events, sg.ResilienceLost)
    assert (4, Cause.NEURAL) == (lost.amount, lost.cause)
    assert not sheet(engine, "Secure system").breached


def test_g_sg_29_monofilament_negates_armour(engine: Engine) -> None:
    """G-SG-29: facing a monofilament blade, the kevlar jacket adds nothing."""
    table(engine)
    tanner(engine)
    npc(engine, "Zoner", "10")
    attack = Attack(
        character="Tanner", targets=("Zoner",), stat="m", items=("katana", "kevlar"), vs_mono=True
    )
    rolled = one(run(engine, attack, 3, 5), sg.ActionRolled)
    assert [1, 0] == [b.bonus for b in rolled.items]
    assert 11 == rolled.total


def test_g_sg_30_a_tie_is_a_success_without_damage(engine: Engine) -> None:
    """G-SG-30: total = DS = 10 on a dangerous roll: success, margin 0, nobody hurt."""
    table(engine)
    tanner(engine)
    npc(engine, "Zoner", "10")
    events = run(engine, tanner_hits(), 3, 3)
    rolled = one(events, sg.ActionRolled)
    assert (10, 0, True) == (rolled.total, rolled.margin, rolled.success)
    assert [] == only(events, sg.ResilienceLost)
