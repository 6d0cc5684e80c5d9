"""The values an expression comes out as while it is rolled (``domain.dice_rolling``), as d20
keeps them: each counted unless dropped, its number read when asked, so that an operation later
in the expression (a keep on a set around these dice) sees what earlier ones left.

They change while the expression is rolled, and only then: what a roll records is the total,
the faces and the breakdown ``shown`` writes (``~3~``: a face that does not count).
"""

from __future__ import annotations

import operator
from collections.abc import Callable

Num = int | float


class Value:
    """A value of the expression: counted unless dropped (``kept``), with its annotation. Its
    ``number`` adds up the kept values it is made of (``items``); ``total`` is the number, or
    0 when it was dropped."""

    __slots__ = ("annotation", "kept")

    def __init__(self) -> None:
        self.kept = True
        self.annotation = ""

    def items(self) -> list[Value]:
        return [self]

    def kept_items(self) -> list[Value]:
        return [item for item in self.items() if item.kept]

    def number(self) -> Num:
        return sum(item.number() for item in self.kept_items())

    def total(self) -> Num:
        return self.number() if self.kept else 0

    def shown(self, struck: bool = False) -> str:
        """The value as the breakdown writes it: struck (``~...~``) when dropped, unless what
        holds it is struck already."""
        text = self.inside(struck or not self.kept)
        if self.annotation:
            text = f"{text} {self.annotation}"
        return text if self.kept or struck else f"~{text}~"

    def inside(self, struck: bool) -> str:
        raise NotImplementedError


class Number(Value):
    """A number written in the expression, or a face as it came up: its values in turn (a
    minimum or maximum sets a new one), exploded when it added a die."""

    __slots__ = ("exploded", "values")

    def __init__(self, value: Num) -> None:
        super().__init__()
        self.values = [value]
        self.exploded = False

    def number(self) -> Num:
        return self.values[-1]

    def inside(self, struck: bool) -> str:
        return "->".join(map(str, self.values)) + ("!" if self.exploded else "")


class RolledDie(Value):
    """One die: the faces it showed, in turn (a reroll strikes the face and adds one)."""

    __slots__ = ("faces",)

    def __init__(self, face: Number) -> None:
        super().__init__()
        self.faces = [face]

    def items(self) -> list[Value]:
        return [self.faces[-1]]

    def number(self) -> Num:
        return self.faces[-1].total()

    def shown(self, struck: bool = False) -> str:
        """Its faces in turn, each struck that does not count (rerolled away, or the die
        dropped), unless what holds the die is struck already."""
        return ",".join(
            face.inside(struck) if struck or (face.kept and self.kept) else f"~{face.inside(True)}~"
            for face in self.faces
        )

    def inside(self, struck: bool) -> str:
        return self.shown(struck)


class RolledDice(Value):
    """Dice of ``sides`` sides (``NdS``, with what explosions added): ``[3,5]``."""

    __slots__ = ("dice", "sides")

    def __init__(self, sides: int, dice: list[RolledDie]) -> None:
        super().__init__()
        self.sides = sides
        self.dice = dice

    def items(self) -> list[Value]:
        return list(self.dice)

    def inside(self, struck: bool) -> str:
        return "[" + ",".join(die.shown(struck) for die in self.dice) + "]"


class RolledSet(Value):
    """A set ``(a, b, ...)``: its items, each counted unless dropped."""

    __slots__ = ("values",)

    def __init__(self, values: list[Value]) -> None:
        super().__init__()
        self.values = values

    def items(self) -> list[Value]:
        return self.values

    def inside(self, struck: bool) -> str:
        shown = ", ".join(value.shown(struck) for value in self.values)
        return f"({shown},)" if len(self.values) == 1 else f"({shown})"


class RolledParens(Value):
    """``(x)``: x, whose own items a keep or drop on the parentheses chooses among."""

    __slots__ = ("value",)

    def __init__(self, value: Value) -> None:
        super().__init__()
        self.value = value

    def items(self) -> list[Value]:
        return self.value.items()

    def total(self) -> Num:
        return self.value.total() if self.kept else 0

    def inside(self, struck: bool) -> str:
        return f"({self.value.shown(struck)})"


_UNARY: dict[str, Callable[[Num], Num]] = {"+": operator.pos, "-": operator.neg}


class RolledUnary(Value):
    """``-x`` or ``+x``."""

    __slots__ = ("op", "value")

    def __init__(self, op: str, value: Value) -> None:
        super().__init__()
        self.op = op
        self.value = value

    def number(self) -> Num:
        return _UNARY[self.op](self.value.total())

    def inside(self, struck: bool) -> str:
        return f"{self.op}{self.value.shown(struck)}"


def _compared(test: Callable[[Num, Num], bool]) -> Callable[[Num, Num], Num]:
    return lambda left, right: int(test(left, right))


_BINARY: dict[str, Callable[[Num, Num], Num]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "<": _compared(operator.lt),
    ">": _compared(operator.gt),
    "==": _compared(operator.eq),
    ">=": _compared(operator.ge),
    "<=": _compared(operator.le),
    "!=": _compared(operator.ne),
}


class RolledBinary(Value):
    """``x op y``: arithmetic, or a comparison (1 when it holds, else 0). A division by zero
    raises ``ZeroDivisionError`` when the number is read, as d20 reads it."""

    __slots__ = ("left", "op", "right")

    def __init__(self, left: Value, op: str, right: Value) -> None:
        super().__init__()
        self.left = left
        self.op = op
        self.right = right

    def number(self) -> Num:
        return _BINARY[self.op](self.left.total(), self.right.total())

    def inside(self, struck: bool) -> str:
        return f"{self.left.shown(struck)} {self.op} {self.right.shown(struck)}"
