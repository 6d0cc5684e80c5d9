"""Every Code Green refusal as the GM reads it (errors.py, DIGEST 0.3): its stable code and a
message naming who, what and the rule, for each command's refusals (R-CG-01 to R-CG-06)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.commands import Command
from domain.errors import DomainError
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    CreateCharacter,
    DisplaceToken,
    PlaceTokens,
    RejectAssist,
    RenameCharacter,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.tables import Form, Function
from tests.conftest import S1_FORM, S1_FUNCTION
from tests.unit.code_green.conftest import (
    BOB_PLACED,
    DECLARED,
    DISPLACING,
    HELPER,
    INCAPACITATED,
    MARKED_R1C2,
    PENDING,
    R1C1,
    R1C2,
    R1C3,
    R2C1,
    WELL,
    FakeView,
    adapt,
    bob,
    decide,
    declare,
    me,
    received,
    rolled_test,
    view_of,
)

Case = Callable[[], tuple[Command, FakeView]]

# Test 1 adapted R1C1 -> R1C2 and test 2 rolled: the first legal move is now R1C2 -> R1C1.
SHIFTED = (adapt(1, R1C1, R1C2), *rolled_test(2))


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
        "TOKENS_NOT_PLACED: 31415 has not placed its tokens in this scene yet; "
        "`campaign place` places them (Initial Token Placement)"
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
    "assist-nothing-declared": (
        "NO_OPEN_TEST: no declared test is waiting to be rolled for anyone in this scene; "
        "a test is declared with `campaign test` first (Making Tests)"
    ),
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
    "reject-nothing-declared": (
        "NO_OPEN_TEST: no declared test is waiting to be rolled for anyone in this scene; "
        "a test is declared with `campaign test` first (Making Tests)"
    ),
    "roll-nothing-declared": (
        "NO_OPEN_TEST: no declared test is waiting to be rolled for anyone in this scene; "
        "a test is declared with `campaign test` first (Making Tests)"
    ),
    "roll-named-nothing-declared": (
        "NO_OPEN_TEST: no declared test is waiting to be rolled for 31415; a test is declared "
        "with `campaign test` first (Making Tests)"
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


@pytest.mark.parametrize(("ident", "case"), REFUSALS, ids=[i for i, _ in REFUSALS])
def test_a_refusal_tells_the_gm_what_and_why(ident: str, case: Case) -> None:
    """Each refusal carries its stable code and a message naming who, what and the rule."""
    command, view = case()
    with pytest.raises(DomainError) as raised:
        decide(command, view)
    assert MESSAGES[ident] == f"{raised.value.code}: {raised.value.reason}"
