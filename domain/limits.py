"""Every limit the program holds input to, in one place, each with the reason for its size.

The sizes hang together: the text a command may take is bounded so that the largest row it can
make, written out by ``export`` in the worst way text can be written, is still a line that
``import`` and ``verify-dice`` read (``MAX_LINE``); and a request body is bounded so that every
command the text limits allow fits in one. ``check_command`` and ``check_parameters`` hold every
command's text to the limits, whatever the command (the engine calls them before it decides);
names keep their own shorter limit where they are made (``MAX_NAME``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from itertools import accumulate
from typing import Any

import attrs

from domain.errors import CommandTextTooLong, TextTooLong

# --- Text --------------------------------------------------------------------------------------

MAX_NAME = 80
"""Characters of a name made by a command: a campaign's, a member's, a character's. A name is
shown on every line of the log and in every sheet's title: a short line."""

MAX_TEXT = 10_000
"""Characters of any one text a command takes: a note, a reason (undo, amend, dispute, a free
roll's why), a player's entropy words, a message, a post, a detail of a hero. Five Discord
messages: far past a table's longest note, and short enough that a ruling stays one line of an
export (below)."""

MAX_COMMAND_TEXT = 2 * MAX_TEXT
"""Characters of all the text one command takes, every parameter and every item of a list
together, each text counting at least one (an empty item of a list is still written); an
amendment's changes and its reason count as one more command.

Why it keeps every export line importable: the largest row a ruling writes is its header, which
holds the command's parameters as JSON inside the event's JSON; an amendment's header holds the
corrected command and, again, the changes and the reason: ``2 * MAX_COMMAND_TEXT`` characters at
most. A character costs at most 7 bytes there (a control character is ``\\u0001`` in the
parameters' JSON, and its backslash is escaped once more in the line), and a one-character item
of a list 12 with its quotes and comma: such a header is at most 480,000 bytes and a few hundred
of numbers and names, under half of ``MAX_LINE``. An event writes each of its texts once or
twice, in fewer bytes (no JSON inside JSON)."""

# --- Dice --------------------------------------------------------------------------------------

MAX_DICE = 100
"""Dice written in one free roll, every term together (``60d6+41d4`` is 101): a fistful, and
what one line of the log shows. Rerolls and explosions draw more (``MAX_DRAWS``)."""

MIN_SIDES, MAX_SIDES = 2, 1000
"""Sides of a free roll's die: a coin to a d1000 (``d%`` is a d100)."""

MAX_DRAWS = 1000
"""Dice one free roll draws, the dice written and every reroll and explosion: d20's own bound
(its ``RollContext``), so a roll d20 finishes finishes here. Rerolls and explosions can go on
forever (``1d6rr<7``); a thousand is far past what a roll that ends draws (``100d6e6`` draws
about 120), and each draw is a die of the ruling's header (27 bytes)."""

MAX_EXPRESSION = 100
"""Characters of a free roll's dice expression: ``4d6kh3+1d8+2`` is 12; a hundred is a dozen
terms, more than ``MAX_DICE`` dice can be spread over readably."""

MAX_POST_ROLLS = 20
"""Rolls written inside one post (``[2d6+1]``): a scene's worth of dice in one message; each is
a free roll held to the limits above, and a post's text is any other text (``MAX_TEXT``)."""

MAX_POST_DRAWS = MAX_POST_ROLLS * MAX_DICE
"""Dice one post's rolls draw together: as many as its rolls may write (2,000), rerolls and
explosions included, so a post's header holds no more dice than it did before they were."""

# --- Export files --------------------------------------------------------------------------

MAX_LINE = 1 << 20
"""Bytes of one line of an export, its newline included (``import`` and ``verify-dice`` refuse a
longer one before parsing it). The longest line the program writes is a ruling's header: about
a kilobyte in play, and under 500 KB with the text limits above (``MAX_COMMAND_TEXT``); a
seal over a few thousand streams is a few hundred KB. A MiB keeps what a hostile line costs
to parse small."""

MAX_DEPTH = 64
"""Levels of JSON nesting in a line of an export. An event nests about eight levels (line, body,
event, an amendment's events, their values); 64 is far past that, and far below what would
exhaust a recursive parser."""

# --- Requests to the table server ----------------------------------------------------------

MAX_BODY = 512 * 1024
"""Bytes of a request body. The largest a request needs is a command (or an amendment's changes
and reason) with all the text ``MAX_COMMAND_TEXT`` allows, at most 15 bytes a character in JSON
(a character outside the BMP as two ``\\uXXXX`` escapes, with its quotes and comma when it is an
item of a list): 300,000 bytes, and a few names and numbers."""

MAX_BODY_DEPTH = 16
"""Levels of JSON nesting in a request body. The deepest body the API takes nests three
(``{"params": {"characters": [...]}}``); a deeper one is refused before it is parsed."""


# --- Checks ------------------------------------------------------------------------------------


def check_text(parameter: str, text: str) -> int:
    """``text`` (the parameter ``parameter``) when it is at most ``MAX_TEXT`` characters, as
    its length; else ``TEXT_TOO_LONG``."""
    if len(text) > MAX_TEXT:
        raise TextTooLong(parameter=parameter, length=len(text), limit=MAX_TEXT)
    return len(text)


def check_parameters(
    command: str, parameters: Mapping[str, Any] | Iterable[tuple[str, Any]]
) -> None:
    """Hold every text among a command's ``parameters`` (name -> value, or the pairs: text,
    whole numbers, lists, mappings or attrs values, nested) to ``MAX_TEXT``, and all of them
    together to ``MAX_COMMAND_TEXT``: ``TEXT_TOO_LONG`` names the parameter,
    ``COMMAND_TEXT_TOO_LONG`` the command."""
    pairs = parameters.items() if isinstance(parameters, Mapping) else parameters
    total = sum(max(1, check_text(name, text)) for name, text in _texts(pairs))
    if total > MAX_COMMAND_TEXT:
        raise CommandTextTooLong(command=command, length=total, limit=MAX_COMMAND_TEXT)


def check_command(command: Any) -> None:
    """``check_parameters`` on a command's fields (an attrs class with a ``name``)."""
    fields = attrs.fields(type(command))
    check_parameters(str(command.name), {f.name: getattr(command, f.name) for f in fields})


def _texts(named: Iterable[tuple[str, Any]]) -> Iterator[tuple[str, str]]:
    """Every text among the values, with the name of the parameter it is in."""
    for name, value in named:
        if isinstance(value, enum.Enum):
            continue  # one of a fixed set (a StrEnum is text, but not the user's)
        if isinstance(value, str):
            yield name, value
        elif isinstance(value, Mapping):
            yield from _texts((name, item) for pair in value.items() for item in pair)
        elif isinstance(value, list | tuple | set | frozenset):
            yield from _texts((name, item) for item in value)
        elif attrs.has(type(value)):
            yield from _texts((name, getattr(value, f.name)) for f in attrs.fields(type(value)))


_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def nests_deeper(raw: bytes, limit: int) -> bool:
    """Whether the JSON in ``raw`` nests deeper than ``limit``, found without parsing it and
    without recursion: escaped backslashes and quotes are dropped, then every byte but quotes
    and brackets, then what lies between quotes (text); the depth is the highest running count
    of brackets opened less those closed. (A text with too few brackets is not scanned.)"""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    brackets = b"".join(plain.split(b'"')[::2])
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit
