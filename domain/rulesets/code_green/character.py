"""A Code Green character's state: its sheet, tokens, marks and the test it is in."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.plain import Plain
from domain.rulesets.code_green.tables import Form, Function, Square, square_at


@frozen(kw_only=True)
class Assist(Plain):
    helper: UUID
    square: Square


@frozen(kw_only=True)
class OpenTest(Plain):
    """The character's current test, from declaration until it has adapted."""

    number: int
    form: Form | None
    function: Function | None
    own_tokens: int
    assists: tuple[Assist, ...] = ()
    ruled_out: tuple[Assist, ...] = ()  # assists the GM ruled not applicable to this test
    rolled: bool = False
    strains: int = 0

    @property
    def pool(self) -> int:
        return self.own_tokens + len(self.assists)


@frozen(kw_only=True)
class CgCharacter(Plain):
    id: UUID
    name: str
    player: str
    form: tuple[Form, ...]
    function: tuple[Function, ...]
    tokens: frozenset[Square] = frozenset()
    marks: frozenset[Square] = frozenset()
    placed: bool = False
    incapacitated: bool = False
    test: OpenTest | None = None
    tests: int = 0
    displacement: Square | None = None

    @property
    def adaptation_pending(self) -> bool:
        return self.test is not None and self.test.rolled

    def pair(self, square: Square) -> tuple[Form, Function]:
        return self.form[square.row - 1], self.function[square.column - 1]

    def square_of(self, form: Form, function: Function) -> Square:
        return square_at(self.form.index(form) + 1, self.function.index(function) + 1)

    def free_squares(self) -> tuple[Square, ...]:
        """Squares a token may move to: no token and no strain mark."""
        return tuple(s for s in Square if s not in self.tokens and s not in self.marks)

    def legal_moves(self) -> tuple[tuple[Square, Square], ...]:
        return tuple((a, b) for a in sorted(self.tokens) for b in self.free_squares())
