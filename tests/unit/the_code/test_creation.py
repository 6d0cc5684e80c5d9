"""Heroes and NPCs created (creation.py, R-TC-01, TC-A19..21): every detail the Exposure ladder
can reveal, the starting scores, and what a hero starting exposed or public has revealed."""

from __future__ import annotations

import attrs
import pytest

from domain.errors import DomainError
from domain.events import Event
from domain.lifecycle import StartSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import CreateHero, CreateNpc
from domain.rulesets.the_code.tables import Detail, RevealCause
from engine import Engine
from tests.conftest import refused
from tests.golden.test_the_code import HAWK, MITCH, of, run, sheet, table


def _create(engine: Engine, **fields: object) -> tuple[Event, ...]:
    engine.create_campaign("Lab", "the-code")
    engine.execute("Lab", StartSession())
    return run(engine, CreateHero(**{**MITCH, **fields}))


def test_a_hero_is_created_with_every_detail_trimmed(engine: Engine) -> None:
    """HeroCreated: the details as given (trimmed, blank Advantages dropped), Motivation full at
    half the Objective (7 -> 3), the starting scores (R-TC-01, TC-A7, TC-A19)."""
    events = _create(
        engine,
        player=" dana ",
        code_name=" The Hawk ",
        secret_identity=" Mitch ",
        physical_description=" tall ",
        profession=" PI ",
        advantages=(" keen eyes ", " ", "contacts"),
        weakness=" bum leg ",
        objective=" catch criminals ",
        objective_score=7,
        modus_operandi=" cuffs ",
        exposure=1,
        popularity=4,
        reward_points=12,
        violent=True,
        secretive=True,
    )
    created = of(tc.HeroCreated, events)[0]
    assert (
        attrs.evolve(
            created,
            code_name="The Hawk",
            player="dana",
            secret_identity="Mitch",
            public_identity=False,
            physical_description="tall",
            profession="PI",
            advantages=("keen eyes", "contacts"),
            weakness="bum leg",
            objective="catch criminals",
            objective_score=7,
            modus_operandi="cuffs",
            motivation=3,
            exposure=1,
            popularity=4,
            reward_points=12,
            violent=True,
            secretive=True,
        )
        == created
    )
    assert [] == of(tc.DetailRevealed, events)
    hawk = sheet(engine)
    assert (3, 3, 1, 1, 4, 12) == (
        hawk.motivation,
        hawk.max_motivation,
        hawk.exposure,
        hawk.peak,
        hawk.popularity,
        hawk.reward_points,
    )


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        pytest.param("code_name", " ", "a code name", id="code-name"),
        pytest.param("player", "", "a player", id="player"),
        pytest.param("secret_identity", " ", "a secret identity (a real name)", id="identity"),
        pytest.param("physical_description", "", "a physical description", id="description"),
        pytest.param("profession", " ", "a Profession", id="profession"),
        pytest.param("advantages", (" ",), "at least one Advantage", id="advantages"),
        pytest.param("weakness", "", "a Weakness", id="weakness"),
        pytest.param("objective", " ", "an Objective", id="objective"),
        pytest.param("modus_operandi", "", "a Modus Operandi (MO)", id="mo"),
    ],
)
def test_a_missing_detail_is_named(engine: Engine, field: str, value: object, named: str) -> None:
    """Every detail the Exposure ladder can reveal is required (R-TC-01 MissingField)."""
    engine.create_campaign("Lab", "the-code")
    error = refused(engine, CreateHero(**{**MITCH, field: value}), errors.MissingHeroField)
    assert {"field": named} == error.data


@pytest.mark.parametrize(
    ("fields", "error", "data"),
    [
        pytest.param({"objective_score": 0}, errors.ObjectiveScoreOutOfRange, {"score": 0}, id="0"),
        pytest.param(
            {"objective_score": 11}, errors.ObjectiveScoreOutOfRange, {"score": 11}, id="11"
        ),
        pytest.param(
            {"exposure": -1}, errors.ScoreOutOfRange, {"what": "Exposure", "value": -1}, id="e-1"
        ),
        pytest.param(
            {"popularity": 11},
            errors.ScoreOutOfRange,
            {"what": "Popularity", "value": 11},
            id="p11",
        ),
        pytest.param(
            {"popularity": -1},
            errors.ScoreOutOfRange,
            {"what": "Popularity", "value": -1},
            id="p-1",
        ),
        pytest.param({"reward_points": -1}, errors.NegativeRewardPoints, {"value": -1}, id="rp"),
    ],
)
def test_starting_scores_out_of_range_are_refused(
    engine: Engine, fields: dict[str, int], error: type[DomainError], data: dict[str, object]
) -> None:
    """Objective 1..10, Exposure and Popularity 0..10, Reward Points 0 or more (R-TC-01,
    TC-A7, TC-A24)."""
    engine.create_campaign("Lab", "the-code")
    assert data == refused(engine, CreateHero(**{**MITCH, **fields}), error).data


@pytest.mark.parametrize(
    ("fields", "motivation"),
    [
        pytest.param({"objective_score": 1, "popularity": 0, "exposure": 0}, 0, id="lowest"),
        pytest.param({"objective_score": 10, "popularity": 10, "exposure": 10}, 5, id="highest"),
    ],
)
def test_the_edges_of_each_range_are_accepted(
    engine: Engine, fields: dict[str, int], motivation: int
) -> None:
    """Objective 1 and 10, Exposure and Popularity 0 and 10 are all valid (R-TC-01)."""
    _create(engine, **fields)
    assert motivation == sheet(engine).max_motivation


def test_a_public_identity_is_public_from_creation(engine: Engine) -> None:
    """A public identity reveals the secret identity at once, outside the ladder; the hero is
    public already, so no IdentityMadePublic follows (TC-A21)."""
    events = _create(engine, public_identity=True)
    assert [
        tc.DetailRevealed(
            detail=Detail.SECRET_IDENTITY,
            level=None,
            exposure=0,
            cause=RevealCause.PUBLIC_IDENTITY,
            suggested=None,
            gm_override=False,
            value="Mitch",
            session=1,
            source="HeroCreated",
        )
    ] == of(tc.DetailRevealed, events)
    assert [] == of(tc.IdentityMadePublic, events)


def test_a_hero_starting_exposed_has_each_level_revealed(engine: Engine) -> None:
    """Exposure 3 at creation: level 2 is the GM's choice (the Weakness, overriding the ladder's
    description), level 3 the ladder's code name (R-TC-01, TC-X3)."""
    events = _create(engine, exposure=3, reveal=("weakness",))
    assert [
        (2, Detail.WEAKNESS, Detail.PHYSICAL_DESCRIPTION, True, "bum leg"),
        (3, Detail.CODE_NAME, Detail.CODE_NAME, False, HAWK),
    ] == [
        (r.level, r.detail, r.suggested, r.gm_override, r.value)
        for r in of(tc.DetailRevealed, events)
    ]
    assert {RevealCause.CREATION} == {r.cause for r in of(tc.DetailRevealed, events)}
    assert {"HeroCreated"} == {r.source for r in of(tc.DetailRevealed, events)}


def test_more_reveal_choices_than_levels_are_refused(engine: Engine) -> None:
    """Exposure 2 reveals one detail: two choices are refused, naming both counts."""
    engine.create_campaign("Lab", "the-code")
    command = CreateHero(**{**MITCH, "exposure": 2, "reveal": ("weakness", "profession")})
    assert {"given": 2, "levels": 1} == refused(engine, command, errors.RevealChoiceUnused).data


def test_an_npc_name_already_taken_names_the_rule(engine: Engine) -> None:
    """An NPC cannot take a hero's name: HeroNameTaken under the NPCs rule (DIGEST 4.1)."""
    table(engine)
    error = refused(engine, CreateNpc(character=f" {HAWK} "), errors.HeroNameTaken)
    assert f"'{HAWK}' is already a character's name in this campaign (NPCs)" == error.reason


def test_an_npc_may_have_a_motivation_score_of_zero(engine: Engine) -> None:
    """Motivation 0 is a score (an exhausted villain), not "no Motivation score" (DIGEST 4.1)."""
    table(engine)
    run(engine, CreateNpc(character="Mister Grin", motivation=0))
    grin = sheet(engine, "Mister Grin")
    assert (True, 0, 0) == (grin.has_motivation, grin.motivation, grin.max_motivation)
