"""What a ruling does to Exposure and Popularity (ruling.py, R-TC-08, R-TC-12, TC-A12, TC-A24,
TC-A28): each new level reveals a detail, the ladder's suggestion or the GM's choice, by the
reveal policy; an identity revealed is public; both scores stop at 10."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.commands import Command
from domain.errors import DomainError
from domain.events import Event
from domain.lifecycle import EndSession, StartSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.commands import (
    AccomplishObjective,
    Blab,
    CreateHero,
    LowerExposure,
    RollExposure,
    SolveProblem,
)
from domain.rulesets.the_code.ruling import suggestion
from domain.rulesets.the_code.state import evolve
from domain.rulesets.the_code.tables import LADDER, Detail, RevealCause, Scale
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count, refused
from tests.golden.test_the_code import HAWK, MITCH, of, run, sheet, table
from tests.unit.the_code.conftest import lab_in_session, replayed_hawk, revealed_by_blab


def test_the_ladder_suggests_the_next_secret_detail_and_wraps() -> None:
    """Level 10 with the identity public suggests the first secret detail from the top."""
    hero = evolve(revealed_by_blab(Detail.SECRET_IDENTITY, None, 0), replayed_hawk())
    assert hero is not None
    assert Detail.PHYSICAL_DESCRIPTION == suggestion(hero, 10)
    assert Detail.CODE_NAME == suggestion(hero, 3)


def test_a_ladder_rung_already_public_suggests_the_next_secret(engine: Engine) -> None:
    """The code name was blabbed: a major problem from Exposure 1 reveals the description
    (level 2), then, the code name being public, the MO (level 3) and the Objective (level 4)
    (TC-A12)."""
    table(engine, reward_points=100)
    run(engine, Blab(hero=HAWK, details=("code name",), confidant="Lois"))
    command = SolveProblem(hero=HAWK, description="the mob's bank", scale=Scale.MAJOR)
    events = run(engine, command, *[1] * 6)
    assert [
        (2, Detail.PHYSICAL_DESCRIPTION),
        (3, Detail.MODUS_OPERANDI),
        (4, Detail.OBJECTIVE),
    ] == [(r.level, r.detail) for r in of(tc.DetailRevealed, events)]
    assert [False] * 3 == [r.gm_override for r in of(tc.DetailRevealed, events)]


def _all_revealed_events() -> list[Event]:
    created = tc.HeroCreated(
        character_id=uuid4(),
        code_name=HAWK,
        player="dana",
        secret_identity="Mitch",
        public_identity=True,
        physical_description="tall",
        profession="PI",
        advantages=("keen eyes",),
        weakness="bum leg",
        objective="catch criminals",
        objective_score=6,
        modus_operandi="cuffs",
        motivation=3,
        exposure=0,
        popularity=3,
        reward_points=0,
        violent=False,
        secretive=False,
    )
    reveals = [
        tc.DetailRevealed(
            detail=d,
            level=None,
            exposure=0,
            cause=RevealCause.BLAB,
            suggested=None,
            gm_override=False,
            value="x",
            session=1,
            source="TraitBlabbed",
        )
        for d in LADDER
    ]
    return [created, *reveals]


def _hero_with_all_revealed() -> TcHero:
    hero = None
    for event in _all_revealed_events():
        hero = evolve(event, hero)
    assert isinstance(hero, TcHero)
    return hero


def test_nothing_is_left_to_suggest_once_all_is_public() -> None:
    """Every detail public: the ladder has nothing to suggest at any level (TC-A12, TC-A24)."""
    hero = _hero_with_all_revealed()
    assert [None] * 9 == [suggestion(hero, level) for level in range(2, 11)]
    assert () == hero.unrevealed()


def test_high_water_mark_reveals_nothing_below_the_peak(engine: Engine) -> None:
    """By default, regaining a level at or below the peak reveals nothing."""
    table(engine, exposure=3, reward_points=25)
    run(engine, LowerExposure(hero=HAWK))
    events = run(engine, SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR), 1, 1, 1)
    assert [] == of(tc.DetailRevealed, events)


def test_every_increase_reveals_again_after_a_drop(engine: Engine) -> None:
    """revealPolicy=every-increase: 3 -> 2 -> 3 reveals a new detail; the default would not."""
    lab_in_session(engine, revealPolicy="every-increase")
    engine.execute("Lab", CreateHero(**MITCH, exposure=3, reward_points=25))
    run(engine, LowerExposure(hero=HAWK))
    events = run(engine, SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR), 1, 1, 1)
    assert [(Detail.MODUS_OPERANDI, 3)] == [
        (r.detail, r.level) for r in of(tc.DetailRevealed, events)
    ]


def test_more_reveal_choices_than_new_levels_are_refused(engine: Engine) -> None:
    """A minor problem from Exposure 1 reveals one level: two choices are refused (TC-A12)."""
    table(engine, reward_points=25, exposure=1)
    command = SolveProblem(
        hero=HAWK, description="x", scale=Scale.MINOR, reveal=("weakness", "profession")
    )
    assert {"given": 2, "levels": 1} == refused(engine, command, errors.RevealChoiceUnused).data


def test_a_detail_chosen_that_is_public_already_is_refused(engine: Engine) -> None:
    """The Profession was blabbed: the GM cannot choose it for a new level (TC-A12)."""
    table(engine, reward_points=25, exposure=1)
    run(engine, Blab(hero=HAWK, details=("profession",), confidant="Lois"))
    command = SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR, reveal=("profession",))
    error = refused(engine, command, errors.DetailAlreadyPublic, faces=(1,) * 4)
    assert {"name": HAWK, "detail": Detail.PROFESSION} == error.data


@pytest.mark.parametrize(("rule", "public"), [("true", True), ("false", False)])
def test_a_revealed_identity_makes_the_hero_public(engine: Engine, rule: str, public: bool) -> None:
    """Level 10 reveals the secret identity; by default (TC-A28) the identity is public then."""
    lab_in_session(engine, revealedIdentityBecomesPublic=rule)
    engine.execute("Lab", CreateHero(**MITCH, exposure=9, reward_points=25))
    events = run(engine, SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR), *[1] * 4)
    assert [Detail.SECRET_IDENTITY] == [r.detail for r in of(tc.DetailRevealed, events)]
    assert public == sheet(engine).public_identity


def test_the_secret_identity_revealed_on_the_ladder_makes_the_hero_public(engine: Engine) -> None:
    """The GM reveals the secret identity at level 2: IdentityMadePublic follows, and the next
    Exposure gain is +2 (TC-A28)."""
    table(engine, reward_points=25, exposure=1)
    command = SolveProblem(hero=HAWK, description="x", scale=Scale.MINOR, reveal=("identity",))
    events = run(engine, command, 1, 1, 1, 1)
    assert [tc.IdentityMadePublic(session=1)] == of(tc.IdentityMadePublic, events)
    assert sheet(engine).public_identity
    run(engine, RollExposure(hero=HAWK), 2, 1)
    assert 4 == sheet(engine).exposure


def test_exposure_and_popularity_stop_at_ten(engine: Engine) -> None:
    """Exposure 9 + a major problem stops at 10, revealing one level; Popularity stops at 10."""
    table(engine, exposure=9, popularity=9, reward_points=100)
    events = run(engine, SolveProblem(hero=HAWK, description="x", scale=Scale.MAJOR), *[2] * 10)
    assert 1 == len(of(tc.DetailRevealed, events))
    assert (10, 10) == (sheet(engine).exposure, sheet(engine).popularity)


def test_popularity_rolls_once_a_session_by_house_rule(engine: Engine) -> None:
    """popularityRollOncePerSession=true: the second trigger in a session rolls nothing."""
    lab_in_session(engine, popularityRollOncePerSession="true")
    engine.execute("Lab", CreateHero(**MITCH, reward_points=50))
    run(engine, SolveProblem(hero=HAWK, description="a", scale=Scale.MINOR), 1, 1, 1, 1)
    events = run(engine, SolveProblem(hero=HAWK, description="b", scale=Scale.MINOR))
    assert [] == of(tc.PopularityRolled, events)


PLAY = st.lists(
    st.one_of(
        st.tuples(st.just("solve"), st.sampled_from([Scale.MINOR, Scale.GENERAL, Scale.MAJOR])),
        st.tuples(st.just("lower"), st.none()),
        st.tuples(st.just("blab"), st.sampled_from(list(Detail))),
        st.tuples(st.just("objective"), st.none()),
        st.tuples(st.just("session"), st.none()),
    ),
    max_size=12,
)


def _step(engine: Engine, kind: str, arg: Any, faces: list[int]) -> None:
    """Play one step; a refusal must append nothing."""
    commands: dict[str, Command] = {
        "solve": SolveProblem(hero=HAWK, description="trouble", scale=arg),
        "lower": LowerExposure(hero=HAWK),
        "blab": Blab(hero=HAWK, details=(str(arg),), confidant="a friend"),
        "objective": AccomplishObjective(hero=HAWK),
    }
    before = event_count(engine)
    try:
        if kind == "session":
            engine.execute("Lab", RollExposure(hero=HAWK), dice=DiceSpec(seed=len(faces)))
            engine.execute("Lab", EndSession())
            engine.execute("Lab", StartSession())
        else:
            engine.execute("Lab", commands[kind], dice=DiceSpec(seed=sum(faces)))
    except DomainError:
        assert before == event_count(engine)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=PLAY, exposure=st.integers(0, 10), faces=st.lists(st.integers(1, 10), max_size=4))
def test_scores_stay_in_bounds_and_reveals_only_grow(
    steps: list[tuple[str, Any]], exposure: int, faces: list[int]
) -> None:
    """Exposure and Popularity stay in 0..10, Exposure <= peak, each detail is revealed once and
    never at a level of 1 or less, and the public learns ever more."""
    with Engine() as engine:
        table(engine, exposure=exposure, reward_points=300)
        seen: set[Detail] = set()
        for kind, arg in steps:
            _step(engine, kind, arg, faces)
            hero = sheet(engine)
            assert 0 <= hero.exposure <= hero.peak <= 10
            assert 0 <= hero.popularity <= 10
            details = [r.detail for r in hero.revealed]
            assert len(details) == len(set(details))
            assert all(r.level is None or r.level >= 2 for r in hero.revealed)
            assert seen <= set(details)
            seen = set(details)
            ladder = [r for r in hero.revealed if r.level is not None]
            assert len(ladder) <= max(0, hero.peak - 1)
        assert set(LADDER) >= seen
