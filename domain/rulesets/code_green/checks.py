"""Checks shared by commands (to refuse) and by replay (to find histories that do not fit)."""

from __future__ import annotations

from collections.abc import Iterable

from domain.limits import MAX_NAME
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.character import Assist, CgCharacter, OpenTest
from domain.rulesets.code_green.tables import GridLayout, Square, Table, square_for, trait_for

# --- Checks used to refuse commands and to detect histories that do not fit -------------------


def check_d66(value: int) -> None:
    """A recorded d66 reads two d6 as tens and ones (Rolling Dice): 11 to 66, digits 1 to 6."""
    if not (1 <= value // 10 <= 6 and 1 <= value % 10 <= 6):
        raise errors.InvalidD66(value=value)


def check_trait_rolled(table: Table, d66: int, trait: str) -> None:
    """A rolled trait is the table's entry for its d66 (Table 1: Form, Table 2: Function)."""
    check_d66(d66)
    expected = trait_for(table, d66)
    if trait != expected:
        raise errors.RolledTraitMismatch(table=table, d66=d66, trait=trait, expected=expected)


def check_square_rolled(d66: int, square: Square) -> None:
    """A rolled square is the one whose range holds its d66. A character's stream does not hold
    the campaign's gridRanges house rule, so replay accepts the square of either layout."""
    check_d66(d66)
    expected = sorted({square_for(d66, layout) for layout in GridLayout})
    if square not in expected:
        shown = " or ".join(expected)
        raise errors.RolledSquareMismatch(d66=d66, square=square, expected=shown)


def check_no_displacement(c: CgCharacter) -> None:
    if c.displacement is not None:
        raise errors.DisplacementPending(name=c.name, square=c.displacement)


def check_can_test(c: CgCharacter) -> None:
    if c.incapacitated:
        raise errors.CharacterIncapacitated(name=c.name)
    check_no_displacement(c)
    if c.test is not None:
        if c.test.rolled:
            raise errors.AdaptationPending(name=c.name, test=c.test.number)
        raise errors.AnotherTestOpen(name=c.name, test=c.test.number, what=open_test_stage(c))
    if not c.placed:
        raise errors.TokensNotPlaced(name=c.name)


def open_test_stage(c: CgCharacter) -> str:
    """What the character's open test still waits for (DIGEST §1.1, the scene's ``openTest``)."""
    if c.test is None:
        return "resolved"
    if not c.test.rolled:
        return "not rolled yet"
    if c.displacement is not None:
        return f"the token strain struck on {c.displacement} must move"
    return "awaiting adaptation"


def check_no_other_open_test(c: CgCharacter, others: Iterable[CgCharacter]) -> None:
    """One test open in the scene at a time: from its declaration until its adaptation
    (DIGEST §1.1 ``openTest``; AnotherTestOpen, R-CG-03)."""
    for other in others:
        if other.id != c.id and other.test is not None:
            raise errors.AnotherTestOpen(
                name=other.name, test=other.test.number, what=open_test_stage(other)
            )


def check_destination(c: CgCharacter, square: Square) -> None:
    if square in c.marks:
        raise errors.DestinationMarked(square=square)
    if square in c.tokens:
        raise errors.DestinationOccupied(square=square)


def check_open_test(c: CgCharacter, number: int) -> OpenTest:
    if c.test is None or c.test.number != number:
        raise errors.NoOpenTest(who=c.name)
    if c.test.rolled:
        raise errors.TestAlreadyRolled(name=c.name, test=number)
    return c.test


def check_helper(helper: CgCharacter) -> None:
    """A helper in the scene and able to act (whichever square it helps with)."""
    if helper.incapacitated:
        raise errors.HelperIncapacitated(name=helper.name)
    if not helper.placed:
        raise errors.HelperNotInScene(name=helper.name)


def check_can_assist(helper: CgCharacter, square: Square) -> None:
    check_helper(helper)
    if square not in helper.tokens:
        form, function = helper.pair(square)
        raise errors.NoTokenOnSquare(name=helper.name, square=square, pair=f"{function} {form}")


def check_assist_applicable(test: OpenTest, assist: Assist, name: str, pair: str) -> None:
    """A helper's pair the GM ruled out of this test cannot hand it a die again (R-CG-04)."""
    if assist in test.ruled_out:
        raise errors.AssistNotApplicable(name=name, pair=pair, test=test.number)


def check_new_name(c: CgCharacter, name: str) -> None:
    """A new name: printable, 1 to 80 characters, not the one it has (R-CG-01, CharacterRenamed)."""
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise errors.InvalidCharacterName(name=name)
    if name == c.name:
        raise errors.NameUnchanged(name=name)


def check_can_place(c: CgCharacter) -> None:
    if c.placed:
        raise errors.TokensAlreadyPlaced(name=c.name)


def check_displacement(c: CgCharacter) -> Square:
    """The square of the token strain struck, which must move (``displace``)."""
    if c.displacement is None:
        raise errors.NoDisplacementPending(name=c.name)
    return c.displacement


def check_incapacitated(c: CgCharacter) -> None:
    if not c.incapacitated:
        raise errors.NotIncapacitated(name=c.name)


def check_adaptation(c: CgCharacter) -> OpenTest:
    check_no_displacement(c)
    if c.test is None or not c.test.rolled:
        raise errors.NoPendingAdaptation(name=c.name)
    return c.test


def check_move(c: CgCharacter, source: Square, destination: Square) -> None:
    if source not in c.tokens:
        raise errors.NoTokenAtSource(name=c.name, square=source)
    if source == destination:
        raise errors.MustMoveToDifferentSquare(square=source)
    check_destination(c, destination)


def check_test_resolved(c: CgCharacter) -> None:
    """A scene cannot end on an open test: adapting is not optional."""
    if c.displacement is not None:
        raise errors.TestUnresolved(name=c.name, test=c.tests, what="a token must move")
    if c.test is not None:
        what = "adaptation pending" if c.test.rolled else "not rolled"
        raise errors.TestUnresolved(name=c.name, test=c.test.number, what=what)
