"""Code Green's strain (strain.py, R-CG-05): strain from a rolled test (CG-A8), one per test by
default (CG-A9), the struck token displaced or removed, incapacitation, and the GM's Recover
(R-CG-07)."""

from __future__ import annotations

import pytest

from domain.dice import EnteredDice
from domain.errors import DomainError
from domain.events import Event
from domain.rulesets.code_green import errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.commands import DisplaceToken, Recover, SufferStrain
from domain.rulesets.code_green.events import (
    Adapted,
    Incapacitated,
    StrainRolled,
    StrainSuffered,
    TokenRemoved,
)
from domain.rulesets.code_green.tables import GridLayout, Square
from tests.unit.code_green.conftest import (
    CONTIGUOUS,
    DECLARED,
    DISPLACING,
    INCAPACITATED,
    MARKED_R1C2,
    PENDING,
    PLACED,
    R1C1,
    R1C2,
    R1C3,
    R2C1,
    R2C2,
    R2C3,
    R3C1,
    R3C2,
    R3C3,
    WELL,
    decide,
    displace,
    history,
    me,
    placed,
    rolled_test,
    strained,
    view_of,
)


def test_strain_without_a_rolled_test_is_refused_by_default() -> None:
    """Strain is a consequence of a test (CG-A8): outside one it is refused."""
    c = history(*PLACED)
    with pytest.raises(errors.NoTestForStrain):
        decide(SufferStrain(character=c.name), view_of(c), (1, 5))


def test_strain_comes_from_a_rolled_test_not_a_declared_one() -> None:
    """R-CG-05, CG-A8: strain is a consequence of a test's roll; a test only declared causes
    none (without allowEnvironmentalStrain)."""
    with pytest.raises(DomainError) as raised:
        decide(SufferStrain(character="31415"), view_of(me(*DECLARED)), (1, 1))
    assert "NO_TEST_FOR_STRAIN" == raised.value.code


def test_environmental_strain_is_allowed_by_house_rule() -> None:
    """With allowEnvironmentalStrain the GM may strain a character outside any test."""
    c = history(*PLACED)
    events = decide(
        SufferStrain(character=c.name), view_of(c, allowEnvironmentalStrain="true"), (1, 5)
    )
    assert strained(None, 15, R1C2, 1) == events
    assert frozenset({R1C2}) == history(*events, start=c).marks


def test_one_strain_per_test_by_default() -> None:
    """A test causes at most one strain unless maxStrainPerTest says otherwise (CG-A9)."""
    c = history(*PENDING, *strained(1, 15, R1C2, 1))
    with pytest.raises(errors.StrainLimitReached) as raised:
        decide(SufferStrain(character=c.name), view_of(c), (2, 3))
    assert {"test": 1, "count": 1, "limit": 1} == raised.value.data


@pytest.mark.parametrize("limit", ["2", "0"])
def test_more_strain_per_test_by_house_rule(limit: str) -> None:
    """maxStrainPerTest 2 (or 0, no limit) lets the same test cause a second strain."""
    c = history(*PENDING, *strained(1, 15, R1C2, 1))
    events = decide(SufferStrain(character=c.name), view_of(c, maxStrainPerTest=limit), (2, 3))
    assert strained(1, 23, R1C3, 2) == events


def test_strain_limit_counts_every_strain_of_the_test() -> None:
    """With maxStrainPerTest 2 the third strain of one test is refused; 0 never refuses."""
    c = history(*PENDING, *strained(1, 15, R1C2, 1), *strained(1, 23, R1C3, 2))
    with pytest.raises(errors.StrainLimitReached):
        decide(SufferStrain(character=c.name), view_of(c, maxStrainPerTest="2"), (3, 1))
    assert strained(1, 31, R2C1, 3) == decide(
        SufferStrain(character=c.name), view_of(c, maxStrainPerTest="0"), (3, 1)
    )


@pytest.mark.parametrize(
    ("layout", "square"),
    [(GridLayout.CONTIGUOUS, R1C1), (GridLayout.DIE_PER_AXIS, R1C2)],
)
def test_grid_ranges_house_rule_picks_the_square_struck(layout: GridLayout, square: Square) -> None:
    """d66 13 strikes R1C1 on the contiguous grid and R1C2 when each die picks an axis."""
    c = history(*placed(R3C1, R3C2, R3C3), *rolled_test(1))
    events = decide(SufferStrain(character=c.name), view_of(c, gridRanges=layout.value), (1, 3))
    assert strained(1, 13, square, 1) == events


@pytest.mark.parametrize(
    ("marked", "then"),
    [
        pytest.param(
            (R1C1, R1C2, R1C3, R2C1, R2C2),
            (StrainSuffered(square=R3C2, marks=6), displace(R3C2, R2C3)),
            id="3-unmarked-left-token-moves",
        ),
        pytest.param(
            (R1C1, R1C2, R1C3, R2C1, R2C2, R2C3),
            (StrainSuffered(square=R3C2, marks=7), TokenRemoved(square=R3C2)),
            id="2-unmarked-left-token-removed",
        ),
    ],
)
def test_struck_token_moves_unless_fewer_than_three_unmarked_remain(
    marked: tuple[Square, ...], then: tuple[Event, ...]
) -> None:
    """With exactly three unmarked squares left the struck token still moves; with two it goes."""
    marks: list[Event] = []
    for n, square in enumerate(marked, start=1):
        marks += strained(None, CONTIGUOUS[square][0], square, n)
    c = history(*placed(R3C1, R3C2, R3C3), *marks, *rolled_test(1))
    events = decide(SufferStrain(character=c.name, destination="R2C3"), view_of(c), (5, 5))
    assert (StrainRolled(test=1, d66=55, square=R3C2), *then) == events


def test_a_struck_token_may_be_displaced_to_a_square_named_by_its_pair() -> None:
    """R-CG-05: the token strain struck on R1C1 moves to the square the player names, here by
    its pair (Legs/Invulnerable is R1C2)."""
    displace = DisplaceToken(character="31415", destination="Invulnerable Legs")
    assert (cg.TokenDisplaced(source=R1C1, destination=R1C2),) == decide(
        displace, view_of(me(*DISPLACING))
    )


def test_strain_on_a_marked_square_incapacitates_without_a_new_mark() -> None:
    """A second strike on a marked square incapacitates; marks and tokens stay as they were."""
    c = history(*MARKED_R1C2, Adapted(test=1, source=R1C1, destination=R1C3), *rolled_test(2))
    events = decide(SufferStrain(character=c.name), view_of(c), (2, 1))
    assert (StrainRolled(test=2, d66=21, square=R1C2), Incapacitated(square=R1C2, d66=21)) == events
    after = history(*events, start=c)
    assert (True, c.marks, c.tokens) == (after.incapacitated, after.marks, after.tokens)


def test_strain_on_an_incapacitated_character_is_refused() -> None:
    """Further strain has no effect once incapacitated, so it is refused."""
    c = history(*INCAPACITATED)
    with pytest.raises(errors.AlreadyIncapacitated):
        decide(SufferStrain(character=c.name), view_of(c, allowEnvironmentalStrain="true"), (1, 1))


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


def test_recover_refuses_a_character_that_is_not_incapacitated() -> None:
    """Only an incapacitated character can recover."""
    c = history(*PLACED)
    with pytest.raises(errors.NotIncapacitated):
        decide(Recover(character=c.name), view_of(c))
