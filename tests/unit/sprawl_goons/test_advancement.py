"""Sprawl Goons advancement (advancement.py, R-SG-08): a level due to each living PC at the end
of a mission."""

from __future__ import annotations

from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import CompleteMission
from engine import Engine
from tests.golden.test_sprawl_goons import CAMPAIGN, sheet
from tests.unit.sprawl_goons.conftest import cast


def test_a_mission_levels_only_the_living_pcs(engine: Engine) -> None:
    """R-SG-08: each living PC has a level due; the dead and NPCs do not; a mission has a name."""
    cast(engine)
    done = engine.execute(CAMPAIGN, CompleteMission(mission=" ")).events
    assert [sg.MissionCompleted(mission="the mission")] * 3 == list(done)
    assert [1, 1, 1, 0] == [sheet(engine, n).levels_due for n in ("Dix", "Doc", "Tanner", "Cass")]


def test_a_mission_is_named_as_given(engine: Engine) -> None:
    """R-SG-08: the mission's name is recorded without its spaces, once per living PC."""
    cast(engine)
    done = engine.execute(CAMPAIGN, CompleteMission(mission=" Heist ")).events
    assert [sg.MissionCompleted(mission="Heist")] * 3 == list(done)
