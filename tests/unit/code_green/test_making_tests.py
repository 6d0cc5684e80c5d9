"""Code Green's tests (making_tests.py): declaring a pair (R-CG-03), assistance (R-CG-04), the
roll, and adapting after it (R-CG-06)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.rulesets.code_green import errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.commands import Adapt, AssistTest, DeclareTest
from domain.rulesets.code_green.events import AdaptationImpossible, Adapted, TokenRemoved
from domain.rulesets.code_green.tables import Form, Function, Square
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import add_s1_character, place, refused, scene_with_s1
from tests.unit.code_green.conftest import (
    MARKED_R1C2,
    NO_MOVE_LEFT,
    R3C1,
    R3C3,
    WELL,
    decide,
    declare,
    history,
    me,
    seven_marks_struck_r3c2,
    strained,
    view_of,
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


def test_assisting_a_test_already_rolled_is_refused_as_already_rolled(engine: Engine) -> None:
    """R-CG-04: once the pool is rolled, the assist window is closed (TEST_ALREADY_ROLLED)."""
    who = scene_with_s1(engine)
    helper = add_s1_character(engine, player="bob", name_dice=(2, 2, 2, 2, 2))
    place(engine, who, "R1C1", "R2C2", "R3C3")
    place(engine, helper, "R1C1", "R2C2", "R3C3")
    declared = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
    engine.execute("Lab", declared, dice=DiceSpec(faces=(2, 5)))
    late = AssistTest(helper=helper, square="R1C1", justification="late")
    assert "TEST_ALREADY_ROLLED" == refused(engine, late, errors.TestAlreadyRolled).code


@given(source=st.sampled_from(Square), destination=st.sampled_from(Square))
def test_adapt_accepts_exactly_the_legal_moves(source: Square, destination: Square) -> None:
    """Every (from, to) pair is either a legal move, adapted, or refused with a domain error."""
    c = history(*MARKED_R1C2)
    command = Adapt(character=c.name, source=source.value, destination=destination.value)
    if (source, destination) in c.legal_moves():
        assert (Adapted(test=1, source=source, destination=destination),) == decide(
            command, view_of(c)
        )
    else:
        with pytest.raises(DomainError):
            decide(command, view_of(c))


def test_adapt_with_no_tokens_left_is_impossible() -> None:
    """With every token removed by strain, adapting is recorded as impossible for lack of tokens."""
    c = seven_marks_struck_r3c2()
    c = history(*strained(1, 51, R3C1, 8), TokenRemoved(square=R3C1), start=c)
    c = history(*strained(1, 63, R3C3, 9), TokenRemoved(square=R3C3), start=c)
    assert (AdaptationImpossible(test=1, reason="no tokens"),) == decide(
        Adapt(character=c.name), view_of(c)
    )


@pytest.mark.parametrize("move", [("R3C1", "R3C1"), ("R3C1", "R3C2"), ("R3C3", "R1C1")])
def test_with_no_valid_destination_any_adapt_leaves_the_tokens(move: tuple[str, str]) -> None:
    """Adapting: "unless no valid destinations are available" the tokens stay, whatever is named."""
    c = seven_marks_struck_r3c2()
    assert () == c.legal_moves()
    assert (NO_MOVE_LEFT,) == decide(
        Adapt(character=c.name, source=move[0], destination=move[1]), view_of(c)
    )
