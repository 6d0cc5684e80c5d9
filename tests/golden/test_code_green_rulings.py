"""Golden tests for the Code Green rulings of issue 18, through the in-memory engine: the scene's
one open test (R-CG-03 ``AnotherTestOpen``), a character's new name (§1.1 ``CharacterRenamed``),
the GM ruling an assist's pair out (R-CG-04 ``AssistNotApplicable``), a most foolhardy effort's
extra strain (CG-A9), and the d66 checks replay holds a log to (R-CG-01 ``InvalidD66``,
``RolledTraitMismatch``). Every refusal proves that nothing was appended (``refused``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.audience import GMS
from domain.errors import DomainError, NameTaken, NotAllowed, UnknownCharacter
from domain.events import Event, RosterRenamed
from domain.rulesets.code_green import errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter, OpenTest
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    DeclareTest,
    DisplaceToken,
    RejectAssist,
    RenameCharacter,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import Form, Function, Square, Table
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import add_s1_character, place, refused, scene_with_s1

BOB_DICE = (2, 6, 5, 3, 5)
BOB = "26535"


def _character(engine: Engine, who: str) -> CgCharacter:
    state: CgCharacter = engine.character("Lab", who, audience=GMS)
    return state


def _two_placed(engine: Engine) -> str:
    """Alice's S1 character (31415) and Bob's (26535), both with tokens R1C1, R2C2, R3C3."""
    alice = scene_with_s1(engine)
    add_s1_character(engine, "bob", BOB_DICE)
    place(engine, alice, "R1C1", "R2C2", "R3C3")
    place(engine, BOB, "R1C1", "R2C2", "R3C3")
    return alice


# --- R-CG-03: one test open in the scene at a time ----------------------------------------------


def _declared(engine: Engine, who: str) -> None:
    engine.execute("Lab", DeclareTest(character=who, form="Legs", function="Invulnerable"))


def _rolled(engine: Engine, who: str) -> None:
    _declared(engine, who)
    engine.execute("Lab", RollTest(character=who), dice=DiceSpec(faces=(2, 5)))


def _struck(engine: Engine, who: str) -> None:
    _rolled(engine, who)  # d66 13 strikes R1C1, which holds a token: it must move
    engine.execute("Lab", SufferStrain(character=who), dice=DiceSpec(faces=(1, 3)))


@pytest.mark.parametrize(
    ("stage", "what"),
    [
        pytest.param(_declared, "not rolled yet", id="R-CG-03-another-test-open-not-rolled"),
        pytest.param(_rolled, "awaiting adaptation", id="R-CG-03-another-test-open-not-adapted"),
        pytest.param(
            _struck,
            "the token strain struck on R1C1 must move",
            id="R-CG-03-another-test-open-strain-unresolved",
        ),
    ],
)
def test_another_character_cannot_declare_while_a_test_is_open(
    engine: Engine, stage: Callable[[Engine, str], None], what: str
) -> None:
    """A test stays open from its declaration until it is rolled, its strain resolved and its
    adaptation made: nobody else may declare one meanwhile (DIGEST §1.1 ``openTest``)."""
    alice = _two_placed(engine)
    stage(engine, alice)
    error = refused(
        engine, DeclareTest(character=BOB, form="Tail", function="Cryptic"), errors.AnotherTestOpen
    )
    assert {"name": alice, "test": 1, "what": what} == error.data


def test_the_next_test_may_be_declared_once_the_open_one_is_adapted(engine: Engine) -> None:
    """Once the struck token has moved and the tester adapted, the scene has no open test and
    another character may declare one."""
    alice = _two_placed(engine)
    _struck(engine, alice)
    engine.execute("Lab", DisplaceToken(character=alice, destination="R1C2"))
    refused(
        engine, DeclareTest(character=BOB, form="Tail", function="Cryptic"), errors.AnotherTestOpen
    )  # displaced, not adapted yet
    engine.execute("Lab", Adapt(character=alice, source="R2C2", destination="R2C1"))
    (declared,) = engine.execute(
        "Lab", DeclareTest(character=BOB, form="Tail", function="Cryptic")
    ).events
    assert isinstance(declared, cg.TestDeclared)
    assert (1, Form.TAIL, Function.CRYPTIC) == (declared.test, declared.form, declared.function)


# --- §1.1 CharacterRenamed: the five digits are only the first name --------------------------


def test_a_character_takes_a_new_name(engine: Engine) -> None:
    """Renaming records CharacterRenamed on the character and RosterRenamed on the roster: the
    character is found by its new name (or its player), no longer by its digits ([CG:L29])."""
    alice = _two_placed(engine)
    c = _character(engine, alice)
    result = engine.execute("Lab", RenameCharacter(character="alice", new_name=" Hush "))
    expected = (
        cg.CharacterRenamed(previous="31415", name="Hush"),
        RosterRenamed(character_id=c.id, name="Hush"),
    )
    assert expected == result.events
    assert (c.id, "Hush") == (_character(engine, "Hush").id, _character(engine, "alice").name)
    with pytest.raises(UnknownCharacter):
        engine.character("Lab", alice, audience=GMS)
    engine.execute("Lab", DeclareTest(character="Hush", form="Legs", function="Invulnerable"))


def test_a_renamed_character_keeps_its_old_name_in_the_log(engine: Engine) -> None:
    """Events recorded before the rename keep the name the character had then."""
    alice = _two_placed(engine)
    _declared(engine, alice)
    received, given = engine.execute(
        "Lab", AssistTest(helper=BOB, square="R1C1", justification="it runs alongside")
    ).events
    engine.execute("Lab", RenameCharacter(character=BOB, new_name="Ash"))
    assert isinstance(received, cg.AssistanceReceived)
    assert isinstance(given, cg.AssistanceGiven)
    assert (BOB, alice) == (received.helper_name, given.tester_name)
    assert "Ash" == _character(engine, "bob").name


@pytest.mark.parametrize(
    ("new_name", "error"),
    [
        pytest.param("  ", "EMPTY_TEXT", id="R-CG-01-rename-empty"),
        pytest.param("31415", "NAME_UNCHANGED", id="R-CG-01-rename-same-name"),
        pytest.param("26535", "NAME_TAKEN", id="R-CG-01-rename-taken"),
        pytest.param("bob", "NAME_IS_A_PLAYER", id="R-CG-01-rename-a-players-name"),
        pytest.param("x" * 81, "INVALID_CHARACTER_NAME", id="R-CG-01-rename-too-long"),
        pytest.param("Hu\x1bsh", "INVALID_CHARACTER_NAME", id="R-CG-01-rename-unprintable"),
    ],
)
def test_a_new_name_is_checked(engine: Engine, new_name: str, error: str) -> None:
    """A new name is printable, 1 to 80 characters, not the old one, nobody else's on the
    roster and no player's at the table (characters are found by name or player)."""
    _two_placed(engine)
    raised = refused(engine, RenameCharacter(character="alice", new_name=new_name), DomainError)
    assert error == raised.code


def test_a_taken_name_is_refused_whatever_its_case(engine: Engine) -> None:
    """Two characters never share a name, even in different case."""
    _two_placed(engine)
    engine.execute("Lab", RenameCharacter(character="alice", new_name="Hush"))
    refused(engine, RenameCharacter(character="bob", new_name="hush"), NameTaken)


def test_a_player_renames_only_their_own_character(engine: Engine) -> None:
    """A player may rename the character they play; another's is the GM's or its player's."""
    _two_placed(engine)
    before = _character(engine, "bob").name
    with pytest.raises(NotAllowed):
        engine.execute("Lab", RenameCharacter(character="alice", new_name="Ash"), actor="bob")
    engine.execute("Lab", RenameCharacter(character="bob", new_name="Ash"), actor="bob")
    assert (before, "Ash") == (BOB, _character(engine, "bob").name)


def test_undoing_a_rename_gives_the_old_name_back(engine: Engine) -> None:
    """Undo means as if it never happened: the roster and the sheet have the digits again."""
    alice = _two_placed(engine)
    engine.execute("Lab", RenameCharacter(character="alice", new_name="Hush"))
    engine.undo("Lab", reason="it keeps its digits")
    assert alice == _character(engine, "alice").name
    assert alice == engine.campaign("Lab").find("alice").name


# --- R-CG-04: the GM rules an assist not applicable -----------------------------------------


def _assisted(engine: Engine) -> str:
    """Alice declared Invulnerable Legs (2 own tokens); Bob assisted with Cryptic Legs (R1C1)."""
    alice = _two_placed(engine)
    _declared(engine, alice)
    engine.execute("Lab", AssistTest(helper=BOB, square="R1C1", justification="legs run"))
    return alice


def test_the_gm_rules_an_assist_out(engine: Engine) -> None:
    """The GM's ruling takes the helper's die back: the pool is the tester's own tokens again."""
    alice = _assisted(engine)
    bob = _character(engine, BOB)
    assert 3 == _test_of(engine, alice).pool
    result = engine.execute("Lab", RejectAssist(helper="bob", reason="running is no use here"))
    expected = cg.AssistanceRejected(
        test=1,
        helper=bob.id,
        helper_name=BOB,
        square=Square.R1C1,
        form=Form.LEGS,
        function=Function.CRYPTIC,
        reason="running is no use here",
    )
    assert (expected,) == result.events
    assert 2 == _test_of(engine, alice).pool


def _test_of(engine: Engine, who: str) -> OpenTest:
    test = _character(engine, who).test
    assert test is not None
    return test


def test_a_pair_ruled_out_cannot_assist_the_test_again(engine: Engine) -> None:
    """The same helper's pair ruled out is refused AssistNotApplicable; another pair under one
    of its tokens may still assist (R-CG-04, ``GmRuled{AssistApplicable,false}``)."""
    alice = _assisted(engine)
    engine.execute("Lab", RejectAssist(helper="bob", reason="running is no use here"))
    error = refused(
        engine,
        AssistTest(helper=BOB, square="Legs/Cryptic", justification="faster"),
        errors.AssistNotApplicable,
    )
    assert {"name": BOB, "pair": "Cryptic Legs", "test": 1} == error.data
    engine.execute("Lab", AssistTest(helper=BOB, square="R2C2", justification="it takes the hit"))
    assert 3 == _test_of(engine, alice).pool


@pytest.mark.parametrize(
    ("given", "error"),
    [
        pytest.param("declared", errors.NoAssistToReject, id="R-CG-04-reject-without-assist"),
        pytest.param("rolled", errors.TestAlreadyRolled, id="R-CG-04-reject-after-the-roll"),
        pytest.param("none", errors.NoOpenTest, id="R-CG-04-reject-without-a-test"),
    ],
)
def test_rejecting_needs_an_assist_before_the_roll(
    engine: Engine, given: str, error: type[DomainError]
) -> None:
    """Only an assist handed to the declared, unrolled test can be ruled out."""
    alice = _two_placed(engine)
    if given == "declared":
        _declared(engine, alice)
    elif given == "rolled":
        _rolled(engine, alice)
    refused(engine, RejectAssist(helper="bob", reason="no"), error)


def test_only_the_gm_rules_an_assist_out(engine: Engine) -> None:
    """Ruling a pair not applicable is the GM's call, never a player's."""
    _assisted(engine)
    with pytest.raises(NotAllowed):
        engine.execute("Lab", RejectAssist(helper="bob", reason="no"), actor="alice")


# --- CG-A9: a most foolhardy effort strains past the limit ----------------------------------


def test_a_foolhardy_effort_strains_past_the_limit(engine: Engine) -> None:
    """One strain a test by default (maxStrainPerTest=1); the GM's --foolhardy rolls another."""
    alice = _two_placed(engine)
    _rolled(engine, alice)
    engine.execute("Lab", SufferStrain(character=alice), dice=DiceSpec(faces=(1, 5)))  # R1C2
    refused(engine, SufferStrain(character=alice), errors.StrainLimitReached, faces=(5, 5))
    result = engine.execute(
        "Lab", SufferStrain(character=alice, foolhardy=True), dice=DiceSpec(faces=(5, 5))
    )
    expected = (
        cg.StrainRolled(test=1, d66=55, square=Square.R3C2),
        cg.StrainSuffered(square=Square.R3C2, marks=2),
    )
    assert expected == result.events


# --- R-CG-01: replay holds a recorded d66 to the tables -------------------------------------


@pytest.mark.parametrize(
    ("event", "error"),
    [
        pytest.param(
            cg.TraitRolled(table=Table.FORM, d66=35, flipped=False, trait="Skin", discarded=False),
            errors.RolledTraitMismatch,
            id="R-CG-01-rolled-trait-35-is-heart-not-skin",
        ),
        pytest.param(
            cg.TraitRolled(table=Table.FORM, d66=17, flipped=False, trait="Blood", discarded=False),
            errors.InvalidD66,
            id="R-CG-01-invalid-d66-17",
        ),
    ],
)
def test_a_rolled_trait_must_be_the_tables_entry(event: Event, error: type[DomainError]) -> None:
    """A log claiming a trait its d66 does not name (or a d66 no two d6 give) does not replay."""
    with pytest.raises(error):
        evolve(event, None)
    heart = cg.TraitRolled(table=Table.FORM, d66=35, flipped=False, trait="Heart", discarded=False)
    assert evolve(heart, None) is None  # the table's own entry replays (G-CG-15: 35 is Heart)
