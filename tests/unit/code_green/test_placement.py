"""Code Green's initial token placement (placement.py, R-CG-02): three tokens named or rolled
onto different squares (CG-A7), by the campaign's grid layout (CG-A1), never on a mark that
persists (CG-A4, CG-A13)."""

from __future__ import annotations

import pytest

from domain.errors import DomainError
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.commands import PlaceTokens
from domain.rulesets.code_green.events import TokenPlaced, TokensReturned
from tests.unit.code_green.conftest import (
    MARKED_R1C2,
    R1C1,
    R1C3,
    R2C2,
    R2C3,
    R3C1,
    R3C3,
    adapt,
    decide,
    end_scene,
    history,
    me,
    struck_and_incapacitated,
    view_of,
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


def test_two_rolled_tokens_on_the_same_square_flip_the_second() -> None:
    """R-CG-02, CG-A7: the second token rolled onto the first one's square (35, R2C2) flips to
    53 (R3C1)."""
    place = PlaceTokens(character="31415", squares=("roll", "roll", "R3C3"))
    events = decide(place, view_of(me()), (3, 5, 3, 5))
    assert cg.InitialTokensPlaced(squares=(R2C2, R3C1, R3C3)) == events[-1]
    assert cg.TokenPlaced(square=R3C1, rolled=True, attempts=(35, 53), flipped=True) == events[1]


def test_a_rolled_token_lands_by_the_campaign_grid_layout() -> None:
    """CG-A1 (gridRanges=die-per-axis): the tens die picks the row, the ones die the column, so
    d66 35 is R2C3 (it would be R2C2 on the contiguous grid)."""
    place = PlaceTokens(character="31415", squares=("roll", "R1C1", "R3C3"))
    events = decide(place, view_of(me(), gridRanges="die-per-axis"), (3, 5))
    rolled = cg.TokenPlaced(square=R2C3, rolled=True, attempts=(35,), flipped=False)
    assert (rolled, cg.InitialTokensPlaced(squares=(R2C3, R1C1, R3C3))) == (events[0], events[-1])


def test_a_token_may_not_be_placed_on_a_persisting_mark() -> None:
    """CG-A4 (marksPersistAcrossScenes): a marked square takes no token; the refusal names it."""
    c = me(*MARKED_R1C2, adapt(1, R1C1, R1C3), TokensReturned(squares=()))
    place = PlaceTokens(character="31415", squares=("R1C1", "Legs/Invulnerable", "R3C3"))
    with pytest.raises(DomainError) as raised:
        decide(place, view_of(c, marksPersistAcrossScenes="true"))
    expected = "SQUARE_MARKED: R1C2 is marked by strain; tokens may not be placed on marked squares"
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_rolled_placement_treats_a_persisting_mark_as_occupied() -> None:
    """CG-A13: a rolled token landing on a marked square flips (15 on R1C2 -> 51 on R3C1)."""
    c = struck_and_incapacitated()
    after = history(*end_scene(view_of(c, marksPersistAcrossScenes="true")), start=c)
    events = decide(
        PlaceTokens(character=c.name, squares=("roll", "R2C2", "R3C3")), view_of(after), (1, 5)
    )
    assert TokenPlaced(square=R3C1, rolled=True, attempts=(15, 51), flipped=True) == events[0]
