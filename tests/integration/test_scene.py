"""A whole Code Green scene through the engine on every store, and the state it leaves."""

from __future__ import annotations

from attrs import evolve

from domain.audience import GMS
from domain.dice import Die, PoolMode, Provenance
from domain.events import RulingMade, SceneEnded
from domain.lifecycle import EndScene
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import Assist, CgCharacter, OpenTest
from domain.rulesets.code_green.commands import Adapt, DisplaceToken, SufferStrain
from domain.rulesets.code_green.events import (
    Adapted,
    StrainMarksCleared,
    StrainRolled,
    StrainSuffered,
    TokenDisplaced,
    TokensReturned,
)
from domain.rulesets.code_green.tables import Band, Form, Function, Square
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.integration.scenes import (
    ALICE,
    BOB,
    SCENE_COMMANDS,
    play_scene,
    play_until_rolled,
)

S1_FORMS = (Form.LEGS, Form.TAIL, Form.TEETH)
S1_FUNCTIONS = (Function.CRYPTIC, Function.INVULNERABLE, Function.PHASING)


def fresh(engine: Engine, name: str) -> CgCharacter:
    """The character as created: S1 traits, nothing on the grid."""
    state: CgCharacter = engine.character("Lab", name, audience=GMS)
    player = {ALICE: "alice", BOB: "bob"}[name]
    return CgCharacter(id=state.id, name=name, player=player, form=S1_FORMS, function=S1_FUNCTIONS)


def test_rolled_test_holds_pool_of_own_tokens_and_assist(any_engine: Engine) -> None:
    """Two own tokens in the cross plus bob's die make a pool of 3; 2,5,4 reads 5, mostly human."""
    play_until_rolled(any_engine)
    bob = any_engine.character("Lab", BOB, audience=GMS)
    alice = any_engine.character("Lab", ALICE, audience=GMS)
    roll = any_engine.log("Lab", audience=GMS)[-1]

    expected_test = OpenTest(
        number=1,
        form=Form.LEGS,
        function=Function.INVULNERABLE,
        own_tokens=2,
        assists=(Assist(helper=bob.id, square=Square.R1C2),),
        rolled=True,
    )
    tokens = frozenset({Square.R1C1, Square.R2C2, Square.R3C3})
    expected_alice = evolve(
        fresh(any_engine, ALICE), tokens=tokens, placed=True, test=expected_test, tests=1
    )
    expected_roll = cg.TestRolled(
        test=1, pool=3, mode=PoolMode.HIGHEST, dice=(2, 5, 4), result=5, band=Band.MOSTLY_HUMAN
    )

    assert expected_alice == alice
    assert [expected_roll] == [r.event for r in roll.events]
    assert (Die(6, 2), Die(6, 5), Die(6, 4)) == roll.ruling.dice
    assert Provenance.PHYSICAL == roll.ruling.provenance


def test_strain_on_a_token_square_makes_the_token_move(any_engine: Engine) -> None:
    """Strain d66 35 strikes R2C2 under a token: the square is marked and the token must move."""
    play_until_rolled(any_engine)

    result = any_engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))
    alice = any_engine.character("Lab", ALICE, audience=GMS)

    assert [
        StrainRolled(test=1, d66=35, square=Square.R2C2),
        StrainSuffered(square=Square.R2C2, marks=1),
    ] == list(result.events)
    assert (frozenset({Square.R2C2}), Square.R2C2, 1) == (
        alice.marks,
        alice.displacement,
        alice.test.strains,
    )


def test_displacement_then_adaptation_move_the_tokens(any_engine: Engine) -> None:
    """The struck token goes to R1C3, then adapting moves R1C1 to R2C1 and closes the test."""
    play_until_rolled(any_engine)
    any_engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))

    displaced = any_engine.execute("Lab", DisplaceToken(character=ALICE, destination="R1C3"))
    adapted = any_engine.execute("Lab", Adapt(character=ALICE, source="R1C1", destination="R2C1"))
    alice = any_engine.character("Lab", ALICE, audience=GMS)

    expected_alice = evolve(
        fresh(any_engine, ALICE),
        tokens=frozenset({Square.R1C3, Square.R2C1, Square.R3C3}),
        marks=frozenset({Square.R2C2}),
        placed=True,
        tests=1,
    )
    assert (TokenDisplaced(source=Square.R2C2, destination=Square.R1C3),) == displaced.events
    assert (Adapted(test=1, source=Square.R1C1, destination=Square.R2C1),) == adapted.events
    assert expected_alice == alice


def test_scene_end_clears_marks_and_returns_tokens(any_engine: Engine) -> None:
    """Ending the scene clears alice's mark and returns both characters' tokens to hand."""
    play_until_rolled(any_engine)
    any_engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))
    any_engine.execute("Lab", DisplaceToken(character=ALICE, destination="R1C3"))
    any_engine.execute("Lab", Adapt(character=ALICE, source="R1C1", destination="R2C1"))

    result = any_engine.execute("Lab", EndScene())

    assert (
        SceneEnded(number=1),
        StrainMarksCleared(squares=(Square.R2C2,)),
        TokensReturned(squares=(Square.R1C3, Square.R2C1, Square.R3C3)),
        TokensReturned(squares=(Square.R1C2, Square.R2C1, Square.R3C3)),
    ) == result.events


def test_full_scene_leaves_both_characters_back_in_hand(any_engine: Engine) -> None:
    """After the scene both characters are as created, except that alice has made one test."""
    play_scene(any_engine)

    expected = [evolve(fresh(any_engine, ALICE), tests=1), fresh(any_engine, BOB)]

    assert expected == any_engine.characters("Lab", audience=GMS)


def test_full_scene_leaves_the_campaign_between_scenes(any_engine: Engine) -> None:
    """The campaign counts 14 rulings, session 1 still running, scene 1 over, two on the roster."""
    play_scene(any_engine)
    campaign = any_engine.campaign("Lab")

    roster = [(e.name, e.player) for e in campaign.roster]

    assert (14, 1, 1, None, 1, "") == (
        campaign.rulings,
        campaign.session,
        campaign.sessions,
        campaign.scene,
        campaign.scenes,
        campaign.stage,
    )
    assert [(ALICE, "alice"), (BOB, "bob")] == roster
    assert frozenset() == campaign.retracted


def test_full_scene_logs_one_ruling_per_command(any_engine: Engine) -> None:
    """The log lists rulings 1..14 in order with the command each one resolved."""
    play_scene(any_engine)

    logged = [
        (e.ruling.number, e.ruling.command, e.retraction)
        for e in any_engine.log("Lab", audience=GMS)
    ]

    assert [(n, c, None) for n, c in enumerate(SCENE_COMMANDS, start=1)] == logged


def test_records_carry_the_session_and_scene_they_happened_in(any_engine: Engine) -> None:
    """Every record after scene 1 began, the scene's end included, carries session 1, scene 1."""
    play_scene(any_engine)

    envelopes = {
        (r.session, r.scene)
        for entry in any_engine.log("Lab", audience=GMS)[2:]
        for r in (entry.header, *entry.events)
    }

    assert {(1, 1)} == envelopes


def test_each_ruling_closes_with_its_header_on_the_campaign_stream(any_engine: Engine) -> None:
    """The campaign stream's last event of each ruling is its RulingMade, numbered in order."""
    play_scene(any_engine)
    campaign = any_engine.campaign("Lab")

    headers = [
        r.event.number
        for r in any_engine.streams.records(campaign.id)
        if isinstance(r.event, RulingMade)
    ]
    rulings = [r.ruling for r in any_engine.streams.records(campaign.id)]

    assert list(range(1, 15)) == headers
    assert sorted(rulings) == rulings
