"""The rolls written inside a post's text (``[2d6+1]``, ``[4d6kh3 for the climb]``,
``[(1d6, 1d8)kh1]``, ``[1d10[cold] + 2 the ice]``): found where they stand, read as
``campaign dice`` reads an expression (``domain.free_rolls``), and rolled from the post's
ruling's dice in the order written.

A bracket is a roll when its content starts with a die (``NdS``, ``d%``; after a sign or an
opening parenthesis: ``[-1d4]``, ``[(1d6, 1d8)kh1]``); annotations nest one level inside it
(``[1d6[fire]]``). The expression is the longest start of the content, ending at a space, that
is dice notation; the rest, past an optional ``for``, is what the roll is for. A bracket that
does not start with a die (``[an aside]``), or is a Markdown link (``[text](url)``, ``[a][b]``),
is text; one that starts with a die and is not notation (``[2d6 +]``) is refused as ``campaign
dice`` refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from attrs import frozen

from domain.dice import DiceSource
from domain.dice_notation import UnreadableDiceNotation, parse
from domain.dice_rolling import Limited, roll_notation
from domain.errors import DomainError
from domain.events import InlineRoll
from domain.free_rolls import AdvantageWithoutOneD20, notation, read_expression
from domain.limits import MAX_POST_DRAWS, MAX_POST_ROLLS
from domain.plain import Plain

_BRACKETED = re.compile(r"\[((?:[^\[\]\n]|\[[^\[\]\n]*\])+)\](?![(\[])")
_LONGEST = 200  # characters a roll's brackets hold: an expression and a few words of why
_STARTS_WITH_A_DIE = re.compile(r"\s*[+-]?\s*(?:\(\s*)*\d*[dD](?:\d|%)")
_SPACES = re.compile(r"\s+")
_OPERATOR = re.compile(r"[-+*/%<>=!]")  # what no why starts with: notation cut short
_FOR = re.compile(r"for\s+")
_FOR_BETWEEN = re.compile(r"\s+for\s+")


class TooManyPostRolls(DomainError):
    template = "the post holds {count} rolls: a post rolls at most {limit} ([2d6] each)"


@frozen(kw_only=True)
class Written(Plain):
    """A roll as written in a post: where its brackets stand, its expression and its why."""

    start: int
    end: int
    expression: str
    why: str


def rolls_written(text: str) -> tuple[Written, ...]:
    """The rolls a post's text holds, in the order written (see the module's docstring)."""
    return tuple(
        Written(start=start, end=end, expression=expression, why=why)
        for start, end, content in _brackets(text)
        for expression, why in [_split(content)]
    )


def _brackets(text: str) -> Iterator[tuple[int, int, str]]:
    """Each bracket whose content starts with a die, with where it stands; inside a bracket
    that is not a roll (``[an aside [1d6]]``), the brackets it holds."""
    at = 0
    while (match := _BRACKETED.search(text, at)) is not None:
        content = match.group(1)
        if len(content) <= _LONGEST and _STARTS_WITH_A_DIE.match(content):
            yield match.start(), match.end(), content
            at = match.end()
        else:
            at = match.start() + 1


def _split(content: str) -> tuple[str, str]:
    """The expression and the why of a roll's content: the longest start, ending at a space,
    that is notation (or says adv or dis of what is not one d20, to be refused), whose rest
    does not start as notation would go on; else the whole, or what comes before `` for ``."""
    content = content.strip()
    ends = [content_end.start() for content_end in _SPACES.finditer(content)]
    for end in [len(content), *reversed(ends)]:
        expression, rest = content[:end], content[end:].strip()
        if rest and _OPERATOR.match(rest):
            continue
        if _is_notation(expression):
            said_for = _FOR.match(rest)
            return expression, rest[said_for.end() :] if said_for else rest
    expression, _, why = _FOR_BETWEEN.sub(" for ", content, count=1).partition(" for ")
    return expression.strip(), why.strip()


def _is_notation(expression: str) -> bool:
    try:
        parse(notation(expression))
    except AdvantageWithoutOneD20:
        return True
    except UnreadableDiceNotation:
        return False
    return True


def roll_inline(text: str, dice: DiceSource) -> tuple[InlineRoll, ...]:
    """Every roll written in ``text``, read (refused as ``campaign dice`` refuses) and rolled
    from ``dice`` in the order written: at most ``MAX_POST_DRAWS`` dice in all."""
    written = rolls_written(text)
    if len(written) > MAX_POST_ROLLS:
        raise TooManyPostRolls(count=len(written), limit=MAX_POST_ROLLS)
    read = [(w, read_expression(w.expression)) for w in written]  # all read before any roll
    drawn = Limited(dice, MAX_POST_DRAWS, "the post's rolls", "post")
    rolls = []
    for w, expression in read:
        rolled = roll_notation(expression, drawn)
        rolls.append(
            InlineRoll(
                start=w.start,
                end=w.end,
                expression=expression.written,
                why=w.why,
                total=rolled.total,
                faces=rolled.faces,
                breakdown=rolled.breakdown,
            )
        )
    return tuple(rolls)
