"""Checks shared by commands (to refuse) and by replay (to find histories that do not fit)."""

from __future__ import annotations

from domain.rulesets.code_green import errors
from domain.rulesets.code_green.character import CgCharacter, OpenTest
from domain.rulesets.code_green.tables import Square

# --- Checks used to refuse commands and to detect histories that do not fit -------------------


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
        raise errors.AnotherTestOpen(name=c.name, test=c.test.number)
    if not c.placed:
        raise errors.TokensNotPlaced(name=c.name)


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


def check_can_assist(helper: CgCharacter, square: Square) -> None:
    if helper.incapacitated:
        raise errors.HelperIncapacitated(name=helper.name)
    if not helper.placed:
        raise errors.HelperNotInScene(name=helper.name)
    if square not in helper.tokens:
        form, function = helper.pair(square)
        raise errors.NoTokenOnSquare(name=helper.name, square=square, pair=f"{function} {form}")


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
