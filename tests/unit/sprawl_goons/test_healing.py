"""Sprawl Goons healing (healing.py, R-SG-07, SG-A7): Lazarus Patches, first aid, rest and
medical attention."""

from __future__ import annotations

import pytest

from domain.errors import DomainError
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    ApplyPatch,
    Fall,
    GiveFirstAid,
    GiveMedicalAttention,
    Rest,
)
from domain.rulesets.sprawl_goons.tables import DiceMode, Purpose
from engine import Engine
from tests.conftest import event_count
from tests.golden.test_sprawl_goons import refused, run, sheet
from tests.unit.sprawl_goons.conftest import cast, tanner_on_a_rooftop


def test_a_lazarus_patch_may_heal_another_pc(engine: Engine) -> None:
    """R-SG-07: the patch comes out of the user's blister and +3 goes to the named patient."""
    cast(engine)
    events = run(engine, ApplyPatch(character="Doc", patient="Tanner"))
    restored = sg.ResilienceRestored(amount=3, cause="a Lazarus Patch", before=10, after=12)
    assert (sg.ItemUsed(item="Lazarus Patches", before=4, after=3), restored) == events
    assert (12, 12) == (sheet(engine, "Tanner").resilience, sheet(engine, "Doc").resilience)


def test_first_aid_rolls_as_the_referee_called_it(engine: Engine) -> None:
    """R-SG-07 + R-SG-04: first aid is a Cognition roll with the items, bonuses and dice the
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
    """R-SG-04: the referee's Glitch (or Upgrade) on first aid rolls three dice."""
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


def test_rest_restores_what_was_lost(engine: Engine) -> None:
    """R-SG-07: 8 hours' rest brings Resilience back to its maximum; the amount is what was lost."""
    cast(engine)
    restored = sg.ResilienceRestored(amount=2, cause="9 hours' rest", before=10, after=12)
    assert (restored,) == run(engine, Rest(characters=("Tanner",), hours=9))


def test_medical_attention_needs_an_injury(engine: Engine) -> None:
    """Nothing to treat: refused, nothing appended."""
    tanner_on_a_rooftop(engine)
    before = event_count(engine)
    with pytest.raises(errors.NothingToTreat):
        engine.execute("S", GiveMedicalAttention(character="Tanner", provider="Dr Ng"))
    assert before == event_count(engine)


def test_medical_attention_names_a_professional_when_none_is_given(engine: Engine) -> None:
    """R-SG-07: medical attention treats every open critical injury; the provider defaults."""
    cast(engine)
    run(engine, Fall(character="Dix", metres=40), 2, 5)
    treated = sg.MedicalAttentionReceived(provider="a medical professional", treated=(1,))
    assert (treated,) == run(engine, GiveMedicalAttention(character="Dix", provider="  "))
