"""Free rolls: dice no rule names (a d6 to see if it rains), shared by every system.

The expression is written in the dice notation players know (``2d6+1``, ``4d6kh3``,
``1d20-1d4``, ``4d6ro1``, ``2d6e6``, ``(1d6, 1d8)kh1``: all of Avrae's, ``domain.dice_notation``)
and read by Avrae's ``d20`` parser into its syntax tree; the tree is rolled by
``domain.dice_rolling``, so every die comes from the ruling's dice (``dice.roll(sides)``), never
from the library's own random numbers, and a reroll or an explosion is one more die drawn.

``adv`` or ``dis`` after one d20 (``d20+3 adv``, ``1d20 dis``, ``d20 adv+3``) is advantage or
disadvantage as the table says it: the d20 is read as ``2d20kh1`` or ``2d20kl1``
(``notation``), and that standard notation is what a roll records, so any reader of dice
notation checks it against the faces recorded beside it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.dice_notation import (
    FreeRollOutOfBounds,
    Notation,
    UnreadableDiceNotation,
    read_notation,
)
from domain.dice_notation import KeepOrDropOutOfRange as KeepOrDropOutOfRange  # refused here too
from domain.dice_rolling import DividesByZero as DividesByZero
from domain.dice_rolling import Rolled, roll_notation
from domain.dice_rolling import TooManyDraws as TooManyDraws
from domain.errors import DomainError
from domain.events import FreeRollMade
from domain.limits import MAX_EXPRESSION as MAX_LENGTH
from domain.plain import Plain


class AdvantageWithoutOneD20(DomainError):
    template = (
        "{expression!r} says {word}, which rolls one d20 twice and keeps the {keeps} of the two: "
        "write it after a single d20 (d20+3 {word}, 1d20 {word})"
    )


# ``adv``/``dis`` (or the words in full) right after a d20, or ending an expression with one d20;
# the d20 may reroll, explode or be held to a minimum or maximum first (``1d20ro1 adv``).
_WORD = r"(?P<word>adv(?:antage)?|dis(?:advantage)?)"
_OPS = r"(?P<ops>(?:(?:rr|ro|ra|mi|ma|e)[hl<>]?\d+)*)"
_A_D20 = rf"(?<![\w%])1?d20{_OPS}(?![\w%])"
_AFTER_A_D20 = re.compile(rf"(?<![\w%])1?d20{_OPS}\s*{_WORD}(?!\w)", re.IGNORECASE)
_ENDING = re.compile(rf"(?P<rest>.*?)\s*(?<![\w%]){_WORD}\s*", re.IGNORECASE | re.DOTALL)
_D20 = re.compile(_A_D20, re.IGNORECASE)


def notation(text: str) -> str:
    """The expression in standard dice notation: ``adv``/``dis`` after one d20 read as
    ``2d20kh1``/``2d20kl1`` (``d20+3 adv`` is ``2d20kh1+3``, ``1d20ro1 adv`` is
    ``2d20ro1kh1``); any other text as written (stripped). Advantage said of anything but one
    d20 is refused."""
    written = text.strip()
    inline = _AFTER_A_D20.sub(lambda m: _kept(m.group("word"), m.group("ops")), written)
    ending = _ENDING.fullmatch(inline)
    if ending is None:
        return inline
    rest, word = ending.group("rest"), ending.group("word")
    if inline != written or len(_D20.findall(rest)) != 1:  # said twice, or not of one d20
        keeps = "higher" if word.lower().startswith("adv") else "lower"
        raise AdvantageWithoutOneD20(expression=written, word=word, keeps=keeps)
    return _D20.sub(lambda m: _kept(word, m.group("ops")), rest, count=1)


def _kept(word: str, ops: str) -> str:
    return f"2d20{ops}k{'h' if word.lower().startswith('adv') else 'l'}1"


def read_expression(text: str) -> Notation:
    """A free roll's expression read (``adv``/``dis`` read as ``notation`` reads them), checked
    against the bounds, or a refusal saying what is wrong; nothing is rolled."""
    typed = text.strip()
    if not typed:
        raise UnreadableDiceNotation(expression=text, problem="it is empty")
    if len(typed) > MAX_LENGTH:
        raise FreeRollOutOfBounds(expression=typed, problem=f"is {len(typed)} characters")
    written = notation(typed)
    if len(written) > MAX_LENGTH:
        raise FreeRollOutOfBounds(expression=written, problem=f"is {len(written)} characters")
    return read_notation(written)


def roll_expression(text: str, dice: DiceSource) -> Rolled:
    """A free roll's expression read and rolled with ``dice``."""
    return roll_notation(read_expression(text), dice)


@frozen(kw_only=True)
class RollFreely(Plain):
    """Roll dice no rule names, optionally saying why (a d6 to see if it rains): an expression
    in dice notation (2d6+1, 4d6kh3, 1d20-1d4+2, 4d6ro1, 2d6e6, (1d6, 1d8)kh1, d%, d20+3 adv),
    rolled from the ruling's dice and recorded like every other roll, in standard notation,
    with every face drawn.

    The whole of Avrae's notation: keep and drop (kh, kl, k, p), rerolls (rr, ro, ra),
    explosions (e), minimum and maximum (mi, ma), sets, arithmetic, comparisons and [labels].
    At most 100 dice of 2 to 1000 sides written, 1000 drawn."""

    name: ClassVar[str] = "dice"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    expression: str
    why: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        read = read_expression(self.expression)
        rolled = roll_notation(read, dice)
        made = FreeRollMade(
            expression=read.written,
            why=self.why.strip(),
            total=rolled.total,
            faces=rolled.faces,
            breakdown=rolled.breakdown,
        )
        return (Change(view.campaign.id, made),)
