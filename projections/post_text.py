"""A post's text with its rolls where they stand: as inert text (the terminal, Markdown and
Discord output) and as HTML rendered from its Markdown by markdown-it-py.

The HTML is markdown-it-py's CommonMark with raw HTML off (``html=False``: a ``<script>`` in a
post is text), links held to http(s) (``validateLink``: a ``javascript:`` or ``data:`` link is
left as text), and images not rendered (``![alt](url)`` reads as ``!`` and a link). The rolls are
put in after rendering: each is replaced in the Markdown by a marker of private-use characters
the post's own text cannot hold (they are taken out of it first), and each marker in the HTML by
the roll, every part of it escaped. Nothing here parses or cleans HTML.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from domain.events import InlineRoll
from projections.stylesheet import e

_OPEN, _CLOSE = "\ue000", "\ue001"  # a roll's marker: _OPEN, its index, _CLOSE
_MARKERS = re.compile(f"[{_OPEN}{_CLOSE}]")
_MARKED = re.compile(f"{_OPEN}([0-9]+){_CLOSE}")
_SCHEMES = ("http://", "https://")


def roll_text(roll: InlineRoll) -> str:
    """A roll as it reads in the text: ``[2d6+1: [3,4] + 1 = 8, for the climb]``."""
    why = f", for {roll.why}" if roll.why else ""
    return f"[{roll.expression}: {roll.breakdown} = {roll.total}{why}]"


def pieces(text: str, rolls: Sequence[InlineRoll]) -> Iterator[str | InlineRoll]:
    """The text in order, each roll in place of the brackets it was written in."""
    at = 0
    for roll in sorted(rolls, key=lambda r: r.start):
        if roll.start < at or roll.end > len(text):
            continue  # a roll that does not fit the text (never recorded so): left out
        if roll.start > at:
            yield text[at : roll.start]
        yield roll
        at = roll.end
    if at < len(text):
        yield text[at:]


def with_rolls(text: str, rolls: Sequence[InlineRoll]) -> str:
    """The post's text with each roll written out in place (plain text, several lines)."""
    return "".join(p if isinstance(p, str) else roll_text(p) for p in pieces(text, rolls))


# --- HTML ----------------------------------------------------------------------------------------


def _only_web_links(url: str) -> bool:
    return url.strip().lower().startswith(_SCHEMES)


@cache
def _parser() -> Any:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    parser.disable("image")  # an image is fetched by the reader's browser: shown as a link
    parser.validateLink = _only_web_links  # type: ignore[method-assign]
    return parser


def roll_html(roll: InlineRoll) -> str:
    terms = roll.breakdown
    why = f' <span class="why">for {e(roll.why)}</span>' if roll.why else ""
    return (
        f'<span class="roll"><code>{e(roll.expression)}</code> {e(terms)} = '
        f"<b>{roll.total}</b>{why}</span>"
    )


def markdown_html(text: str, rolls: Sequence[InlineRoll] = ()) -> str:
    """A post's Markdown as HTML (see the module docstring), its rolls in place."""
    parts = list(pieces(text, rolls))
    shown: list[InlineRoll] = []
    source = []
    for part in parts:
        if isinstance(part, str):
            source.append(_MARKERS.sub("\ufffd", part))
        else:
            source.append(f"{_OPEN}{len(shown)}{_CLOSE}")
            shown.append(part)
    html: str = _parser().render("".join(source))

    def roll_at(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return roll_html(shown[index]) if index < len(shown) else ""

    return _MARKED.sub(roll_at, html)
