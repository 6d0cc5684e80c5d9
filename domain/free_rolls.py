"""Free rolls: dice no rule names (a d6 to see if it rains), shared by every system.

The expression is written in the dice notation players know (``2d6+1``, ``4d6kh3``,
``1d20-1d4``) and read by Avrae's ``d20`` parser into its syntax tree; the tree is evaluated
here, so every die comes from the ruling's dice (``dice.roll(sides)``), never from the
library's own random numbers. What the tree may hold: dice (``NdS``, ``d%``), keep-highest and
keep-lowest (``khN``, ``klN``) and whole numbers, added and subtracted. Anything else is refused
naming it.

``adv`` or ``dis`` after one d20 (``d20+3 adv``, ``1d20 dis``, ``d20 adv+3``) is advantage or
disadvantage as the table says it: the d20 is read as ``2d20kh1`` or ``2d20kl1``
(``notation``), and that standard notation is what a roll records, so any reader of dice
notation checks it against the faces recorded beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import DomainError, ErrorKind
from domain.events import FreeRollMade, FreeRollTerm, Kept
from domain.limits import MAX_DICE, MAX_SIDES, MIN_SIDES
from domain.limits import MAX_EXPRESSION as MAX_LENGTH
from domain.plain import Plain


class UnreadableDiceNotation(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "{expression!r} is not dice notation ({problem}); write it as 2d6+1, 4d6kh3 or 1d20-1d4"
    )


class UnsupportedDiceNotation(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "{expression!r} uses {what}, which a free roll does not take: it adds and subtracts "
        "dice (NdS, d%, with khN or klN) and whole numbers"
    )


class FreeRollOutOfBounds(DomainError):
    template = (
        f"{{expression!r}} {{problem}}: a free roll rolls 1 to {MAX_DICE} dice of "
        f"{MIN_SIDES} to {MAX_SIDES} sides, written in at most {MAX_LENGTH} characters"
    )


class AdvantageWithoutOneD20(DomainError):
    template = (
        "{expression!r} says {word}, which rolls one d20 twice and keeps the {keeps} of the two: "
        "write it after a single d20 (d20+3 {word}, 1d20 {word})"
    )


@frozen(kw_only=True)
class Term(Plain):
    """One term of a free roll as read, before any die is rolled: ``count`` dice of ``sides``
    sides (all kept, or the ``keep`` highest or lowest), or the whole number ``number``."""

    subtracted: bool = False
    count: int = 0
    sides: int = 0
    kept: Kept = Kept.ALL
    keep: int = 0
    number: int = 0

    def roll(self, dice: DiceSource) -> FreeRollTerm:
        """The term as it comes out, its faces taken from ``dice`` in order."""
        if not self.count:
            return FreeRollTerm(subtracted=self.subtracted, value=self.number)
        faces = tuple(dice.roll(self.sides) for _ in range(self.count))
        dropped = dropped_positions(faces, self.kept, self.keep)
        return FreeRollTerm(
            subtracted=self.subtracted,
            count=self.count,
            sides=self.sides,
            kept=self.kept,
            keep=self.keep,
            faces=faces,
            dropped=dropped,
            value=sum(face for i, face in enumerate(faces) if i not in dropped),
        )


def dropped_positions(faces: tuple[int, ...], kept: Kept, keep: int) -> tuple[int, ...]:
    """The positions keep-highest or keep-lowest leaves out (of equal faces, the earlier die is
    kept)."""
    if kept is Kept.ALL:
        return ()
    sign = -1 if kept is Kept.HIGHEST else 1
    ranked = sorted(range(len(faces)), key=lambda i: (sign * faces[i], i))
    return tuple(sorted(ranked[keep:]))


# ``adv``/``dis`` (or the words in full) right after a d20, or ending an expression with one d20.
_WORD = r"(?P<word>adv(?:antage)?|dis(?:advantage)?)"
_A_D20 = r"(?<![\w%])1?d20(?![\w%])"
_AFTER_A_D20 = re.compile(rf"(?<![\w%])1?d20\s*{_WORD}(?!\w)", re.IGNORECASE)
_ENDING = re.compile(rf"(?P<rest>.*?)\s*(?<![\w%]){_WORD}\s*", re.IGNORECASE | re.DOTALL)
_D20 = re.compile(_A_D20, re.IGNORECASE)


def notation(text: str) -> str:
    """The expression in standard dice notation: ``adv``/``dis`` after one d20 read as
    ``2d20kh1``/``2d20kl1`` (``d20+3 adv`` is ``2d20kh1+3``); any other text as written
    (stripped). Advantage said of anything but one d20 is refused."""
    written = text.strip()
    inline = _AFTER_A_D20.sub(lambda m: _kept(m.group("word")), written)
    ending = _ENDING.fullmatch(inline)
    if ending is None:
        return inline
    rest, word = ending.group("rest"), ending.group("word")
    if inline != written or len(_D20.findall(rest)) != 1:  # said twice, or not of one d20
        keeps = "higher" if word.lower().startswith("adv") else "lower"
        raise AdvantageWithoutOneD20(expression=written, word=word, keeps=keeps)
    return _D20.sub(_kept(word), rest, count=1)


def _kept(word: str) -> str:
    return "2d20kh1" if word.lower().startswith("adv") else "2d20kl1"


def read_expression(text: str) -> tuple[Term, ...]:
    """The terms of a free roll's expression in the order written (``adv``/``dis`` read as
    ``notation`` reads them), checked against the bounds, or a refusal saying what is wrong."""
    typed = text.strip()
    if not typed:
        raise UnreadableDiceNotation(expression=text, problem="it is empty")
    if len(typed) > MAX_LENGTH:
        raise FreeRollOutOfBounds(expression=typed, problem=f"is {len(typed)} characters")
    written = notation(typed)
    if len(written) > MAX_LENGTH:
        raise FreeRollOutOfBounds(expression=written, problem=f"is {len(written)} characters")
    import d20  # here, not at the top: building its parser costs a `dice` a fifth of a second

    try:
        tree = d20.parse(written.lower())
    except d20.RollSyntaxError as error:
        raise UnreadableDiceNotation(expression=written, problem=_where(error)) from None
    except d20.RollError as error:
        raise UnreadableDiceNotation(expression=written, problem=str(error)) from None
    terms = tuple(_term(written, node, subtracted) for node, subtracted in _sum(tree.roll))
    _check_count(written, terms)
    return terms


def _where(error: Any) -> str:
    got = str(error.got)
    if not got:
        return "it ends too soon"
    return f"{got[:12]!r} at character {error.col} is not expected there"


def _sum(node: Any, subtracted: bool = False) -> Iterator[tuple[Any, bool]]:
    """The terms a sum or difference adds up (a minus flips the sign of what follows it)."""
    from d20 import ast

    if isinstance(node, ast.BinOp) and node.op in ("+", "-"):
        yield from _sum(node.left, subtracted)
        yield from _sum(node.right, subtracted != (node.op == "-"))
    elif isinstance(node, ast.UnOp) and node.op in ("+", "-"):
        yield from _sum(node.value, subtracted != (node.op == "-"))
    else:
        yield node, subtracted


def _term(written: str, node: Any, subtracted: bool) -> Term:
    from d20 import ast

    if isinstance(node, ast.Literal) and isinstance(node.value, int):
        return Term(subtracted=subtracted, number=int(node.value))
    if isinstance(node, ast.Dice):
        return _dice(written, node, subtracted)
    if isinstance(node, ast.OperatedDice) and isinstance(node.value, ast.Dice):
        (operation, *more) = node.operations
        (selector, *others) = operation.sels
        if operation.op == "k" and selector.cat in ("h", "l") and not more and not others:
            kept = Kept.HIGHEST if selector.cat == "h" else Kept.LOWEST
            return _dice(written, node.value, subtracted, kept=kept, keep=int(selector.num))
        what = "the dice operation " + repr("".join(str(o) for o in node.operations))
        raise UnsupportedDiceNotation(expression=written, what=what)
    raise UnsupportedDiceNotation(expression=written, what=_named(node))


def _dice(
    written: str, node: Any, subtracted: bool, *, kept: Kept = Kept.ALL, keep: int = 0
) -> Term:
    """A term of dice, checked: at least one die, of 2 to 1000 sides, keeping 1 to all."""
    count, sides = int(node.num), 100 if node.size == "%" else int(node.size)
    problem = None
    if count < 1:
        problem = f"rolls {count}d{sides}"
    elif not MIN_SIDES <= sides <= MAX_SIDES:
        problem = f"rolls a d{sides}"
    elif kept is not Kept.ALL and not 1 <= keep <= count:
        problem = f"keeps {keep} of {count}d{sides}"
    if problem is not None:
        raise FreeRollOutOfBounds(expression=written, problem=problem)
    return Term(subtracted=subtracted, count=count, sides=sides, kept=kept, keep=keep)


def _named(node: Any) -> str:
    """What an unsupported part of an expression is, as a user would call it."""
    from d20 import ast

    if isinstance(node, ast.BinOp):
        return f"the operator {node.op!r}"
    if isinstance(node, ast.Literal):
        return f"the fraction {node.value}"
    if isinstance(node, ast.Parenthetical | ast.NumberSet | ast.OperatedSet):
        return f"parentheses {str(node)!r}"
    if isinstance(node, ast.AnnotatedNumber):
        return f"the annotation {''.join(node.annotations)!r}"
    return repr(str(node))


def _check_count(written: str, terms: tuple[Term, ...]) -> None:
    count = sum(term.count for term in terms)
    if not count:
        raise FreeRollOutOfBounds(expression=written, problem="rolls no dice")
    if count > MAX_DICE:
        raise FreeRollOutOfBounds(expression=written, problem=f"rolls {count} dice")


@frozen(kw_only=True)
class RollFreely(Plain):
    """Roll dice no rule names, optionally saying why (a d6 to see if it rains): an expression
    in dice notation (2d6+1, 4d6kh3, 1d20-1d4+2, d%, d20+3 adv), rolled from the ruling's dice
    and recorded like every other roll, in standard notation.

    Dice are added and subtracted, with whole numbers; khN/klN keep the highest or lowest N
    of a term. At most 100 dice of 2 to 1000 sides."""

    name: ClassVar[str] = "dice"
    expression: str
    why: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        terms = read_expression(self.expression)
        rolled = tuple(term.roll(dice) for term in terms)
        made = FreeRollMade(
            expression=notation(self.expression),
            why=self.why.strip(),
            terms=rolled,
            total=sum(-t.value if t.subtracted else t.value for t in rolled),
        )
        return (Change(view.campaign.id, made),)
