"""Sprawl Goons attacks (combat.py): the dangerous roll as an attack (R-SG-03, R-SG-04), fire
modes and magazines (R-SG-11), aim (R-SG-13), shotguns against bunched targets (R-SG-14,
SG-A11), grenades (R-SG-16, SG-A12) and monofilament (R-SG-19)."""

from __future__ import annotations

from domain.errors import DomainError
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    AddItem,
    Attack,
    Fall,
    SlagArmour,
    TakeAim,
    ThrowGrenade,
)
from domain.rulesets.sprawl_goons.tables import Cause, DiceMode, Location, Purpose, Stat
from engine import Engine
from tests.golden.test_sprawl_goons import npc, one, only, refused, run, sheet, smg_table, table
from tests.unit.sprawl_goons.conftest import cast, decided, dix


def test_an_attack_rolls_the_dice_the_referee_called(engine: Engine) -> None:
    """R-SG-04: Glitch keeps the two worst of three, Upgrade the two best; both cancel (SG-A3)."""
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


def test_an_empty_magazine_says_to_reload(engine: Engine) -> None:
    """R-SG-11 (G-SG-24): after full auto the magazine is empty: a burst is refused by name."""
    smg_table(engine)
    run(engine, Attack(character="Kat", targets=("Zoner",), stat="r", full_auto="smg"), 6, 6)
    burst = Attack(character="Kat", targets=("Zoner",), stat="r", burst="smg")
    error = refused(engine, burst, DomainError, 6, 6)
    assert (
        "MAGAZINE_EMPTY: SMG's magazine is empty: reload before firing (Special Rules)"
        == f"{error.code}: {error.reason}"
    )


def test_the_fourth_round_of_aim_is_refused_when_decided(engine: Engine) -> None:
    """R-SG-13 (G-SG-26): aiming gives at most +3: the command itself refuses a fourth round,
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


def test_a_shotgun_bonus_comes_before_the_referees_damage_bonuses(engine: Engine) -> None:
    """R-SG-14 (G-SG-23): point blank adds +3 damage, listed first, then other damage bonuses."""
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


def test_a_shotgun_hits_every_bunched_target_it_beats(engine: Engine) -> None:
    """SG-A11: each target whose DS the one roll beats takes its own margin."""
    smg_table(engine)
    npc(engine, "Runt", "8")
    npc(engine, "Imp", "9")
    attack = Attack(character="Kat", targets=("Runt", "Imp"), stat="r", shotgun="range")
    lost = only(run(engine, attack, 5, 4), sg.ResilienceLost)
    assert [(8, 3, 5), (9, 2, 7)] == [(x.before, x.amount, x.after) for x in lost]
    assert (5, 7) == (sheet(engine, "Runt").resilience, sheet(engine, "Imp").resilience)


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


def test_the_attacker_takes_the_largest_shortfall_once(engine: Engine) -> None:
    """SG-A11: missing several bunched targets costs the attacker the largest shortfall, once;
    an attacker taken to 0 so rolls a critical injury (R-SG-06)."""
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


def test_a_fumbled_grenade_can_bring_its_thrower_a_critical_injury(engine: Engine) -> None:
    """SG-A12 + R-SG-06: a fumble hurts the thrower by the shortfall; taken to 0, they roll a
    critical injury."""
    grenade_site(engine)
    run(engine, Fall(character="Dix", metres=33))
    fumble = ThrowGrenade(character="Dix", targets=("Zoner",), fumble=True)
    events = run(engine, fumble, 1, 2, 2, 6)
    lost = one(events, sg.ResilienceLost)
    assert ("own grenade (fumbled)", 6, 1, 0) == (lost.source, lost.amount, lost.before, lost.after)
    crit = one(events, sg.CriticalInjuryRolled)
    assert (2, Location.HEAD) == (crit.severity_die, crit.location)


def test_a_grenade_named_must_have_uses_to_spend(engine: Engine) -> None:
    """Only a consumable is spent as the grenade thrown."""
    grenade_site(engine)
    throw = ThrowGrenade(character="Dix", targets=("Zoner",), grenade="kevlar")
    assert (
        "Kevlar jacket has no uses to spend"
        == refused(engine, throw, errors.NotConsumable, 1, 2).reason
    )


def test_a_grenade_thrown_is_spent_and_can_bring_a_critical_injury(engine: Engine) -> None:
    """R-SG-16, SG-A12: the grenade named is one use of it; a target it takes to 0 rolls a
    critical injury (R-SG-06); the referee's Glitch and Upgrade cancel (SG-A3)."""
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


def test_the_last_grenade_thrown_leaves_none_to_throw(engine: Engine) -> None:
    """R-SG-23: a consumable with 1 use left can be used; with 0 it is refused by name."""
    grenade_site(engine)
    run(engine, AddItem(character="Dix", item="Frag grenade", category="consumable", uses=1))
    throw = ThrowGrenade(character="Dix", targets=("Zoner",), grenade="frag")
    assert sg.ItemUsed(item="Frag grenade", before=1, after=0) == one(
        run(engine, throw, 1, 1), sg.ItemUsed
    )
    error = refused(engine, throw, DomainError, 1, 1)
    assert "NO_USES_LEFT: Frag grenade has no uses left" == f"{error.code}: {error.reason}"


def test_monofilament_adds_1_only_against_an_unarmoured_target(engine: Engine) -> None:
    """R-SG-19: a monofilament hit does +1 damage if the target is unarmoured: an NPC as the
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
    """R-SG-19 + Special Rules: slagged armour is useless, so monofilament cuts as if none."""
    cast(engine)
    run(engine, Fall(character="Tanner", metres=40), 1, 2)
    run(engine, SlagArmour(character="Tanner", armour="kevlar"))
    attack = Attack(character="Dix", targets=("Tanner",), stat="cognition", mono=True)
    events = run(engine, attack, 6, 6, 1, 3)
    lost = only(events, sg.ResilienceLost)[0]
    assert [("monofilament, unarmoured", 1)] == [(b.source, b.value) for b in lost.bonuses]
