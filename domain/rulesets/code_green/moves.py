"""Code Green's reading of the state for the table's actions (``domain.moves``): each verb's
refusal by the state is its ``decide``'s own first checks; a test waits for its assists and
roll, then its strain and the adaptation owed, and a struck token must move first."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import View
from domain.moves import Moves
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.checks import (
    check_adaptation,
    check_can_place,
    check_displacement,
    check_incapacitated,
)
from domain.rulesets.code_green.making_tests import (
    check_assisted,
    check_can_declare,
    check_may_assist,
    check_unrolled,
    open_test_holder,
)
from domain.rulesets.code_green.strain import strained_test


def _place(view: View, c: CgCharacter) -> None:
    view.campaign.require_scene()
    check_can_place(c)


def _roll(view: View, c: CgCharacter) -> None:
    view.campaign.require_scene()
    check_unrolled(c)


def expected(view: View, c: CgCharacter) -> Sequence[str]:
    """What the scene waits for from ``c``: its struck token moved, its test rolled, then
    strain ruled and its adaptation; another's test assisted; its tokens placed; a test."""
    if view.campaign.scene is None:
        return ()
    if c.displacement is not None:
        return ("displace",)
    if c.test is not None:
        return ("adapt", "strain") if c.test.rolled else ("roll", "assist")
    if open_test_holder(view) is not None:
        return ("assist", "reject-assist", "roll")
    if not c.placed:
        return ("place",)
    return ("test",)


MOVES = Moves(
    checks={
        "test": check_can_declare,
        "assist": check_may_assist,
        "reject-assist": check_assisted,
        "roll": _roll,
        "adapt": lambda view, c: check_adaptation(c),
        "strain": strained_test,
        "displace": lambda view, c: check_displacement(c),
        "place": _place,
        "recover": lambda view, c: check_incapacitated(c),
    },
    expected=expected,
)
