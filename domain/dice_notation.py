"""Dice notation as Avrae's ``d20`` library writes it, read into its syntax tree and held to the
bounds of a free roll before any die is rolled (``domain.dice_rolling`` rolls it).

The notation (d20's grammar, all of it): dice ``NdS`` and ``d%`` (a d100 here: see below),
whole and decimal numbers, sets ``(1d4, 2d6)`` and parentheses ``(1d8+4)``; on dice and sets,
keep ``k`` and drop ``p``; on dice only, reroll until ``rr``, reroll once ``ro``, reroll and
add ``ra``, explode ``e``, minimum ``mi`` and maximum ``ma``; each operation takes a selector:
``hN`` (the highest N), ``lN`` (the lowest N), ``>N``, ``<N`` or ``N`` (the values equal to
N); ``+ - * / // %``, the comparisons ``== != < > <= >=`` (1 when true, 0 when false) and
annotations ``[fire]``, which only label.

``d%`` is a d100 (1 to 100), as tables and the rules mean it and as free rolls always rolled
it; d20 alone reads it as a tens die (0, 10, ... 90): write ``(1d10-1)*10`` for that one.

Refused, naming what: what is not the notation (``UNREADABLE_DICE_NOTATION``), dice outside a
free roll's bounds (``FREE_ROLL_OUT_OF_BOUNDS``), and a keep or drop of more of the highest or
lowest than a set holds, or of none (``KEEP_OR_DROP_OUT_OF_RANGE``: ``4d6kh5``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from attrs import frozen

from domain.errors import DomainError, ErrorKind
from domain.limits import MAX_DICE, MAX_SIDES, MIN_SIDES
from domain.limits import MAX_EXPRESSION as MAX_LENGTH
from domain.plain import Plain

PERCENT = 100  # the sides of ``d%``

EXAMPLES = "2d6+1, 4d6kh3, 1d20-1d4, 4d6ro1, 2d6e6 or (1d6, 1d8)kh1"


class UnreadableDiceNotation(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = f"{{expression!r}} is not dice notation ({{problem}}); write it as {EXAMPLES}"


class FreeRollOutOfBounds(DomainError):
    template = (
        f"{{expression!r}} {{problem}}: a free roll rolls 1 to {MAX_DICE} dice of "
        f"{MIN_SIDES} to {MAX_SIDES} sides, written in at most {MAX_LENGTH} characters"
    )


class KeepOrDropOutOfRange(DomainError):
    template = (
        "{expression!r} {does} the {which} {count} of {target}, which has {size} {values}: "
        "{verb} the {which} {allowed}"
    )


@frozen(kw_only=True)
class Notation(Plain):
    """An expression as read: the text (standard notation) and d20's syntax tree of it, whose
    dice are all within bounds (``dice`` of them written)."""

    written: str
    tree: Any  # d20's ast.Expression; only read, never changed
    dice: int


_ANNOTATION = re.compile(r"(\[.*?\])")  # as d20's grammar reads one


def parse(written: str) -> Any:
    """d20's syntax tree of ``written`` (standard notation), its letters read in either case
    (an annotation kept as written), or ``UNREADABLE_DICE_NOTATION`` saying where it stops."""
    import d20  # here, not at the top: building its parser costs a `dice` a fifth of a second

    pieces = _ANNOTATION.split(written)
    text = "".join(p if i % 2 else p.lower() for i, p in enumerate(pieces))
    try:
        return d20.Roller().parse(text)  # a Roller of its own: d20's cache mixes annotations
    except d20.RollSyntaxError as error:
        problem = _where(error, written if len(text) == len(written) else text)
        raise UnreadableDiceNotation(expression=written, problem=problem) from None
    except d20.RollError as error:
        raise UnreadableDiceNotation(expression=written, problem=str(error)) from None


@functools.lru_cache(maxsize=512)
def read_notation(written: str) -> Notation:
    """``written`` (standard notation, stripped, at most ``MAX_LENGTH`` characters) parsed and
    checked: dice within bounds, operations that mean something. A table rolls the same few
    expressions: each is read once a process (a notation is immutable, its tree only read; a
    refusal is raised again each time)."""
    tree = parse(written)
    count = 0
    for node in _nodes(tree.roll):
        count += _check(written, node)
    if not count:
        raise FreeRollOutOfBounds(expression=written, problem="rolls no dice")
    if count > MAX_DICE:
        raise FreeRollOutOfBounds(expression=written, problem=f"rolls {count} dice")
    return Notation(written=written, tree=tree, dice=count)


def _where(error: Any, text: str) -> str:
    """Where the parser stopped in ``text``, what it found there as written."""
    if not str(error.got):
        return "it ends too soon"
    found = text[error.col - 1 :][: len(str(error.got))][:12]
    return f"{found!r} at character {error.col} is not expected there"


def _nodes(node: Any) -> Iterator[Any]:
    """Every node of the tree under ``node`` (itself first)."""
    yield node
    for child in node.children:
        yield from _nodes(child)


def sides_of(dice: Any) -> int:
    """The sides of a d20 ``Dice`` node (``d%`` is a d100)."""
    return PERCENT if dice.size == "%" else int(dice.size)


def _check(written: str, node: Any) -> int:
    """The dice ``node`` writes (0 unless it is dice), refused when out of bounds; its
    operations checked."""
    kind = type(node).__name__
    if kind in ("OperatedDice", "OperatedSet"):
        _check_operations(written, node)
    if kind != "Dice":
        return 0
    count, sides = int(node.num), sides_of(node)
    if count < 1:
        raise FreeRollOutOfBounds(expression=written, problem=f"rolls {count}d{node.size}")
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise FreeRollOutOfBounds(expression=written, problem=f"rolls a d{sides}")
    return count


_DOES = {"k": ("keeps", "keep"), "p": ("drops", "drop")}
_WHICH = {"h": "highest", "l": "lowest"}
_BOUND = {"mi": "at least", "ma": "at most"}


def _check_operations(written: str, node: Any) -> None:
    """``mi`` and ``ma`` take a number (d20 refuses ``mil1``); a keep or drop of the highest or
    lowest N takes 1 to as many as the set has, unless ``e`` or ``ra`` before it added dice."""
    grows = False
    for operation in node.operations:
        op = operation.op
        if op in _BOUND:
            selector = operation.sels[-1]
            if selector.cat is not None:
                problem = (
                    f"{op} sets each die to {_BOUND[op]} a number, as in {op}2, not {op}{selector}"
                )
                raise UnreadableDiceNotation(expression=written, problem=problem)
        grows = grows or op in ("e", "ra")
        if op not in _DOES or grows:  # after e or ra, a set holds as many as came up
            continue
        sized = _size(node.value)
        if sized is None:
            continue
        size, noun = sized
        values = noun if size != 1 else {"dice": "die", "values": "value"}[noun]
        for selector in operation.sels:
            if selector.cat in _WHICH and not 1 <= selector.num <= size:
                does, verb = _DOES[op]
                raise KeepOrDropOutOfRange(
                    expression=written,
                    does=does,
                    verb=verb,
                    which=_WHICH[selector.cat],
                    count=selector.num,
                    target=str(node.value),
                    size=size,
                    values=values,
                    allowed="1" if size == 1 else f"1 to {size}",
                )


def _size(node: Any) -> tuple[int, str] | None:
    """How many values a keep or drop on ``node`` chooses among, and what they are: a die
    each for dice (None when ``e`` or ``ra`` may add more), an item each for a set, one for
    anything else."""
    kind = type(node).__name__
    if kind == "Dice":
        return int(node.num), "dice"
    if kind == "OperatedDice":
        if any(operation.op in ("e", "ra") for operation in node.operations):
            return None
        return int(node.value.num), "dice"
    if kind == "NumberSet":
        return len(node.values), "values"
    if kind in ("Parenthetical", "AnnotatedNumber", "OperatedSet"):
        return _size(node.value)
    return 1, "values"
