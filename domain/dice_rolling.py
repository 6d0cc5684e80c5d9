"""Rolling an expression read by ``domain.dice_notation``: every die drawn from the ruling's dice
(``dice.roll(sides)``) in the order d20 evaluates the tree (left to right, each dice's own
operations right after its dice), never from the library's random numbers.

The evaluation is d20's, written again over our own dice: the same values, with the same
rules for what a keep, drop, reroll, explosion, minimum or maximum touches (the values still
kept, ties taken in the order rolled), and the same arithmetic; the total is the integer part
of the value, as d20's. A reroll or an explosion is one more draw. What d20 leaves to the order
of a Python set (which of several dice selected at once is rerolled first) is the order rolled
here, so the same faces always give the same breakdown; the values are d20's either way.

The result is what a free roll records: the total, the faces in the order drawn (from which,
with the expression, anyone rolls it again: ``roll_notation(read, EnteredDice(faces))``), and
a breakdown a reader checks by eye (``[6,~1~,5,3] + 2``: a struck face does not count; a face
rerolled away is struck, ``6!`` exploded, ``1->2`` raised by a minimum).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from attrs import frozen

from domain.dice import DiceSource
from domain.dice_notation import Notation, sides_of
from domain.errors import DomainError
from domain.limits import MAX_DRAWS
from domain.plain import Plain
from domain.rolled_values import (
    Number,
    RolledBinary,
    RolledDice,
    RolledDie,
    RolledParens,
    RolledSet,
    RolledUnary,
    Value,
)


class TooManyDraws(DomainError):
    template = (
        "{what} would draw more than {limit} dice, the most a {whole} draws: its rerolls or "
        "explosions did not stop (as 1d6rr<7 or 1d6e>0 never do)"
    )


class DividesByZero(DomainError):
    template = "{expression!r} divides by zero, which has no value"


@frozen(kw_only=True)
class Rolled(Plain):
    """An expression as it came out: its total, every face in the order drawn, and how the
    total was reached."""

    total: int
    faces: tuple[int, ...]
    breakdown: str


class Limited:
    """A dice source that refuses a draw past ``limit`` (``TOO_MANY_DRAWS``)."""

    def __init__(self, dice: DiceSource, limit: int, what: str, whole: str) -> None:
        self.dice, self.limit, self.what, self.whole = dice, limit, what, whole
        self.drawn = 0

    def roll(self, sides: int) -> int:
        self.drawn += 1
        if self.drawn > self.limit:
            raise TooManyDraws(what=self.what, limit=self.limit, whole=self.whole)
        return self.dice.roll(sides)


def roll_notation(notation: Notation, dice: DiceSource) -> Rolled:
    """``notation`` rolled with ``dice``, at most ``MAX_DRAWS`` of them."""
    what = repr(notation.written)
    roller = _Roller(Limited(dice, MAX_DRAWS, what, "free roll"))
    try:
        value = roller.value(notation.tree.roll)
        total = int(value.number())
    except ZeroDivisionError:
        raise DividesByZero(expression=notation.written) from None
    return Rolled(total=total, faces=tuple(roller.faces), breakdown=breakdown(value))


class _Roller:
    """Turns d20's syntax tree into values, drawing each die as d20 would roll it."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.faces: list[int] = []

    def face(self, sides: int) -> Number:
        face = self.dice.roll(sides)
        self.faces.append(face)
        return Number(face)

    def die(self, sides: int) -> RolledDie:
        return RolledDie(self.face(sides))

    def value(self, node: Any) -> Value:
        kind = type(node).__name__
        if kind == "Literal":
            return Number(node.value)
        if kind == "Dice":
            sides = sides_of(node)
            return RolledDice(sides, [self.die(sides) for _ in range(int(node.num))])
        if kind == "NumberSet":
            return RolledSet([self.value(item) for item in node.values])
        if kind == "Parenthetical":
            return RolledParens(self.value(node.value))
        if kind == "UnOp":
            return RolledUnary(node.op, self.value(node.value))
        if kind == "BinOp":
            left = self.value(node.left)
            return RolledBinary(left, node.op, self.value(node.right))
        if kind == "AnnotatedNumber":
            annotated = self.value(node.value)
            annotated.annotation = "".join(node.annotations)
            return annotated
        # OperatedDice, OperatedSet: the dice or set, then each operation in turn
        target = self.value(node.value)
        for operation in node.operations:
            _OPERATIONS[operation.op](self, target, operation.sels)
        return target


# --- Operations: what each does to the values its selectors choose ------------------------------


def _chosen(selectors: Any, target: Value, most: int | None = None) -> list[Value]:
    """The kept values of ``target`` its selectors choose (any of them), in the order rolled;
    at most ``most`` (``ra``: the first each selector gives, in its own order)."""
    kept = target.kept_items()
    chosen: dict[int, Value] = {}
    for selector in selectors:
        if most is not None and len(chosen) >= most:
            break
        picked = _SELECT[selector.cat](kept, selector.num)
        if most is not None:
            picked = picked[: most - len(chosen)]
        chosen.update((id(value), value) for value in picked)
    return [value for value in kept if id(value) in chosen]


_SELECT: dict[str | None, Callable[[list[Value], int], list[Value]]] = {
    "h": lambda kept, n: sorted(kept, key=Value.total, reverse=True)[:n],
    "l": lambda kept, n: sorted(kept, key=Value.total)[:n],
    ">": lambda kept, n: [v for v in kept if v.total() > n],
    "<": lambda kept, n: [v for v in kept if v.total() < n],
    None: lambda kept, n: [v for v in kept if v.total() == n],
}


def _keep(roller: _Roller, target: Value, selectors: Any) -> None:
    chosen = {id(value) for value in _chosen(selectors, target)}
    for value in target.kept_items():
        if id(value) not in chosen:
            value.kept = False


def _drop(roller: _Roller, target: Value, selectors: Any) -> None:
    for value in _chosen(selectors, target):
        value.kept = False


def _dice(target: Value) -> RolledDice:
    assert isinstance(target, RolledDice)  # d20's grammar: rr, ro, ra, e, mi, ma on dice only
    return target


def _reroll(roller: _Roller, target: Value, selectors: Any) -> None:
    """``rr``: reroll the chosen dice until none is chosen."""
    chosen = _chosen(selectors, target)
    while chosen:
        _reroll_once(roller, target, selectors, chosen)
        chosen = _chosen(selectors, target)


def _reroll_once(
    roller: _Roller, target: Value, selectors: Any, chosen: list[Value] | None = None
) -> None:
    """``ro``: reroll the chosen dice once: each face rerolled is struck, the new one counts."""
    sides = _dice(target).sides
    for die in chosen if chosen is not None else _chosen(selectors, target):
        assert isinstance(die, RolledDie)
        die.faces[-1].kept = False
        die.faces.append(roller.face(sides))


def _explode(roller: _Roller, target: Value, selectors: Any) -> None:
    """``e``: one more die for each chosen die, and for each chosen among those, and so on."""
    dice = _dice(target)
    done: set[int] = set()
    chosen = _chosen(selectors, target)
    while chosen:
        for die in chosen:
            assert isinstance(die, RolledDie)
            die.faces[-1].exploded = True
            dice.dice.append(roller.die(dice.sides))
        done.update(id(die) for die in chosen)
        chosen = [die for die in _chosen(selectors, target) if id(die) not in done]


def _explode_once(roller: _Roller, target: Value, selectors: Any) -> None:
    """``ra``: one more die for the first chosen die, if any."""
    dice = _dice(target)
    for die in _chosen(selectors, target, most=1):
        assert isinstance(die, RolledDie)
        die.faces[-1].exploded = True
        dice.dice.append(roller.die(dice.sides))


def _bounded(
    beyond: Callable[[int | float, int], bool],
) -> Callable[[_Roller, Value, Any], None]:
    """``mi`` or ``ma``: each kept die beyond the number (its last selector) is set to it."""

    def bound(roller: _Roller, target: Value, selectors: Any) -> None:
        limit = selectors[-1].num
        for die in _dice(target).kept_items():
            if beyond(die.number(), limit):
                assert isinstance(die, RolledDie)
                die.faces[-1].values.append(limit)

    return bound


_OPERATIONS: dict[str, Callable[[_Roller, Value, Any], None]] = {
    "k": _keep,
    "p": _drop,
    "rr": _reroll,
    "ro": _reroll_once,
    "ra": _explode_once,
    "e": _explode,
    "mi": _bounded(lambda value, least: value < least),
    "ma": _bounded(lambda value, most: value > most),
}


# --- The breakdown -----------------------------------------------------------------------------


def breakdown(value: Value) -> str:
    """How the total was reached: a sum or difference as its terms (``[3,5] + 1``, a minus
    taken into the sign: ``1d4--1`` reads ``[2] + 1``), each term as ``Value.shown`` writes it."""
    terms = list(_signed(value, False))
    first, *rest = terms
    shown = [("-" if first[1] else "") + first[0].shown()]
    shown += [("- " if minus else "+ ") + term.shown() for term, minus in rest]
    return " ".join(shown)


def _signed(value: Value, minus: bool) -> Iterator[tuple[Value, bool]]:
    if isinstance(value, RolledBinary) and value.op in ("+", "-"):
        yield from _signed(value.left, minus)
        yield from _signed(value.right, minus != (value.op == "-"))
    elif isinstance(value, RolledUnary) and value.op in ("+", "-"):
        yield from _signed(value.value, minus != (value.op == "-"))
    else:
        yield value, minus
