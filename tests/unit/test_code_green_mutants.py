"""Code Green rules that mutation testing (`make mutation`, issue 18) showed no test held: each
test states what the GM sees (the events recorded, or the refusal with its code and message) and
cites the DIGEST rule (R-CG-.., CG-A..). Commands run against the in-memory ``FakeView`` of
``test_code_green_rules``, with entered dice."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import pytest
from attrs import evolve as replace

from domain.commands import Command
from domain.dice import EnteredDice
from domain.errors import DomainError, ReplayMismatch
from domain.events import Event
from domain.rulesets.code_green import RULESET
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    CreateCharacter,
    DeclareTest,
    DisplaceToken,
    PlaceTokens,
    Recover,
    RejectAssist,
    RenameCharacter,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.events import TokensReturned
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import Form, Function, Square, Table
from tests.conftest import S1_FORM, S1_FUNCTION
from tests.unit.test_code_green_rules import (
    DECLARED,
    DISPLACING,
    INCAPACITATED,
    MARKED_R1C2,
    PENDING,
    PLACED,
    S1,
    FakeView,
    adapt,
    decide,
    history,
    placed,
    received,
    rolled_test,
    view_of,
)

R1C1, R1C2, R1C3 = Square.R1C1, Square.R1C2, Square.R1C3
R2C1, R2C2, R2C3 = Square.R2C1, Square.R2C2, Square.R2C3
R3C1, R3C2, R3C3 = Square.R3C1, Square.R3C2, Square.R3C3
HELPER = UUID(int=2)


def bob(*events: Event) -> CgCharacter:
    """A second S1 character, '26535' of player bob, with its own history."""
    state = evolve(replace(S1, character_id=HELPER, name="26535", player="bob"), None)
    for event in events:
        state = evolve(event, state)
    assert state is not None
    return state


def me(*events: Event) -> CgCharacter:
    """The S1 character '31415' of player alice, after ``events``."""
    return history(*events)


Case = Callable[[], tuple[Command, FakeView]]
WELL = (*PLACED,)
# Test 1 adapted R1C1 -> R1C2 and test 2 rolled: the first legal move is now R1C2 -> R1C1.
SHIFTED = (adapt(1, R1C1, R1C2), *rolled_test(2))
BOB_PLACED = placed(R1C1, R2C2, R3C3)

REFUSALS: list[tuple[str, Case]] = [
    # R-CG-03: who may declare a test, and with which pair.
    (
        "incapacitated",
        lambda: (declare("Legs", "Cryptic"), view_of(me(*INCAPACITATED, adapt(2, R1C3, R2C1)))),
    ),
    ("displacing", lambda: (declare("Legs", "Cryptic"), view_of(me(*DISPLACING)))),
    ("adaptation-pending", lambda: (declare("Legs", "Cryptic"), view_of(me(*PENDING)))),
    ("own-test-open", lambda: (declare("Legs", "Cryptic"), view_of(me(*DECLARED)))),
    ("not-placed", lambda: (declare("Legs", "Cryptic"), view_of(me()))),
    (
        "other-test-not-rolled",
        lambda: (declare("Legs", "Cryptic"), view_of(me(*WELL), bob(*BOB_PLACED, DECLARED[-1]))),
    ),
    (
        "other-test-awaiting-adaptation",
        lambda: (declare("Legs", "Cryptic"), view_of(me(*WELL), bob(*PENDING))),
    ),
    (
        "other-test-displacing",
        lambda: (declare("Legs", "Cryptic"), view_of(me(*WELL), bob(*DISPLACING))),
    ),
    ("form-only", lambda: (declare("Legs", None), view_of(me(*WELL)))),
    ("function-only", lambda: (declare(None, "Cryptic"), view_of(me(*WELL)))),
    ("two-forms", lambda: (declare("Legs", "Tail"), view_of(me(*WELL)))),
    ("unknown-words", lambda: (declare("Wheels", "Laser"), view_of(me(*WELL)))),
    ("form-not-on-sheet", lambda: (declare("Wings", "Cryptic"), view_of(me(*WELL)))),
    ("function-not-on-sheet", lambda: (declare("Legs", "Toxic"), view_of(me(*WELL)))),
    # R-CG-04, CG-A5: assistance.
    (
        "assist-nothing-declared",
        lambda: (assist("26535", "R1C1"), view_of(me(*WELL), bob(*BOB_PLACED))),
    ),
    (
        "assist-after-the-roll",
        lambda: (assist("26535", "R1C1"), view_of(me(*PENDING), bob(*BOB_PLACED))),
    ),
    (
        "assist-own-test",
        lambda: (assist("31415", "R1C1"), view_of(me(*DECLARED), bob(*BOB_PLACED))),
    ),
    (
        "assist-incapacitated",
        lambda: (
            assist("26535", "R1C3"),
            view_of(me(*DECLARED), bob(*INCAPACITATED, adapt(2, R1C3, R2C1))),
        ),
    ),
    ("assist-not-placed", lambda: (assist("26535", "R1C1"), view_of(me(*DECLARED), bob()))),
    (
        "assist-no-token",
        lambda: (assist("26535", "R1C2"), view_of(me(*DECLARED), bob(*BOB_PLACED))),
    ),
    (
        "assist-twice",
        lambda: (assist("26535", "R2C2"), view_of(me(*DECLARED, received(R1C1)), bob(*BOB_PLACED))),
    ),
    (
        "assist-ruled-out",
        lambda: (
            assist("26535", "R1C1"),
            view_of(me(*DECLARED, received(R1C1), rejected_r1c1()), bob(*BOB_PLACED)),
        ),
    ),
    (
        "reject-unassisted",
        lambda: (
            RejectAssist(helper="26535", reason="no"),
            view_of(me(*DECLARED), bob(*BOB_PLACED)),
        ),
    ),
    (
        "reject-nothing-declared",
        lambda: (RejectAssist(helper="26535", reason="no"), view_of(me(*WELL), bob(*BOB_PLACED))),
    ),
    # R-CG-03: rolling.
    ("roll-nothing-declared", lambda: (RollTest(), view_of(me(*WELL)))),
    ("roll-named-nothing-declared", lambda: (RollTest(character="31415"), view_of(me(*WELL)))),
    ("roll-twice", lambda: (RollTest(character="31415"), view_of(me(*PENDING)))),
    # R-CG-05: strain and displacement.
    (
        "displace-unstruck",
        lambda: (DisplaceToken(character="31415", destination="R1C2"), view_of(me(*PENDING))),
    ),
    (
        "displace-on-token",
        lambda: (DisplaceToken(character="31415", destination="R2C2"), view_of(me(*DISPLACING))),
    ),
    (
        "strain-incapacitated",
        lambda: (SufferStrain(character="31415"), view_of(me(*INCAPACITATED))),
    ),
    (
        "strain-while-displacing",
        lambda: (SufferStrain(character="31415"), view_of(me(*DISPLACING))),
    ),
    ("strain-no-test", lambda: (SufferStrain(character="31415"), view_of(me(*WELL)))),
    # R-CG-06: adapting.
    (
        "adapt-no-test",
        lambda: (Adapt(character="31415", source="R1C1", destination="R1C2"), view_of(me(*WELL))),
    ),
    (
        "adapt-unrolled",
        lambda: (
            Adapt(character="31415", source="R1C1", destination="R1C2"),
            view_of(me(*DECLARED)),
        ),
    ),
    ("adapt-no-choice", lambda: (Adapt(character="31415"), view_of(me(*PENDING)))),
    (
        "adapt-source-only",
        lambda: (Adapt(character="31415", source="R1C1"), view_of(me(*PENDING))),
    ),
    (
        "adapt-destination-only",
        lambda: (Adapt(character="31415", destination="R1C2"), view_of(me(*PENDING))),
    ),
    (
        "adapt-no-choice-first-move",
        lambda: (Adapt(character="31415"), view_of(me(*PENDING, *SHIFTED))),
    ),
    (
        "assist-unexplained",
        lambda: (
            AssistTest(helper="26535", square="R1C1", justification="  "),
            view_of(me(*DECLARED), bob(*BOB_PLACED)),
        ),
    ),
    (
        "reject-unexplained",
        lambda: (
            RejectAssist(helper="26535", reason=" "),
            view_of(me(*DECLARED, received(R1C1)), bob(*BOB_PLACED)),
        ),
    ),
    (
        "adapt-from-empty",
        lambda: (
            Adapt(character="31415", source="R1C2", destination="R1C3"),
            view_of(me(*PENDING)),
        ),
    ),
    (
        "adapt-in-place",
        lambda: (
            Adapt(character="31415", source="R1C1", destination="R1C1"),
            view_of(me(*PENDING)),
        ),
    ),
    (
        "adapt-on-mark",
        lambda: (
            Adapt(character="31415", source="R1C1", destination="R1C2"),
            view_of(me(*MARKED_R1C2)),
        ),
    ),
    (
        "adapt-on-token",
        lambda: (
            Adapt(character="31415", source="R1C1", destination="R2C2"),
            view_of(me(*PENDING)),
        ),
    ),
    # R-CG-02: placement.
    (
        "placed-twice",
        lambda: (
            PlaceTokens(character="31415", squares=("R1C1", "R1C2", "R1C3")),
            view_of(me(*WELL)),
        ),
    ),
    (
        "two-squares",
        lambda: (PlaceTokens(character="31415", squares=("R1C1", "R1C2")), view_of(me())),
    ),
    (
        "same-square",
        lambda: (
            PlaceTokens(character="31415", squares=("R1C1", "Legs/Cryptic", "R1C3")),
            view_of(me()),
        ),
    ),
    (
        "unknown-square",
        lambda: (PlaceTokens(character="31415", squares=("R1C1", "R4C1", "R1C3")), view_of(me())),
    ),
    # R-CG-01: creation and names.
    (
        "no-player",
        lambda: (CreateCharacter(player="  ", form=S1_FORM, function=S1_FUNCTION), view_of()),
    ),
    (
        "two-traits",
        lambda: (
            CreateCharacter(player="cy", form=("Legs", "Tail"), function=S1_FUNCTION),
            view_of(),
        ),
    ),
    (
        "unknown-trait",
        lambda: (
            CreateCharacter(player="cy", form=("Legs", "Tail", "Wheels"), function=S1_FUNCTION),
            view_of(),
        ),
    ),
    (
        "trait-twice",
        lambda: (
            CreateCharacter(player="cy", form=S1_FORM, function=("Toxic", "toxic ", "Cryptic")),
            view_of(),
        ),
    ),
    ("rename-empty", lambda: (RenameCharacter(character="31415", new_name="  "), view_of(me()))),
    ("rename-same", lambda: (RenameCharacter(character="31415", new_name="31415"), view_of(me()))),
    (
        "rename-too-long",
        lambda: (RenameCharacter(character="31415", new_name="x" * 81), view_of(me())),
    ),
    (
        "rename-unprintable",
        lambda: (RenameCharacter(character="31415", new_name="a\tb"), view_of(me())),
    ),
    (
        "rename-taken",
        lambda: (RenameCharacter(character="31415", new_name="26535"), view_of(me(), bob())),
    ),
    (
        "rename-a-player",
        lambda: (RenameCharacter(character="31415", new_name="bob"), view_of(me(), bob())),
    ),
]


MESSAGES = {
    "incapacitated": (
        "CHARACTER_INCAPACITATED: 31415 is incapacitated and may not take part in "
        "tests until it recovers (Strain)"
    ),
    "displacing": (
        "DISPLACEMENT_PENDING: 31415 must first move the token strain struck on R1C1 "
        "to an empty square (`campaign displace`) (Suffering Strain)"
    ),
    "adaptation-pending": (
        "ADAPTATION_PENDING: 31415 must adapt after test 1 before anything else "
        "(Adapting is not optional)"
    ),
    "own-test-open": (
        "ANOTHER_TEST_OPEN: 31415's test 1 is still open (not rolled yet); a scene "
        "has one test open at a time: it is rolled, its strain resolved and its "
        "adaptation made before another is declared (Making Tests, Adapting)"
    ),
    "not-placed": (
        "TOKENS_NOT_PLACED: 31415 has not placed its tokens in this scene yet "
        "(Initial Token Placement)"
    ),
    "other-test-not-rolled": (
        "ANOTHER_TEST_OPEN: 26535's test 1 is still open (not rolled yet); a scene "
        "has one test open at a time: it is rolled, its strain resolved and its "
        "adaptation made before another is declared (Making Tests, Adapting)"
    ),
    "other-test-awaiting-adaptation": (
        "ANOTHER_TEST_OPEN: 26535's test 1 is still open (awaiting adaptation); a "
        "scene has one test open at a time: it is rolled, its strain resolved and "
        "its adaptation made before another is declared (Making Tests, Adapting)"
    ),
    "other-test-displacing": (
        "ANOTHER_TEST_OPEN: 26535's test 1 is still open (the token strain struck on "
        "R1C1 must move); a scene has one test open at a time: it is rolled, its "
        "strain resolved and its adaptation made before another is declared (Making "
        "Tests, Adapting)"
    ),
    "form-only": (
        "PAIR_MUST_BE_FORM_AND_FUNCTION: a test uses one Form trait and one Function "
        "trait, got Legs and - (Making Tests)"
    ),
    "function-only": (
        "PAIR_MUST_BE_FORM_AND_FUNCTION: a test uses one Form trait and one Function "
        "trait, got - and Cryptic (Making Tests)"
    ),
    "two-forms": (
        "PAIR_MUST_BE_FORM_AND_FUNCTION: a test uses one Form trait and one Function "
        "trait, got Legs and Tail (Making Tests)"
    ),
    "unknown-words": (
        "PAIR_MUST_BE_FORM_AND_FUNCTION: a test uses one Form trait and one Function "
        "trait, got Wheels and Laser (Making Tests)"
    ),
    "form-not-on-sheet": (
        "TRAIT_NOT_ON_SHEET: 31415 has no form trait Wings; its form traits are "
        "Legs, Tail, Teeth (Making Tests)"
    ),
    "function-not-on-sheet": (
        "TRAIT_NOT_ON_SHEET: 31415 has no function trait Toxic; its function traits "
        "are Cryptic, Invulnerable, Phasing (Making Tests)"
    ),
    "assist-nothing-declared": ("NO_OPEN_TEST: nobody has no declared test waiting to be rolled"),
    "assist-after-the-roll": ("TEST_ALREADY_ROLLED: 31415's test 1 has been rolled already"),
    "assist-own-test": ("CANNOT_ASSIST_OWN_TEST: 31415 cannot assist its own test (Assistance)"),
    "assist-incapacitated": (
        "HELPER_INCAPACITATED: 26535 is incapacitated and may not take part in "
        "tests, so it cannot assist (Strain)"
    ),
    "assist-not-placed": (
        "HELPER_NOT_IN_SCENE: 26535 has no tokens on its grid in this scene, so it "
        "cannot assist (Assistance)"
    ),
    "assist-no-token": (
        "NO_TOKEN_ON_SQUARE: 26535 has no token on R1C2 (Invulnerable Legs); only "
        "pairs under your own tokens can assist (Assistance)"
    ),
    "assist-twice": (
        "ALREADY_ASSISTED_THIS_TEST: 26535 already handed one die to this test; one "
        "die per helper (Assistance)"
    ),
    "assist-ruled-out": (
        "ASSIST_NOT_APPLICABLE: the GM ruled 26535's Cryptic Legs not applicable to "
        "test 1; assist with another pair under one of its tokens (Assistance)"
    ),
    "reject-unassisted": (
        "NO_ASSIST_TO_REJECT: 26535 has handed no die to test 1; there is no "
        "assistance to rule out (Assistance)"
    ),
    "reject-nothing-declared": ("NO_OPEN_TEST: nobody has no declared test waiting to be rolled"),
    "roll-nothing-declared": ("NO_OPEN_TEST: nobody has no declared test waiting to be rolled"),
    "roll-named-nothing-declared": (
        "NO_OPEN_TEST: 31415 has no declared test waiting to be rolled"
    ),
    "roll-twice": ("TEST_ALREADY_ROLLED: 31415's test 1 has been rolled already"),
    "displace-unstruck": (
        "NO_DISPLACEMENT_PENDING: 31415 has no token waiting to be displaced by strain"
    ),
    "displace-on-token": (
        "DESTINATION_OCCUPIED: R2C2 already holds a token; move it to a square without one"
    ),
    "strain-incapacitated": (
        "ALREADY_INCAPACITATED: 31415 is incapacitated already; further strain has "
        "no effect (Suffering Strain)"
    ),
    "strain-while-displacing": (
        "DISPLACEMENT_PENDING: 31415 must first move the token strain struck on R1C1 "
        "to an empty square (`campaign displace`) (Suffering Strain)"
    ),
    "strain-no-test": (
        "NO_TEST_FOR_STRAIN: 31415 has no rolled test awaiting adaptation; strain is "
        "a consequence of a test and comes before adapting (house rule "
        "allowEnvironmentalStrain allows strain outside tests)"
    ),
    "adapt-no-test": ("NO_PENDING_ADAPTATION: 31415 has no rolled test to adapt after (Adapting)"),
    "adapt-unrolled": ("NO_PENDING_ADAPTATION: 31415 has no rolled test to adapt after (Adapting)"),
    "adapt-no-choice": (
        "ADAPTATION_CHOICE_REQUIRED: 31415 must choose a token and where it goes, "
        "e.g. R1C1 R1C2 (Adapting)"
    ),
    "adapt-source-only": (
        "ADAPTATION_CHOICE_REQUIRED: 31415 must choose a token and where it goes, "
        "e.g. R1C1 R1C2 (Adapting)"
    ),
    "adapt-destination-only": (
        "ADAPTATION_CHOICE_REQUIRED: 31415 must choose a token and where it goes, "
        "e.g. R1C1 R1C2 (Adapting)"
    ),
    "adapt-no-choice-first-move": (
        "ADAPTATION_CHOICE_REQUIRED: 31415 must choose a token and where it goes, "
        "e.g. R1C2 R1C1 (Adapting)"
    ),
    "assist-unexplained": (
        "EMPTY_TEXT: the explanation of how the helper's pair helps must not be empty"
    ),
    "reject-unexplained": ("EMPTY_TEXT: the reason the pair does not apply must not be empty"),
    "adapt-from-empty": ("NO_TOKEN_AT_SOURCE: 31415 has no token on R1C2 to move (Adapting)"),
    "adapt-in-place": (
        "MUST_MOVE_TO_DIFFERENT_SQUARE: the token must end on a different square "
        "than R1C1 while a valid destination exists (Adapting)"
    ),
    "adapt-on-mark": (
        "DESTINATION_MARKED: R1C2 is marked by strain; tokens may not be moved to "
        "marked squares for the rest of the scene (Suffering Strain)"
    ),
    "adapt-on-token": (
        "DESTINATION_OCCUPIED: R2C2 already holds a token; move it to a square without one"
    ),
    "placed-twice": (
        "TOKENS_ALREADY_PLACED: 31415 has placed its tokens for this scene already "
        "(Initial Token Placement)"
    ),
    "two-squares": (
        "NOT_THREE_TOKENS: place each of your three tokens: got 2 squares (Initial Token Placement)"
    ),
    "same-square": (
        "DUPLICATE_SQUARE: R1C1 is named twice; each token goes on a different "
        "square (Initial Token Placement)"
    ),
    "unknown-square": (
        "UNKNOWN_SQUARE: 'R4C1' is not a Profile Grid square: use R1C1..R3C3, a pair "
        "such as Legs/Cryptic, or 'roll'"
    ),
    "no-player": ("EMPTY_TEXT: the player's name must not be empty"),
    "two-traits": (
        "TRAIT_COUNT_INVALID: a character has exactly three form traits, got 2 (Character Creation)"
    ),
    "unknown-trait": (
        "UNKNOWN_TRAIT: 'Wheels' is not on the form table; choose one of: Blood, "
        "Bones, Brain, Claws, Ears, Eyes, Guts, Hands, Heart, Hair, Legs, Lungs, "
        "Nose, Skin, Tail, Teeth, Tongue, Wings (Character Creation)"
    ),
    "trait-twice": (
        "DUPLICATE_TRAIT: Toxic is chosen twice; your three function traits must "
        "differ (Character Creation)"
    ),
    "rename-empty": ("EMPTY_TEXT: the character's new name must not be empty"),
    "rename-same": (
        "NAME_UNCHANGED: 31415 is its name already; a new name must differ from the "
        "old one (Character Creation)"
    ),
    "rename-too-long": (
        "INVALID_CHARACTER_NAME: a character's name is 1 to 80 printable characters, "
        "got "
        "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' "
        "(Character Creation)"
    ),
    "rename-unprintable": (
        "INVALID_CHARACTER_NAME: a character's name is 1 to 80 printable characters, "
        "got 'a\\tb' (Character Creation)"
    ),
    "rename-taken": (
        "NAME_TAKEN: '26535' is already a character's name in this campaign (Character Creation)"
    ),
    "rename-a-player": (
        "NAME_IS_A_PLAYER: 'bob' is the name of a player at this table; characters "
        "are found by their name or their player's, so a character may not take a "
        "player's name (Character Creation)"
    ),
}


def declare(form: str | None, function: str | None) -> DeclareTest:
    return DeclareTest(character="31415", form=form, function=function)


def assist(who: str, square: str) -> AssistTest:
    return AssistTest(helper=who, square=square, justification="teeth in the dark")


def rejected_r1c1() -> cg.AssistanceRejected:
    return cg.AssistanceRejected(
        test=1,
        helper=HELPER,
        helper_name="26535",
        square=R1C1,
        form=Form.LEGS,
        function=Function.CRYPTIC,
        reason="r",
    )


@pytest.mark.parametrize(("ident", "case"), REFUSALS, ids=[i for i, _ in REFUSALS])
def test_a_refusal_tells_the_gm_what_and_why(ident: str, case: Case) -> None:
    """Each refusal carries its stable code and a message naming who, what and the rule."""
    command, view = case()
    with pytest.raises(DomainError) as raised:
        decide(command, view)
    assert MESSAGES[ident] == f"{raised.value.code}: {raised.value.reason}"


def test_a_trait_that_rolls_duplicates_forever_is_refused() -> None:
    """R-CG-01: a duplicate is flipped, then re-rolled; a dice source that never stops giving
    duplicates is refused after 100 re-rolls rather than looped on."""
    create = CreateCharacter(player="cy", form=("Blood", "Bones", "roll"), function=S1_FUNCTION)
    with pytest.raises(DomainError) as raised:
        decide(create, view_of(), (1,) * 200)
    expected = (
        "DUPLICATE_TRAIT: every roll is chosen twice; your three form traits must differ "
        "(Character Creation)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_rolled_trait_that_is_not_the_table_entry_does_not_replay() -> None:
    """R-CG-01 (Table 1): d66 35 on the Form table is Heart; a history saying Blood is refused
    with the roll, the table, the claim and the entry."""
    wrong = cg.TraitRolled(table=Table.FORM, d66=35, flipped=False, trait="Blood", discarded=False)
    with pytest.raises(DomainError) as raised:
        evolve(wrong, None)
    expected = (
        "ROLLED_TRAIT_MISMATCH: d66 35 on the form table is Heart, not Blood (Character "
        "Creation, Table 1 and Table 2)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_the_gm_rules_an_incapacitated_character_recovered() -> None:
    """R-CG-07: the GM's Recover ends an incapacitation on that character's own stream; a
    character who is not incapacitated is refused by name."""
    down = me(*INCAPACITATED)
    changes = Recover(character="31415").decide(view_of(down), EnteredDice(()))
    assert [(down.id, cg.Recovered(reason="GM ruling"))] == [(c.stream, c.event) for c in changes]
    with pytest.raises(DomainError) as raised:
        decide(Recover(character="31415"), view_of(me(*WELL)))
    assert "NOT_INCAPACITATED: 31415 is not incapacitated" == (
        f"{raised.value.code}: {raised.value.reason}"
    )


def test_a_token_may_be_moved_by_naming_the_pairs_of_its_squares() -> None:
    """R-CG-06: Adapt names squares as on the sheet: Legs/Cryptic is R1C1, Legs/Invulnerable
    R1C2 for the S1 character (Form row x Function column)."""
    adapt_by_pairs = Adapt(
        character="31415", source="Legs/Cryptic", destination="Legs/Invulnerable"
    )
    assert (cg.Adapted(test=1, source=R1C1, destination=R1C2),) == decide(
        adapt_by_pairs, view_of(me(*PENDING))
    )


def test_a_pair_given_function_first_is_read_form_first() -> None:
    """R-CG-03: a test's pair is one Form and one Function trait, in either order: Cryptic Legs
    declares the same test as Legs Cryptic (G-CG-05's consulted squares, R1C1's row and column)."""
    swapped = decide(declare("Cryptic", "Legs"), view_of(me(*WELL)))
    assert decide(declare("Legs", "Cryptic"), view_of(me(*WELL))) == swapped
    declared = swapped[0]
    assert isinstance(declared, cg.TestDeclared)
    assert (Form.LEGS, Function.CRYPTIC, 1) == (
        declared.form,
        declared.function,
        declared.own_tokens,
    )


def test_a_token_that_rolls_onto_taken_squares_forever_is_refused() -> None:
    """R-CG-02, CG-A7: a rolled token on an occupied square flips, then re-rolls; a dice source
    that only ever lands on taken squares (11 is R1C1, and flips to itself) is refused."""
    place = PlaceTokens(character="31415", squares=("R1C1", "R1C2", "roll"))
    with pytest.raises(DomainError) as raised:
        decide(place, view_of(me()), (1,) * 200)
    expected = (
        "DUPLICATE_SQUARE: every roll is named twice; each token goes on a different square "
        "(Initial Token Placement)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_token_may_not_be_placed_on_a_persisting_mark() -> None:
    """CG-A4 (marksPersistAcrossScenes): a marked square takes no token; the refusal names it."""
    c = me(*MARKED_R1C2, adapt(1, R1C1, R1C3), TokensReturned(squares=()))
    place = PlaceTokens(character="31415", squares=("R1C1", "Legs/Invulnerable", "R3C3"))
    with pytest.raises(DomainError) as raised:
        decide(place, view_of(c, marksPersistAcrossScenes="true"))
    expected = "SQUARE_MARKED: R1C2 is marked by strain; tokens may not be placed on marked squares"
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_rolled_token_lands_by_the_campaign_grid_layout() -> None:
    """CG-A1 (gridRanges=die-per-axis): the tens die picks the row, the ones die the column, so
    d66 35 is R2C3 (it would be R2C2 on the contiguous grid)."""
    place = PlaceTokens(character="31415", squares=("roll", "R1C1", "R3C3"))
    events = decide(place, view_of(me(), gridRanges="die-per-axis"), (3, 5))
    rolled = cg.TokenPlaced(square=R2C3, rolled=True, attempts=(35,), flipped=False)
    assert (rolled, cg.InitialTokensPlaced(squares=(R2C3, R1C1, R3C3))) == (events[0], events[-1])


def test_a_struck_token_may_be_displaced_to_a_square_named_by_its_pair() -> None:
    """R-CG-05: the token strain struck on R1C1 moves to the square the player names, here by
    its pair (Legs/Invulnerable is R1C2)."""
    displace = DisplaceToken(character="31415", destination="Invulnerable Legs")
    assert (cg.TokenDisplaced(source=R1C1, destination=R1C2),) == decide(
        displace, view_of(me(*DISPLACING))
    )


def test_strain_comes_from_a_rolled_test_not_a_declared_one() -> None:
    """R-CG-05, CG-A8: strain is a consequence of a test's roll; a test only declared causes
    none (without allowEnvironmentalStrain)."""
    with pytest.raises(DomainError) as raised:
        decide(SufferStrain(character="31415"), view_of(me(*DECLARED)), (1, 1))
    assert "NO_TEST_FOR_STRAIN" == raised.value.code


def test_a_new_name_may_be_80_characters() -> None:
    """R-CG-01 (CharacterRenamed): a name of 1 to 80 printable characters; 80 is allowed."""
    events = decide(RenameCharacter(character="31415", new_name="x" * 80), view_of(me()))
    assert ["x" * 80] == [e.name for e in events if isinstance(e, cg.CharacterRenamed)]


@pytest.mark.parametrize(
    ("events", "what"),
    [
        (DISPLACING, "test 1 is not resolved (a token must move)"),
        (DECLARED, "test 1 is not resolved (not rolled)"),
        (PENDING, "test 1 is not resolved (adaptation pending)"),
    ],
    ids=["displacing", "declared", "rolled"],
)
def test_a_scene_cannot_end_on_an_open_test(events: tuple[Event, ...], what: str) -> None:
    """R-CG-06: adapting is not optional, so the scene's end waits for the open test; the
    refusal names the character, the test and what it waits for."""
    with pytest.raises(DomainError) as raised:
        RULESET.end_scene(view_of(me(*events)))
    expected = f"TEST_UNRESOLVED: 31415's {what}; finish it before the scene ends"
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_the_scene_end_returns_tokens_strain_took_and_ends_incapacitation() -> None:
    """CG-A4: at the scene's end the marks clear, the tokens return to hand (even when strain
    removed every one of them: all three are back for the next placement), and an
    incapacitated character recovers; each on the character's own stream."""
    down = me(*INCAPACITATED, adapt(2, R1C3, R2C1))
    stripped = replace(bob(*BOB_PLACED), tokens=frozenset())
    changes = RULESET.end_scene(view_of(down, stripped))
    assert [
        (down.id, cg.StrainMarksCleared(squares=(R1C2,))),
        (down.id, cg.TokensReturned(squares=(R2C1, R2C2, R3C3))),
        (down.id, cg.Recovered(reason="the scene ended")),
        (stripped.id, cg.TokensReturned(squares=())),
    ] == [(c.stream, c.event) for c in changes]


def test_a_recorded_d66_has_two_digits_from_1_to_6() -> None:
    """CG dice (Rolling Dice): 71 reads a 7 on the tens die, so a history holding it is
    refused by the value, whichever table it was rolled on."""
    wrong = cg.TraitRolled(table=Table.FORM, d66=71, flipped=False, trait="Wings", discarded=False)
    with pytest.raises(DomainError) as raised:
        evolve(wrong, None)
    expected = (
        "INVALID_D66: 71 is not a d66 result: both digits are 1 to 6, 11 to 66 (Rolling Dice)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_rolled_token_replays_on_the_square_of_either_grid_layout() -> None:
    """CG-A1: d66 35 lands on R2C2 (contiguous) or R2C3 (die per axis); a character's history
    holds no house rule, so either replays, and any other square is refused with both."""
    for square in (R2C2, R2C3):
        placed_by_35 = cg.TokenPlaced(square=square, rolled=True, attempts=(35,), flipped=False)
        assert {square} == me(placed_by_35).tokens
    wrong = cg.TokenPlaced(square=R1C1, rolled=True, attempts=(35,), flipped=False)
    with pytest.raises(DomainError) as raised:
        me(wrong)
    expected = (
        "ROLLED_SQUARE_MISMATCH: d66 35 lands on R2C2 or R2C3 (by the gridRanges house rule), "
        "not R1C1 (Initial Token Placement, Suffering Strain)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


@pytest.mark.parametrize(
    ("events", "message"),
    [
        (WELL, "NO_OPEN_TEST: 31415 has no declared test waiting to be rolled"),
        (PENDING, "TEST_ALREADY_ROLLED: 31415's test 1 has been rolled already"),
    ],
    ids=["nothing-declared", "rolled-already"],
)
def test_a_history_assisting_a_test_not_waiting_does_not_replay(
    events: tuple[Event, ...], message: str
) -> None:
    """R-CG-04: a die is handed to a declared test before its roll; a history saying otherwise
    is refused, naming the tester and the test."""
    with pytest.raises(DomainError) as raised:
        me(*events, received(R1C1))
    assert message == f"{raised.value.code}: {raised.value.reason}"


def test_an_unknown_function_trait_lists_the_function_table() -> None:
    """R-CG-01 (Table 2): an unknown Function pick is refused with the Function table's entries."""
    create = CreateCharacter(player="cy", form=S1_FORM, function=("Toxic", "Cryptic", "Laser"))
    with pytest.raises(DomainError) as raised:
        decide(create, view_of())
    expected = (
        "UNKNOWN_TRAIT: 'Laser' is not on the function table; choose one of: Accelerated, "
        "Autonomous, Auxiliary, Cryogenic, Cryptic, Elastic, Electric, Entropic, Invasive, "
        "Invulnerable, Kinetic, Magnetic, Phasing, Polymorphic, Projectile, Pyrogenic, "
        "Telescopic, Toxic (Character Creation)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_two_rolled_tokens_on_the_same_square_flip_the_second() -> None:
    """R-CG-02, CG-A7: the second token rolled onto the first one's square (35, R2C2) flips to
    53 (R3C1)."""
    place = PlaceTokens(character="31415", squares=("roll", "roll", "R3C3"))
    events = decide(place, view_of(me()), (3, 5, 3, 5))
    assert cg.InitialTokensPlaced(squares=(R2C2, R3C1, R3C3)) == events[-1]
    assert cg.TokenPlaced(square=R3C1, rolled=True, attempts=(35, 53), flipped=True) == events[1]


def test_a_seventh_character_is_refused_with_the_count() -> None:
    """Campaign: one GM and up to six players (PartyFull)."""
    party = [
        evolve(replace(S1, character_id=UUID(int=10 + n), name=f"1111{n}", player=f"p{n}"), None)
        for n in range(1, 7)
    ]
    create = CreateCharacter(player="cy", form=S1_FORM, function=S1_FUNCTION)
    with pytest.raises(DomainError) as raised:
        decide(create, view_of(*[p for p in party if p is not None]), (1, 1, 1, 1, 1))
    expected = (
        "PARTY_FULL: Code Green is for up to six players; this campaign has 6 characters already"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ((3, 1, 4, 1, 7), "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up"),
        (
            (3, 1, 4, 1, 5),
            "NAME_TAKEN: '31415' is already a character's name in this campaign "
            "(Character Creation)",
        ),
    ],
    ids=["d7", "taken"],
)
def test_the_rolled_name_is_five_d6_not_taken(faces: tuple[int, ...], message: str) -> None:
    """R-CG-01 (G-CG-14): the name is five d6 in roll order; a name another character has
    already is refused."""
    create = CreateCharacter(player="cy", form=S1_FORM, function=S1_FUNCTION)
    with pytest.raises(DomainError) as raised:
        decide(create, view_of(me()), faces)
    assert message == f"{raised.value.code}: {raised.value.reason}"


def test_a_second_rolled_pick_may_not_repeat_the_first() -> None:
    """R-CG-01 (G-CG-16): 11 (Blood) rolled for the first pick; the second rolls 11 again:
    a duplicate, its flip too, so it re-rolls 13 (Bones)."""
    create = CreateCharacter(player="cy", form=("roll", "roll", "Legs"), function=S1_FUNCTION)
    events = decide(create, view_of(), (1, 1, 1, 1, 1, 3, 3, 1, 4, 1, 5))
    created = next(e for e in events if isinstance(e, cg.CharacterCreated))
    assert (Form.BLOOD, Form.BONES, Form.LEGS) == created.form
    rolled = [(e.d66, e.flipped, e.discarded) for e in events if isinstance(e, cg.TraitRolled)]
    assert [(11, False, False), (11, False, True), (11, True, True), (13, False, False)] == rolled


@pytest.mark.parametrize(
    ("text", "square"),
    [("r1c2", R1C2), ("Legs X Invulnerable", R1C2), ("Invulnerable x Legs", R1C2)],
)
def test_a_square_is_named_in_any_case_or_by_its_pair(text: str, square: Square) -> None:
    """R-CG-06: squares are named R1C2 (any case) or by their pair, 'x' standing between."""
    adapted = decide(
        Adapt(character="31415", source="R1C1", destination=text), view_of(me(*PENDING))
    )
    assert (cg.Adapted(test=1, source=R1C1, destination=square),) == adapted


def test_a_pair_not_on_the_sheet_names_no_square() -> None:
    """R-CG-06: Legs and Wings (not this character's Function) name no square of its grid."""
    with pytest.raises(DomainError) as raised:
        decide(
            Adapt(character="31415", source="R1C1", destination="Legs/Wings"),
            view_of(me(*PENDING)),
        )
    assert "UNKNOWN_SQUARE" == raised.value.code


def test_a_character_stream_must_start_with_its_creation() -> None:
    """Strict replay: an event before CharacterCreated is refused, saying so."""
    with pytest.raises(ReplayMismatch) as raised:
        evolve(cg.TokenPlaced(square=R1C1, rolled=False, attempts=(), flipped=False), None)
    assert "a character stream must start with CharacterCreated" == str(raised.value)
