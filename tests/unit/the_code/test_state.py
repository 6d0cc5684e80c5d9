"""The Code's strict replay (state.py, DIGEST 5.2): an event that does not fit the hero is
refused, and a reveal first made by a re-decided ruling is marked so."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.errors import ReplayMismatch
from domain.rulesets.the_code import RULESET, errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.state import evolve
from domain.rulesets.the_code.tables import Detail, ExposureCause, MotivationUse, RevealCause
from engine import Engine
from tests.golden.test_the_code import sheet, table
from tests.unit.the_code.conftest import replayed_hawk, revealed_by_blab


def test_a_stream_that_does_not_start_with_the_hero_does_not_fit() -> None:
    """Replay: a hero's stream starts with HeroCreated."""
    with pytest.raises(ReplayMismatch) as raised:
        evolve(tc.ConductRuled(violent=True, secretive=False), None)
    assert "a hero's stream must start with HeroCreated" == str(raised.value)


def test_a_misfit_says_what_was_recorded_and_what_the_state_holds(engine: Engine) -> None:
    """Replay: a MotivationSpent from 5 when the hero holds 3 does not fit, and says so."""
    table(engine)
    spent = tc.MotivationSpent(amount=1, use=MotivationUse.CONTEST, before=5, after=4)
    with pytest.raises(ReplayMismatch) as raised:
        evolve(spent, sheet(engine))
    assert "Motivation before: 5 recorded, 3 in the state" == str(raised.value)


def test_a_detail_is_revealed_once() -> None:
    """Replaying a second reveal of the same detail does not fit."""
    hero = evolve(revealed_by_blab(Detail.PROFESSION, None, 0), replayed_hawk())
    with pytest.raises(errors.DetailAlreadyPublic):
        evolve(revealed_by_blab(Detail.PROFESSION, None, 0), hero)


def test_an_exposure_change_must_start_where_the_hero_stands() -> None:
    """An ExposureChanged whose 'before' is not the hero's Exposure does not fit."""
    change = tc.ExposureChanged(
        before=2,
        after=3,
        delta=1,
        cause=ExposureCause.SESSION_ROLL,
        peak_before=2,
        peak_after=3,
        session=1,
    )
    with pytest.raises(ReplayMismatch):
        evolve(change, replayed_hawk(exposure=1))


def test_an_mo_die_without_the_mo_call_does_not_fit() -> None:
    """An Exposure roll with the MO die needs the GM's MO call in that session."""
    rolled = tc.ExposureRolled(
        session=1,
        dice=(2, 3),
        exposure=1,
        mo_die_included=True,
        any_even=True,
        gain=1,
        public_identity=False,
    )
    with pytest.raises(ReplayMismatch):
        evolve(rolled, replayed_hawk(exposure=1))


def test_a_reveal_first_made_by_a_redecided_ruling_is_marked_rederived() -> None:
    """DIGEST 5.2: a detail a re-decided ruling reveals that the recorded one did not is marked
    ``rederived``; one it revealed before keeps its cause; other events are kept as they are."""
    hawk, kestrel = uuid4(), uuid4()

    def shown(detail: Detail) -> tc.DetailRevealed:
        return tc.DetailRevealed(
            detail=detail,
            level=2,
            exposure=2,
            cause=RevealCause.SESSION_ROLL,
            suggested=detail,
            gm_override=False,
            value="x",
            session=1,
            source="ExposureChanged",
        )

    day_off = tc.DayOffTaken(days=1)
    recorded = {hawk: (shown(Detail.PHYSICAL_DESCRIPTION), day_off)}
    decided = {
        hawk: (shown(Detail.PHYSICAL_DESCRIPTION), shown(Detail.CODE_NAME), day_off),
        kestrel: (shown(Detail.PHYSICAL_DESCRIPTION),),
    }
    again = RULESET.rederived(recorded, decided)
    assert [RevealCause.SESSION_ROLL, RevealCause.REDERIVED] == [e.cause for e in again[hawk][:2]]
    assert day_off == again[hawk][2]
    assert [RevealCause.REDERIVED] == [e.cause for e in again[kestrel]]
