"""Exposure and Popularity reactions (exposure.py, R-TC-10, R-TC-11, R-TC-13): the
end-of-session roll, a session off, blabbing, lowering Exposure for Popularity, and reactions."""

from __future__ import annotations

import pytest

from domain.errors import NotAPlayerCharacter
from domain.lifecycle import EndSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import (
    Blab,
    CreateHero,
    CreateNpc,
    LowerExposure,
    RollExposure,
    RollReaction,
    SolveProblem,
)
from domain.rulesets.the_code.tables import (
    Detail,
    ExposureCause,
    MotivationUse,
    PopularityCause,
    RevealCause,
    Scale,
)
from engine import Engine
from tests.conftest import refused
from tests.golden.test_the_code import HAWK, MITCH, of, run, sheet, table
from tests.unit.the_code.conftest import KESTREL, rivals


def test_the_mo_called_with_the_roll_adds_its_die(engine: Engine) -> None:
    """The GM calls the MO followed as the roll is made: MoFollowed with the hero's MO, then
    Exposure + 1 dice; an even die gains 1 (R-TC-10, R-TC-14)."""
    table(engine, exposure=1)
    events = run(engine, RollExposure(hero=HAWK, mo_followed=True), 3, 6)
    assert [
        tc.MoFollowed(session=1, description=MITCH["modus_operandi"]),
        tc.ExposureRolled(
            session=1,
            dice=(3, 6),
            exposure=1,
            mo_die_included=True,
            any_even=True,
            gain=1,
            public_identity=False,
        ),
        tc.ExposureChanged(
            before=1,
            after=2,
            delta=1,
            cause=ExposureCause.SESSION_ROLL,
            peak_before=1,
            peak_after=2,
            session=1,
        ),
    ] == list(events)[:3]
    assert [Detail.PHYSICAL_DESCRIPTION] == [r.detail for r in of(tc.DetailRevealed, events)]


def test_a_gain_earlier_in_the_session_spares_the_drop(engine: Engine) -> None:
    """Exposure gained this session (a minor problem): no even at the end costs nothing
    (R-TC-10, TC-A13)."""
    table(engine, exposure=1, reward_points=25)
    run(engine, SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR), *[1] * 4)
    events = run(engine, RollExposure(hero=HAWK), 1, 3)
    assert [] == of(tc.ExposureChanged, events)
    assert 2 == sheet(engine).exposure


def test_no_gain_all_session_drops_a_point(engine: Engine) -> None:
    """No even and nothing gained all session: Exposure 2 -> 1 (R-TC-10, G-TC-18)."""
    table(engine, exposure=2)
    events = run(engine, RollExposure(hero=HAWK), 1, 3)
    assert [
        tc.ExposureChanged(
            before=2,
            after=1,
            delta=-1,
            cause=ExposureCause.NO_EXPOSURE_GAINED,
            peak_before=2,
            peak_after=2,
            session=1,
        )
    ] == of(tc.ExposureChanged, events)


def test_exposure_one_still_drops_and_may_be_reduced(engine: Engine) -> None:
    """At Exposure 1 a session with no gain drops to 0; so does a session off reduced (R-TC-10)."""
    table(engine, exposure=1)
    run(engine, RollExposure(hero=HAWK), 3)
    assert 0 == sheet(engine).exposure
    other = CreateHero(**{**MITCH, "code_name": KESTREL, "player": "eli", "exposure": 1})
    engine.execute("Lab", other)
    run(engine, RollExposure(hero=KESTREL, off=True, reduce=True))
    assert 0 == sheet(engine, KESTREL).exposure


@pytest.mark.parametrize(
    ("exposure", "reduced"),
    [pytest.param(2, True, id="G-TC-21-reduced"), pytest.param(0, False, id="nothing-to-reduce")],
)
def test_a_session_off_is_recorded_and_may_reduce(
    engine: Engine, exposure: int, reduced: bool
) -> None:
    """A session taken off rolls nothing; reducing works only above 0 (R-TC-10)."""
    table(engine, exposure=exposure)
    events = run(engine, RollExposure(hero=HAWK, off=True, reduce=True))
    assert tc.SessionTakenOff(session=1, reduced=reduced) == events[0]
    assert [-1] * reduced == [e.delta for e in of(tc.ExposureChanged, events)]
    assert sheet(engine).flags_for(1).exposure_settled


@pytest.mark.parametrize(
    ("command", "faces"),
    [
        pytest.param(RollExposure(hero=HAWK, off=True, reveal=("weakness",)), (), id="off"),
        pytest.param(RollExposure(hero=HAWK, reveal=("weakness",)), (1, 3), id="no-gain"),
    ],
)
def test_a_reveal_choice_without_a_gain_is_refused(
    engine: Engine, command: RollExposure, faces: tuple[int, ...]
) -> None:
    """No gain, no new level: a detail chosen to reveal is refused (TC-A12)."""
    table(engine, exposure=2)
    assert {"given": 1, "levels": 0} == refused(
        engine, command, errors.RevealChoiceUnused, faces=faces
    ).data


def test_a_second_exposure_roll_is_refused(engine: Engine) -> None:
    """One end-of-session Exposure roll per hero per session."""
    table(engine)
    run(engine, RollExposure(hero=HAWK))
    refused(engine, RollExposure(hero=HAWK), errors.ExposureAlreadySettled)


def test_a_session_ends_once_every_hero_has_settled_exposure(engine: Engine) -> None:
    """ExposureRollMissing lists every hero still to roll (NPCs roll none); once each has rolled
    or taken the session off, the session ends (R-TC-10)."""
    rivals(engine)
    run(engine, CreateNpc(character="Mister Grin", motivation=2))
    error = refused(engine, EndSession(), errors.ExposureRollMissing)
    assert {"session": 1, "names": f"{HAWK}, {KESTREL}"} == error.data
    run(engine, RollExposure(hero=HAWK))
    error = refused(engine, EndSession(), errors.ExposureRollMissing)
    assert {"session": 1, "names": KESTREL} == error.data
    run(engine, RollExposure(hero=KESTREL, off=True))
    engine.execute("Lab", EndSession())
    assert engine.campaign("Lab").session is None


def test_an_npc_is_told_what_only_heroes_do(engine: Engine) -> None:
    """NotAPlayerCharacter names what NPCs lack and the rule (DIGEST 4.1 TcNpc)."""
    table(engine)
    run(engine, CreateNpc(character="Mister Grin", motivation=2))
    error = refused(engine, RollExposure(hero="Mister Grin"), NotAPlayerCharacter)
    assert {
        "name": "Mister Grin",
        "what": "are heroes, with an Objective, Reward Points, Exposure and Popularity",
        "rule": "The Code: an NPC takes part in contests, Ability steps and days off",
    } == error.data


def test_a_blab_reveals_only_what_was_secret(engine: Engine) -> None:
    """The Profession was public; the blab of Profession and Weakness (twice) reveals the
    Weakness once, for one point of Exposure, outside the ladder (R-TC-11, TC-A12)."""
    table(engine, exposure=2)
    run(engine, Blab(hero=HAWK, details=("profession",), confidant="Lois"))
    command = Blab(
        hero=HAWK, details=("profession", "weakness", "weakness"), confidant=" his barber "
    )
    events = run(engine, command)
    assert [
        tc.TraitBlabbed(
            details=(Detail.WEAKNESS,),
            already_public=(Detail.PROFESSION,),
            confidant="his barber",
            session=1,
        ),
        tc.ExposureChanged(
            before=3,
            after=4,
            delta=1,
            cause=ExposureCause.BLAB,
            peak_before=3,
            peak_after=4,
            session=1,
        ),
        tc.DetailRevealed(
            detail=Detail.WEAKNESS,
            level=None,
            exposure=4,
            cause=RevealCause.BLAB,
            suggested=None,
            gm_override=False,
            value="bum leg",
            session=1,
            source="TraitBlabbed",
        ),
    ] == list(events)
    again = Blab(hero=HAWK, details=("weakness", "profession"), confidant="Jimmy")
    error = refused(engine, again, errors.DetailAlreadyPublic)
    assert {"name": HAWK, "detail": "weakness, profession"} == error.data


def test_lowering_exposure_records_both_changes_in_the_session(engine: Engine) -> None:
    """Popularity 4 -> 3 and Exposure 5 -> 4, the peak kept, in session 1 (R-TC-11, G-TC-22)."""
    table(engine, exposure=5, popularity=4)
    events = run(engine, LowerExposure(hero=HAWK))
    assert [
        tc.PopularityChanged(before=4, after=3, delta=-1, cause=PopularityCause.LOWER_EXPOSURE),
        tc.ExposureChanged(
            before=5,
            after=4,
            delta=-1,
            cause=ExposureCause.LOWER_EXPOSURE,
            peak_before=5,
            peak_after=5,
            session=1,
        ),
    ] == list(events)


@pytest.mark.parametrize(
    ("popularity", "conflict", "favorable", "reason"),
    [
        pytest.param(
            0, False, False, "Popularity 0: always an unfavourable reaction", id="TC-A15-zero"
        ),
        pytest.param(
            10, False, True, "Popularity 10: always a favourable reaction", id="G-TC-26-ten"
        ),
        pytest.param(
            10,
            True,
            False,
            "Popularity 10, but an extreme personality conflict (GM ruling)",
            id="TC-A17-ten-with-conflict",
        ),
    ],
)
def test_an_extreme_popularity_settles_the_reaction_with_its_reason(
    engine: Engine, popularity: int, conflict: bool, favorable: bool, reason: str
) -> None:
    """No roll at Popularity 0 or 10; an extreme conflict the GM rules makes 10 unfavourable
    (R-TC-13, TC-A17)."""
    table(engine, popularity=popularity)
    command = RollReaction(hero=HAWK, audience=" the press ", conflict=conflict)
    events = run(engine, command)
    assert [tc.ReactionResolved(audience="the press", favorable=favorable, reason=reason)] == list(
        events
    )


def test_an_augmented_reaction_records_the_spend_and_the_roll(engine: Engine) -> None:
    """G-TC-25: one point of Motivation buys a die; the roll records the audience, the dice, the
    target, the augment and its justification (R-TC-13)."""
    table(engine, popularity=4)
    command = RollReaction(
        hero=HAWK, audience=" a cop ", extra_dice=1, justification=" ex-cop, knows the beat "
    )
    events = run(engine, command, 7, 3)
    assert [
        tc.MotivationSpent(amount=1, use=MotivationUse.POPULARITY_AUGMENT, before=3, after=2),
        tc.PopularityReactionRolled(
            audience="a cop",
            dice=(7, 3),
            target=4,
            augment=1,
            justification="ex-cop, knows the beat",
            favorable=True,
        ),
    ] == list(events)


def test_extra_reaction_dice_beyond_motivation_carry_their_count(engine: Engine) -> None:
    """InsufficientMotivation for reaction dice says how many were asked (R-TC-13)."""
    table(engine)
    command = RollReaction(hero=HAWK, audience="a cop", extra_dice=4, justification="ex-cop")
    error = refused(engine, command, errors.InsufficientMotivation, faces=(1,) * 5)
    assert {
        "name": HAWK,
        "cost": 4,
        "dice": 4,
        "current": 3,
        "why": "a point for each extra reaction die",
        "rule": "Dealing with Popularity",
    } == error.data


def test_negative_reaction_dice_are_refused(engine: Engine) -> None:
    """DiceOutOfRange: extra reaction dice are 0 or more (R-TC-13)."""
    table(engine)
    command = RollReaction(hero=HAWK, audience="a cop", extra_dice=-1, justification="ex-cop")
    error = refused(engine, command, errors.DiceOutOfRange)
    assert {"name": HAWK, "dice": -1, "current": 3} == error.data


def test_a_blank_justification_does_not_justify_an_augment(engine: Engine) -> None:
    """AugmentNotJustified: the GM's ruling must say how the Profession helps (TC-A16)."""
    table(engine)
    command = RollReaction(hero=HAWK, audience="a cop", extra_dice=1, justification="  ")
    assert {"name": HAWK} == refused(engine, command, errors.AugmentNotJustified).data
