"""Sprawl Goons dice (rolls.py): Glitch and Upgrade dice (R-SG-04, SG-A3), and critical damage
(R-SG-06): when it is rolled (SG-A1), its d6s, the +3 after an earlier injury (SG-A4), the death
clock of a 7+ (SG-A5) and major NPCs at DS 0 (R-SG-24)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.audience import GMS
from domain.errors import DomainError
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    Fall,
    GiveMedicalAttention,
    MakeActionRoll,
    SlagArmour,
)
from domain.rulesets.sprawl_goons.rolls import dice_mode, keep
from domain.rulesets.sprawl_goons.settings import GlitchUpgradeBoth, Settings
from domain.rulesets.sprawl_goons.tables import DiceMode, Location
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.golden.test_sprawl_goons import npc, one, refused, run, sheet, table
from tests.unit.sprawl_goons.conftest import cast, dix, tanner_on_a_rooftop


@given(faces=st.tuples(*[st.integers(1, 6)] * 3), mode=st.sampled_from(list(DiceMode)[1:]))
def test_glitch_and_upgrade_keep_two_of_three(faces: tuple[int, int, int], mode: DiceMode) -> None:
    """Glitch keeps the two lowest, Upgrade the two highest, in the order rolled."""
    kept = keep(mode, faces)
    expected = sorted(faces)[:2] if mode is DiceMode.GLITCH else sorted(faces)[1:]
    assert expected == sorted(kept)
    assert 2 == len(kept)


@pytest.mark.parametrize(
    ("rule", "mode"),
    [
        pytest.param(GlitchUpgradeBoth.CANCEL, DiceMode.NORMAL, id="cancel"),
        pytest.param(GlitchUpgradeBoth.GLITCH_WINS, DiceMode.GLITCH, id="glitch-wins"),
        pytest.param(GlitchUpgradeBoth.UPGRADE_WINS, DiceMode.UPGRADE, id="upgrade-wins"),
    ],
)
def test_a_forced_glitch_meets_a_called_upgrade_by_house_rule(
    rule: GlitchUpgradeBoth, mode: DiceMode
) -> None:
    """An untreated injury's Glitch and the referee's Upgrade resolve by glitchUpgradeBoth."""
    rules = Settings(glitch_upgrade_both=rule)
    assert (mode, (DiceMode.GLITCH, DiceMode.UPGRADE)) == dice_mode(False, True, True, rules)


def test_undoing_an_injury_takes_the_forced_glitch_rolls_with_it(engine: Engine) -> None:
    """A roll with forced Glitch dice depends on the injury that forced them."""
    tanner_on_a_rooftop(engine)
    crit = engine.execute(
        "S", Fall(character="Tanner", metres=36), dice=DiceSpec(faces=(2, 2))
    ).number
    engine.execute(
        "S", MakeActionRoll(character="Tanner", stat="m", ds="8"), dice=DiceSpec(faces=(1, 2, 3))
    )
    with pytest.raises(DomainError, match="depend"):
        engine.undo("S", crit, reason="wrong fall")
    engine.undo("S", crit, reason="wrong fall", with_dependents=True)
    assert (12, ()) == (
        engine.character("S", "Tanner", audience=GMS).resilience,
        engine.character("S", "Tanner", audience=GMS).injuries,
    )


@pytest.mark.parametrize(
    ("trigger", "metres", "crit"),
    [
        pytest.param("onReachZero", 36, True, id="reach-zero-exactly-crits"),
        pytest.param("onOverflow", 36, False, id="overflow-exactly-zero-no-crit"),
        pytest.param("onOverflow", 39, True, id="overflow-beyond-zero-crits"),
    ],
)
def test_the_critical_trigger_house_rule(trigger: str, metres: int, crit: bool) -> None:
    """SG-A1: reaching 0 rolls a critical injury; under onOverflow only damage beyond 0 does."""
    with Engine() as engine:
        tanner_on_a_rooftop(engine, criticalTrigger=trigger)
        faces = (1, 1) if crit else ()
        events = engine.execute(
            "S", Fall(character="Tanner", metres=metres), dice=DiceSpec(faces=faces)
        ).events
        assert crit == any(isinstance(e, sg.CriticalInjuryRolled) for e in events)


@pytest.mark.parametrize("faces", [(7, 1), (1, 7)], ids=["severity-d7", "location-d7"])
def test_critical_injury_dice_are_d6(engine: Engine, faces: tuple[int, ...]) -> None:
    """R-SG-06: the referee rolls a d6 for severity and a d6 for location: a 7 is refused."""
    cast(engine)
    error = refused(engine, Fall(character="Dix", metres=40), DomainError, *faces)
    assert "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up" == (
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
    """R-SG-06 Body Locations: 1 leg, 2-4 torso, 5 arm, 6 head."""
    table(engine)
    dix(engine)
    crit = one(run(engine, Fall(character="Dix", metres=40), 1, die), sg.CriticalInjuryRolled)
    assert location == crit.location


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


def test_under_ever_a_negated_injury_does_not_count_as_taken(engine: Engine) -> None:
    """SG-A4 with critBonusScope=ever, Special Rules: an injury negated by slagged armour is
    not 'critical damage already taken': the next one rolls without the +3."""
    table(engine, critBonusScope="ever")
    dix(engine)
    run(engine, Fall(character="Dix", metres=40), 1, 2)
    run(engine, SlagArmour(character="Dix", armour="kevlar", injury=1))
    crit = one(run(engine, Fall(character="Dix", metres=3), 1, 3), sg.CriticalInjuryRolled)
    assert (0, 1) == (crit.modifier, crit.total)


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
    """R-SG-06, R-SG-24: the referee may use critical injuries for major NPCs: DS 0 rolls one
    instead of killing them."""
    table(engine)
    npc(engine, "Boss", "5", major=True)
    events = run(engine, Fall(character="Boss", metres=30), 3, 6)
    assert [sg.ResilienceLost, sg.CriticalInjuryRolled] == [type(e) for e in events]
    assert (3, Location.HEAD) == (events[1].severity_die, events[1].location)  # type: ignore[attr-defined]
    assert not sheet(engine, "Boss").dead
