"""Code Green's reading of the state for the table's actions (``moves.py``): what a test waits
for from each character, and the verbs the state refuses before any parameter."""

from __future__ import annotations

import attrs
import pytest

from domain.moves import moves_now
from domain.rulesets.code_green import RULESET
from domain.rulesets.code_green.moves import expected
from tests.unit.code_green.conftest import (
    BOB_PLACED,
    DECLARED,
    DISPLACING,
    INCAPACITATED,
    PENDING,
    PLACED,
    bob,
    me,
    view_of,
)

VERBS = (
    "test",
    "assist",
    "reject-assist",
    "roll",
    "adapt",
    "strain",
    "displace",
    "place",
    "recover",
)


def _now(view, *characters) -> list[tuple[str, bool]]:
    return [(m.verb, m.expected) for m in moves_now(RULESET.moves, view, VERBS, characters)]


@pytest.mark.parametrize(
    ("events", "waits"),
    [
        ((), ("place",)),
        (PLACED, ("test",)),
        (DECLARED, ("roll", "assist")),
        (PENDING, ("adapt", "strain")),
        (DISPLACING, ("displace",)),
    ],
    ids=["unplaced", "placed", "declared", "rolled", "struck"],
)
def test_what_a_character_is_expected_to_do(events, waits) -> None:
    """Tokens to place, then a test; its roll; its adaptation (and the GM's strain); a struck
    token's move first."""
    c = me(*events)
    assert waits == tuple(expected(view_of(c), c))


def test_nothing_is_expected_out_of_a_scene() -> None:
    """Between scenes nothing waits."""
    c = me(*PLACED)
    view = view_of(c)
    view.campaign = attrs.evolve(view.campaign, scene=None)
    assert () == tuple(expected(view, c))
    assert [] == [v for v, _ in _now(view, c) if v in ("test", "roll", "place", "strain")]


def test_another_characters_test_is_assisted() -> None:
    """alice's test declared: bob is expected to assist (or the GM to rule an assist out or
    roll); bob may not declare a test of his own."""
    alice, helper = me(*DECLARED), bob(*BOB_PLACED)
    view = view_of(alice, helper)
    assert ("assist", "reject-assist", "roll") == tuple(expected(view, helper))
    assert [("assist", True)] == _now(view, helper)


def test_a_placed_character_with_no_test_open_may_test() -> None:
    """Tokens placed, no test open: only a test is offered, and expected."""
    c = me(*PLACED)
    assert [("test", True)] == _now(view_of(c), c)


def test_the_tester_rolls_and_nothing_else() -> None:
    """A declared test: its tester is offered its roll alone (no new test, no adaptation yet)."""
    c = me(*DECLARED)
    assert [("roll", True)] == _now(view_of(c), c)


def test_after_the_roll_adaptation_and_strain() -> None:
    """After the roll: the adaptation owed and the GM's strain, both expected."""
    c = me(*PENDING)
    assert [("adapt", True), ("strain", True)] == _now(view_of(c), c)


def test_a_struck_token_moves_first() -> None:
    """Strain struck a token: it must move before the adaptation."""
    c = me(*DISPLACING)
    assert [("displace", True)] == _now(view_of(c), c)


def test_an_incapacitated_character_recovers() -> None:
    """Incapacitated: the GM's recovery is offered; no test, no strain."""
    c = me(*INCAPACITATED)
    verbs = [v for v, _ in _now(view_of(c), c)]
    assert "recover" in verbs
    assert not {"test", "strain"} & set(verbs)


def test_unplaced_tokens_are_placed() -> None:
    """A scene begun, tokens in hand: placing them is all there is to do."""
    c = me()
    assert [("place", True)] == _now(view_of(c), c)


def test_no_character_no_character_verbs() -> None:
    """With no character to act as, a verb a character does is not offered."""
    assert [] == _now(view_of(me(*PLACED)))
