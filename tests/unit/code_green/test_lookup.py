"""How Code Green names a square (lookup.py): R1C2 in any case, or by its Form and Function pair
in either order (R-CG-06)."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.errors import DomainError
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import Adapt
from domain.rulesets.code_green.lookup import parse_square
from domain.rulesets.code_green.tables import Form, Function, Square
from tests.conftest import S1_FORM, S1_FUNCTION
from tests.unit.code_green.conftest import PENDING, R1C1, R1C2, decide, me, view_of


@pytest.mark.parametrize(
    ("form", "function", "text", "expected"),
    [
        pytest.param(
            ("Guts", "Lungs", "Blood"),
            ("Auxiliary", "Toxic", "Phasing"),
            "Guts/Auxiliary",
            "R1C1",
            id="auxiliary-holds-an-x",
        ),
        pytest.param(
            ("Guts", "Lungs", "Blood"),
            ("Auxiliary", "Toxic", "Phasing"),
            "Toxic Lungs",
            "R2C2",
            id="toxic-holds-an-x",
        ),
        pytest.param(S1_FORM, S1_FUNCTION, "Legs x Cryptic", "R1C1", id="x-as-a-word-separates"),
        pytest.param(S1_FORM, S1_FUNCTION, "Teeth×Phasing", "R3C3", id="times-sign-separates"),
    ],
)
def test_a_square_is_named_by_its_pair(
    form: tuple[str, ...], function: tuple[str, ...], text: str, expected: str
) -> None:
    """A pair names its square whatever letters its traits hold: 'x' separates only as a word."""
    c = CgCharacter(
        id=uuid4(),
        name="11111",
        player="p",
        form=tuple(Form(f) for f in form),
        function=tuple(Function(f) for f in function),
    )
    assert Square(expected) == parse_square(c, text)


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


def test_a_token_may_be_moved_by_naming_the_pairs_of_its_squares() -> None:
    """R-CG-06: Adapt names squares as on the sheet: Legs/Cryptic is R1C1, Legs/Invulnerable
    R1C2 for the S1 character (Form row x Function column)."""
    adapt_by_pairs = Adapt(
        character="31415", source="Legs/Cryptic", destination="Legs/Invulnerable"
    )
    assert (cg.Adapted(test=1, source=R1C1, destination=R1C2),) == decide(
        adapt_by_pairs, view_of(me(*PENDING))
    )


def test_a_pair_not_on_the_sheet_names_no_square() -> None:
    """R-CG-06: Legs and Wings (not this character's Function) name no square of its grid."""
    with pytest.raises(DomainError) as raised:
        decide(
            Adapt(character="31415", source="R1C1", destination="Legs/Wings"),
            view_of(me(*PENDING)),
        )
    assert "UNKNOWN_SQUARE" == raised.value.code
