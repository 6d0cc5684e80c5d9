"""Initial Token Placement: each character's three tokens on its grid at the start of a scene,
on squares chosen or rolled."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource, d66, flip
from domain.plain import Plain
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.checks import check_can_place
from domain.rulesets.code_green.events import InitialTokensPlaced, TokenPlaced
from domain.rulesets.code_green.lookup import REROLL_LIMIT, ROLL, character, parse_square, settings
from domain.rulesets.code_green.tables import TOKENS, GridLayout, Square, square_for


@frozen(kw_only=True)
class PlaceTokens(Plain):
    """Place a character's three tokens at the start of a scene. Each goes on a square
    (R1C1..R3C3, or a pair such as Legs/Cryptic) or 'roll' for a d66 (an occupied square is
    flipped, then re-rolled)."""

    name: ClassVar[str] = "place"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    squares: tuple[str, ...]

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        check_can_place(c)
        if len(self.squares) != TOKENS:
            raise errors.NotThreeTokens(count=len(self.squares))
        layout = settings(view).grid
        picks: list[Square | None] = []
        for text in self.squares:
            square = None if text.strip().lower() == ROLL else parse_square(c, text)
            if square is not None and square in picks:
                raise errors.DuplicateSquare(square=square)
            if square is not None and square in c.marks:
                raise errors.SquareMarked(square=square)
            picks.append(square)
        taken = {s for s in picks if s is not None} | set(c.marks)
        events: list[TokenPlaced] = []
        for square in picks:
            if square is not None:
                events.append(TokenPlaced(square=square, rolled=False, attempts=(), flipped=False))
                continue
            placed = _roll_square(taken, layout, dice)
            taken.add(placed.square)
            events.append(placed)
        squares = tuple(e.square for e in events)
        done = InitialTokensPlaced(squares=squares)
        return tuple(Change(c.id, e) for e in (*events, done))


def _roll_square(taken: set[Square], layout: GridLayout, dice: DiceSource) -> TokenPlaced:
    """Roll d66 for a token; on an occupied square flip, if still occupied roll again (CG-A7)."""
    attempts: list[int] = []
    for _ in range(REROLL_LIMIT):
        value = d66(dice)
        for candidate, flipped in ((value, False), (flip(value), True)):
            attempts.append(candidate)
            square = square_for(candidate, layout)
            if square not in taken:
                return TokenPlaced(
                    square=square, rolled=True, attempts=tuple(attempts), flipped=flipped
                )
    raise errors.DuplicateSquare(square="every roll")
