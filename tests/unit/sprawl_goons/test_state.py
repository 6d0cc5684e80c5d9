"""Sprawl Goons strict replay (state.py, state_harm.py): an event that does not fit the
character's state is refused."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.errors import CharacterDead, ReplayMismatch
from domain.events import Event
from domain.rulesets.sprawl_goons import RULESET, errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.commands import DisableCyberLimb, Fall
from domain.rulesets.sprawl_goons.state import evolve
from domain.rulesets.sprawl_goons.tables import Cause, DiceMode
from engine import Engine
from tests.golden.test_sprawl_goons import run, sheet
from tests.unit.sprawl_goons.conftest import cast


def _pc(resilience: int = 12) -> SgCharacter:
    created = sg.CharacterCreated(
        character_id=uuid4(),
        name="Tanner",
        player="ana",
        stats=sg.Stats(morphology=2, reaction=1, cognition=1, equilibrium=0),
        resilience=12,
        inventory=10,
        level=1,
    )
    state = evolve(created, None)
    assert state is not None
    if resilience < 12:
        lost = sg.ResilienceLost(
            amount=12 - resilience,
            cause=Cause.FALLING,
            source="test",
            base=12 - resilience,
            bonuses=(),
            before=12,
            after=resilience,
        )
        state = evolve(lost, state)
    assert state is not None
    return state


def test_damage_that_does_not_fit_the_state_raises() -> None:
    """A ResilienceLost recorded against another Resilience no longer replays."""
    wrong = sg.ResilienceLost(
        amount=2, cause=Cause.HIT, source="x", base=2, bonuses=(), before=9, after=7
    )
    with pytest.raises(ReplayMismatch):
        evolve(wrong, _pc())


def test_a_dead_character_cannot_roll_in_replay() -> None:
    """An Action Roll after death does not replay."""
    dead = evolve(sg.CharacterDied(cause="test"), _pc())
    roll = sg.ActionRolled(
        purpose=sg.Purpose.GENERAL,
        stat=sg.Stat.MORPHOLOGY,
        stat_value=2,
        items=(),
        modifiers=(),
        encumbrance=0,
        mode=DiceMode.NORMAL,
        called=(),
        forced_glitch=False,
        dice=(3, 3),
        kept=(3, 3),
        total=8,
        ds=8,
        target=None,
        margin=0,
        success=True,
        dangerous=False,
    )
    with pytest.raises(CharacterDead):
        evolve(roll, dead)


def test_evolve_knows_only_sprawl_goons_events() -> None:
    """Another system's event is a programming error, not a refusal."""
    with pytest.raises(TypeError):
        RULESET.evolve_character(Event(), _pc())


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
