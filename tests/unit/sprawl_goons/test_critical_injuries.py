"""Critical injuries negated or mended (critical_injuries.py; Special Rules, Body Locations,
SG-A5, SG-A6): armour slagged once, a cybernetic limb shut down and repaired."""

from __future__ import annotations

import pytest

from domain.errors import DomainError
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    DisableCyberLimb,
    Fall,
    RepairCyberLimb,
    SlagArmour,
)
from domain.rulesets.sprawl_goons.tables import Location
from engine import Engine
from tests.golden.test_sprawl_goons import refused, run, sheet, table
from tests.unit.sprawl_goons.conftest import cast, dix, hurt


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
