"""Every generated bad Code Green command is refused with a coded reason and appends nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from domain.commands import Command
from domain.errors import DomainError
from domain.lifecycle import EndScene, EndSession, StartScene, StartSession
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    CreateCharacter,
    DeclareTest,
    DisplaceToken,
    PlaceTokens,
    Recover,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.tables import Form, Function, Square
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import S1_FORM, S1_FUNCTION, event_count

ALICE, BOB = "31415", "26535"
ALICE_DICE, BOB_DICE = (3, 1, 4, 1, 5), (2, 6, 5, 3, 5)
SQUARES = [s.value for s in Square]

# What each prepared campaign looks like (all S1 characters; alice 31415, bob 26535):
IDLE = "Idle"  # session 1 running, no scene; alice created
FRESH = "Fresh"  # scene running; alice not placed; bob on R1C1 R2C2 R3C3
DECLARED = "Declared"  # both on R1C1 R2C2 R3C3; bob declared Legs × Invulnerable (pool 2)
ROLLED = "Rolled"  # alice on R1C1 R2C2 R3C3 rolled 2,5; strain struck R1C2 (limit 1 reached)
ALICE_TOKENS = ("R1C1", "R2C2", "R3C3")


def run(engine: Engine, campaign: str, command: Command, faces: tuple[int, ...] = ()) -> None:
    engine.execute(campaign, command, dice=DiceSpec(faces=faces))


def character(engine: Engine, campaign: str, player: str, faces: tuple[int, ...]) -> None:
    run(engine, campaign, CreateCharacter(player=player, form=S1_FORM, function=S1_FUNCTION), faces)


def in_scene(engine: Engine, campaign: str) -> None:
    engine.create_campaign(campaign, "code-green")
    run(engine, campaign, StartSession())
    run(engine, campaign, StartScene(stage="The lab wakes up"))
    character(engine, campaign, "alice", ALICE_DICE)
    character(engine, campaign, "bob", BOB_DICE)


@pytest.fixture(scope="module")
def prepared() -> Iterator[Engine]:
    """One store with a campaign in each situation the bad commands are tried against."""
    with Engine() as engine:
        engine.create_campaign(IDLE, "code-green")
        run(engine, IDLE, StartSession())
        character(engine, IDLE, "alice", ALICE_DICE)

        in_scene(engine, FRESH)
        run(engine, FRESH, PlaceTokens(character=BOB, squares=ALICE_TOKENS))

        in_scene(engine, DECLARED)
        run(engine, DECLARED, PlaceTokens(character=ALICE, squares=ALICE_TOKENS))
        run(engine, DECLARED, PlaceTokens(character=BOB, squares=ALICE_TOKENS))
        run(engine, DECLARED, DeclareTest(character=BOB, form="Legs", function="Invulnerable"))

        in_scene(engine, ROLLED)
        run(engine, ROLLED, PlaceTokens(character=ALICE, squares=ALICE_TOKENS))
        run(
            engine,
            ROLLED,
            DeclareTest(character=ALICE, form="Legs", function="Invulnerable", roll=True),
            (2, 5),
        )
        run(engine, ROLLED, SufferStrain(character=ALICE), (1, 5))  # d66 15 -> R1C2, no token there
        yield engine


# --- Strategies: (campaign, command, faces, acceptable codes) ---------------------------------

Case = tuple[str, Command, tuple[int, ...], frozenset[str]]

square = st.sampled_from(SQUARES)
valid_face = st.integers(1, 6)
bad_face = st.integers().filter(lambda f: not 1 <= f <= 6)
# Texts that cannot name a trait, a square or 'roll': digits, punctuation and three letters.
junk = st.text(alphabet="0123456789!?#@ qzk", max_size=8)
bad_square = junk | st.sampled_from(
    ["R0C1", "R4C4", "R1C", "C1R1", "R1C1R2C2", "Wings/Cryptic", "Legs/Legs", "Cryptic Phasing"]
)
bad_trait = junk | st.sampled_from(["Legz", "Wingss", "Hooves", "rol", "Legs Tail"])
stranger = st.text(alphabet="abcxyz0789 ", min_size=1, max_size=8)  # never alice/bob/a name


NO_FACES = st.just(())


def case(campaign: str, command: Any, *codes: str, faces: Any = NO_FACES) -> Any:
    return st.tuples(st.just(campaign), command, faces, st.just(frozenset(codes)))


def with_one(valid: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> Any:
    """A sequence from ``valid`` as a tuple, one item replaced by ``bad`` at a drawn position."""

    def replace(items: Any) -> Any:
        return st.tuples(st.integers(0, len(items) - 1), bad).map(
            lambda pos_bad: (*items[: pos_bad[0]], pos_bad[1], *items[pos_bad[0] + 1 :])
        )

    return valid.flatmap(replace)


three_forms = st.permutations(list(Form)).map(lambda p: tuple(f.value for f in p[:3]))
three_functions = st.permutations(list(Function)).map(lambda p: tuple(f.value for f in p[:3]))
three_squares = st.permutations(SQUARES).map(lambda p: tuple(p[:3]))

no_scene = case(
    IDLE,
    st.one_of(
        st.builds(
            DeclareTest,
            character=st.just(ALICE),
            form=st.sampled_from(S1_FORM),
            function=st.sampled_from(S1_FUNCTION),
        ),
        st.builds(PlaceTokens, character=st.just(ALICE), squares=three_squares),
        st.builds(RollTest, character=st.none() | st.just(ALICE)),
        st.builds(
            AssistTest, helper=st.just(ALICE), square=square, justification=st.just("because")
        ),
        st.builds(SufferStrain, character=st.just(ALICE)),
        st.just(EndScene()),
    ),
    "SCENE_NOT_ACTIVE",
)
unknown_traits = st.one_of(
    case(
        FRESH,
        st.builds(
            CreateCharacter,
            player=st.just("carol"),
            form=with_one(three_forms, bad_trait),
            function=three_functions,
        ),
        "UNKNOWN_TRAIT",
    ),
    case(
        FRESH,
        st.builds(
            CreateCharacter,
            player=st.just("carol"),
            form=three_forms,
            function=with_one(three_functions, bad_trait),
        ),
        "UNKNOWN_TRAIT",
    ),
    case(
        FRESH,
        st.builds(
            CreateCharacter,
            player=st.just("carol"),
            form=st.lists(st.sampled_from(list(Form)), max_size=6)
            .filter(lambda f: len(f) != 3)
            .map(tuple),
            function=three_functions,
        ),
        "TRAIT_COUNT_INVALID",
        "DUPLICATE_TRAIT",
    ),
    case(
        FRESH,
        st.builds(
            CreateCharacter,
            player=st.just("carol"),
            form=st.sampled_from(list(Form)).map(lambda f: (f.value, "roll", f.value.upper())),
            function=three_functions,
        ),
        "DUPLICATE_TRAIT",
    ),
    case(
        FRESH,
        st.builds(
            CreateCharacter,
            player=st.sampled_from(["", " ", "\t"]),
            form=three_forms,
            function=three_functions,
        ),
        "EMPTY_TEXT",
    ),
)
bad_squares = st.one_of(
    case(
        FRESH,
        st.builds(
            PlaceTokens, character=st.just(ALICE), squares=with_one(three_squares, bad_square)
        ),
        "UNKNOWN_SQUARE",
    ),
    case(
        FRESH,
        st.builds(
            PlaceTokens,
            character=st.just(ALICE),
            squares=st.lists(square, max_size=6).filter(lambda s: len(s) != 3).map(tuple),
        ),
        "NOT_THREE_TOKENS",
    ),
    case(
        FRESH,
        st.builds(
            PlaceTokens,
            character=st.just(ALICE),
            squares=square.map(lambda s: (s, "roll", s.lower())),
        ),
        "DUPLICATE_SQUARE",
    ),
    case(
        FRESH,
        st.builds(PlaceTokens, character=st.just(BOB), squares=three_squares),
        "TOKENS_ALREADY_PLACED",
    ),
    case(
        ROLLED,
        st.builds(DisplaceToken, character=st.just(ALICE), destination=bad_square),
        "NO_DISPLACEMENT_PENDING",
    ),
)
bad_faces = st.one_of(
    case(
        FRESH,
        st.just(CreateCharacter(player="carol", form=S1_FORM, function=S1_FUNCTION)),
        "INVALID_DIE_FACE",
        faces=with_one(st.lists(valid_face, min_size=5, max_size=5), bad_face),
    ),
    case(
        FRESH,
        st.just(CreateCharacter(player="carol", form=S1_FORM, function=S1_FUNCTION)),
        "NOT_ENOUGH_DICE",
        faces=st.lists(valid_face, max_size=4).map(tuple),
    ),
    case(
        FRESH,
        st.just(CreateCharacter(player="carol", form=S1_FORM, function=S1_FUNCTION)),
        "TOO_MANY_DICE",
        "NAME_TAKEN",  # when the first five faces spell alice's or bob's name
        faces=st.lists(valid_face, min_size=6, max_size=12).map(tuple),
    ),
    case(
        DECLARED,
        st.builds(RollTest, character=st.none() | st.just(BOB)),
        "INVALID_DIE_FACE",
        faces=with_one(st.lists(valid_face, min_size=2, max_size=2), bad_face),
    ),
    case(
        FRESH,
        st.just(PlaceTokens(character=ALICE, squares=("roll", "roll", "roll"))),
        "INVALID_DIE_FACE",
        faces=st.tuples(bad_face, valid_face),
    ),
)
wrong_order = st.one_of(
    case(
        FRESH,
        st.builds(
            Adapt, character=st.sampled_from([ALICE, BOB]), source=square, destination=square
        ),
        "NO_PENDING_ADAPTATION",
    ),
    case(
        DECLARED,
        st.builds(Adapt, character=st.just(BOB), source=square, destination=square),
        "NO_PENDING_ADAPTATION",
    ),
    case(FRESH, st.builds(RollTest, character=st.none() | st.just(BOB)), "NO_OPEN_TEST"),
    case(
        FRESH,
        st.builds(AssistTest, helper=st.just(BOB), square=square, justification=st.just("because")),
        "NO_OPEN_TEST",
    ),
    case(
        FRESH,
        st.builds(SufferStrain, character=st.just(BOB), destination=st.none() | square),
        "NO_TEST_FOR_STRAIN",
    ),
    case(
        FRESH,
        st.builds(DisplaceToken, character=st.just(BOB), destination=square),
        "NO_DISPLACEMENT_PENDING",
    ),
    case(
        FRESH,
        st.builds(
            DeclareTest,
            character=st.just(ALICE),
            form=st.sampled_from(S1_FORM),
            function=st.sampled_from(S1_FUNCTION),
        ),
        "TOKENS_NOT_PLACED",
    ),
    case(FRESH, st.builds(Recover, character=st.sampled_from([ALICE, BOB])), "NOT_INCAPACITATED"),
    case(
        DECLARED,
        st.builds(
            DeclareTest,
            character=st.just(ALICE),
            form=st.sampled_from(S1_FORM),
            function=st.sampled_from(S1_FUNCTION),
        ),
        "ANOTHER_TEST_OPEN",
    ),
    case(
        DECLARED,
        st.builds(AssistTest, helper=st.just(BOB), square=square, justification=st.just("because")),
        "CANNOT_ASSIST_OWN_TEST",
    ),
    case(
        DECLARED,
        st.builds(
            AssistTest,
            helper=st.just(ALICE),
            square=st.sampled_from(["R1C2", "R1C3", "R2C1"]),
            justification=st.just("because"),
        ),
        "NO_TOKEN_ON_SQUARE",
    ),
    case(
        DECLARED,
        st.sampled_from([EndScene(), EndSession(), StartScene(stage="again"), StartSession()]),
        "TEST_UNRESOLVED",
        "SCENE_STILL_ACTIVE",
        "SCENE_ALREADY_ACTIVE",
        "SESSION_ALREADY_ACTIVE",
    ),
    case(ROLLED, st.builds(RollTest, character=st.just(ALICE)), "TEST_ALREADY_ROLLED"),
    case(
        ROLLED,
        st.builds(
            DeclareTest,
            character=st.just(ALICE),
            form=st.sampled_from(S1_FORM),
            function=st.sampled_from(S1_FUNCTION),
        ),
        "ADAPTATION_PENDING",
    ),
    case(ROLLED, st.builds(SufferStrain, character=st.just(ALICE)), "STRAIN_LIMIT_REACHED"),
    case(ROLLED, st.just(Adapt(character=ALICE)), "ADAPTATION_CHOICE_REQUIRED"),
    case(
        ROLLED,
        st.builds(
            Adapt,
            character=st.just(ALICE),
            source=st.sampled_from(ALICE_TOKENS),
            destination=st.just("R1C2"),
        ),
        "DESTINATION_MARKED",
    ),
    case(
        ROLLED,
        st.sampled_from(ALICE_TOKENS).map(
            lambda s: Adapt(character=ALICE, source=s, destination=s)
        ),
        "MUST_MOVE_TO_DIFFERENT_SQUARE",
    ),
    case(
        ROLLED,
        st.builds(
            Adapt,
            character=st.just(ALICE),
            source=st.sampled_from(["R1C3", "R2C1", "R2C3", "R3C1", "R3C2"]),
            destination=square,
        ),
        "NO_TOKEN_AT_SOURCE",
    ),
    case(
        ROLLED,
        st.permutations(ALICE_TOKENS).map(
            lambda p: Adapt(character=ALICE, source=p[0], destination=p[1])
        ),
        "DESTINATION_OCCUPIED",
    ),
    case(
        ROLLED,
        st.builds(Adapt, character=st.just(ALICE), source=bad_square, destination=square),
        "UNKNOWN_SQUARE",
    ),
)
unknown_characters = case(
    FRESH,
    st.one_of(
        st.builds(
            DeclareTest,
            character=stranger,
            form=st.sampled_from(S1_FORM),
            function=st.sampled_from(S1_FUNCTION),
        ),
        st.builds(PlaceTokens, character=stranger, squares=three_squares),
        st.builds(RollTest, character=stranger),
        st.builds(SufferStrain, character=stranger),
        st.builds(DisplaceToken, character=stranger, destination=square),
        st.builds(Adapt, character=stranger, source=square, destination=square),
        st.builds(Recover, character=stranger),
    ),
    "UNKNOWN_CHARACTER",
)
bad_commands = st.one_of(
    no_scene, unknown_traits, bad_squares, bad_faces, wrong_order, unknown_characters
)


@settings(max_examples=300, deadline=None)
@given(bad=bad_commands)
def test_every_bad_command_is_refused_and_appends_nothing(prepared: Engine, bad: Case) -> None:
    """A bad command raises a DomainError with its code and a reason, and appends nothing."""
    campaign, command, faces, codes = bad
    before = event_count(prepared)

    with pytest.raises(DomainError) as refused:
        run(prepared, campaign, command, faces)

    event(refused.value.code)
    assert re.fullmatch(r"[A-Z]+(_[A-Z]+)*", refused.value.code)
    assert refused.value.reason.strip()
    assert refused.value.code in codes
    assert before == event_count(prepared)
