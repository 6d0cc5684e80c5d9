"""Recaps and timelines as Discord messages: Discord's Markdown (headings, bold, lists, no
tables), cut into numbered parts that each fit in one message.

``split`` cuts at headings (scenes, a hero's timeline) first, then between lines, and inside a
line only when that line alone is longer than a part (then between words). Each part of several
ends with its number, ``(2/3)``, within the limit. Sizes count a character outside the Basic
Multilingual Plane (most emoji) as two, as a UTF-16 reader does, so a part is never longer than
the limit however Discord counts.
"""

from __future__ import annotations

import re

from domain.errors import DomainError
from projections.render_md import md, recap_md, row_cells, timeline_around
from projections.views import CampaignTimeline, HeroTimeline, Recap, Row

MAX_CHARS = 2000  # Discord's limit for one message's content
MIN_CHARS = 100  # room for a part's number and some words of a line

_HEADING = re.compile(r"#{1,6} ")
_DEEPER = re.compile(r"^#", re.MULTILINE)
_LINES = re.compile(r"[^\n]*\n|[^\n]+")
# What a message read from the start takes for markup: a heading, a quote, a list item, subtext.
_MARKER = re.compile(r"#|>|-#|[-+*] |[0-9]+[.)] ")


class TooFewChars(DomainError):
    template = (
        "a part of {limit} characters cannot hold its number and a line of text: "
        "give at least {least}"
    )


def recap_discord(r: Recap) -> str:
    """A session recap as Discord reads it (the Markdown recap has no tables: the same text)."""
    return recap_md(r)


def _rows(rows: list[Row]) -> list[str]:
    """A timeline's rows as a list: the ruling and its Exposure, then what explains it and what
    it revealed as sub-items; a voided row struck through, with who voided it and why."""
    out = []
    for row in rows:
        ruling, session, changes, because, reveals, notes = row_cells(row)
        voided = row["voided"] is not None
        strike = "~~" if voided else ""
        head = f"**{ruling}**" + ("" if session == "-" else f", session {session}")
        head += "" if changes == "-" else f": Exposure {changes}"
        tail = "" if notes == "-" else f" {notes}" if voided else f" ({notes})"
        out.append(f"- {strike}{head}{strike}{tail}")
        out += [
            f"  - {strike}{name}: {text}{strike}"
            for name, text in (("because", because), ("revealed", reveals))
            if text != "-"
        ]
    return out


def timeline_discord(t: HeroTimeline) -> str:
    """One hero's Exposure reveal timeline as Discord reads it: its rows as a list."""
    return timeline_around(t, _rows(t["rows"]) or ["- (nothing recorded)"])


def campaign_timeline_discord(view: CampaignTimeline) -> str:
    """Every hero's timeline, after where each stood at each session's end, as lists."""
    out = [f"# {md(view['campaign'])}: Exposure across heroes"]
    for s in view["sessions"]:
        out += ["", f"**End of session {s['number']}**"]
        out += [
            f"- {md(h['hero'])}: Exposure {h['exposure']}, peak {h['peak']}, "
            f"{h['public']} detail{'' if h['public'] == 1 else 's'} public"
            for h in s["heroes"]
        ]
    for line in view["heroes"]:  # each heading a level down (user text never starts a line)
        out += ["", _DEEPER.sub("##", timeline_discord(line).rstrip())]
    return "\n".join(out) + "\n"


# --- Cutting a text into messages -------------------------------------------------------------


def size(text: str) -> int:
    """The text's length in UTF-16 code units: a character beyond U+FFFF counts as two."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def split(text: str, limit: int = MAX_CHARS) -> list[str]:
    """``text`` as messages of at most ``limit`` characters, in order: the whole text if it fits
    in one, else numbered parts (``(1/3)`` on a last line of its own). Only line breaks at the
    edges of a part are left out: the parts, their numbers removed, are the text in order."""
    if limit < MIN_CHARS:
        raise TooFewChars(limit=limit, least=MIN_CHARS)
    whole = text.strip("\n")
    if size(whole) <= limit:
        return [whole] if whole else []
    digits = 1
    while True:  # the numbers' width depends on how many parts there are
        widest = 10**digits - 1
        pieces = _pieces(text, limit - size(_label(widest, widest)))
        contents = [content for content in (p.strip("\n") for p in pieces) if content]
        if len(contents) <= widest:
            return [content + _label(n, len(contents)) for n, content in enumerate(contents, 1)]
        digits += 1


def _label(number: int, parts: int) -> str:
    return f"\n\n({number}/{parts})"


def _pieces(text: str, budget: int) -> list[str]:
    """``text`` cut into pieces of at most ``budget``, joined again exactly by ``"".join``: whole
    sections while they fit, a section longer than a piece line by line, a line longer than a
    piece word by word."""
    pieces: list[str] = []
    current, used = "", 0
    for section in _sections(text):
        units = [section] if size(section) <= budget else _units(section, budget)
        for unit in units:
            n = size(unit)
            if used + n > budget and current:
                pieces.append(current)
                current, used = "", 0
            current, used = current + unit, used + n
    return [*pieces, current] if current else pieces


def _sections(text: str) -> list[str]:
    """The text cut before each heading line, line ends kept."""
    sections: list[str] = []
    for line in _LINES.findall(text):
        if sections and not _HEADING.match(line):
            sections[-1] += line
        else:
            sections.append(line)
    return sections


def _units(section: str, budget: int) -> list[str]:
    """A section's lines, its heading (and blank lines) kept with the line after it when they
    fit together, a line longer than ``budget`` in word-bounded pieces."""
    units: list[str] = []
    held = ""  # the heading and blank lines waiting for a line of text
    for line in _LINES.findall(section):
        if _HEADING.match(line) or not line.strip():
            held += line
        elif held and size(held + line) <= budget:
            units.append(held + line)
            held = ""
        else:
            units += [
                piece for one in [*_LINES.findall(held), line] for piece in _words(one, budget)
            ]
            held = ""
    return units + [piece for one in _LINES.findall(held) for piece in _words(one, budget)]


def _words(line: str, budget: int) -> list[str]:
    """A line in pieces of at most ``budget`` (itself, if it fits)."""
    pieces: list[str] = []
    while size(line) > budget:
        cut = _cut(line, budget)
        pieces.append(line[:cut])
        line = line[cut:]
    return [*pieces, line]


def _cut(line: str, budget: int) -> int:
    """Where to cut a line too long for a piece: after the last space that fits, one that does
    not leave the rest starting with markup if there is one; without a space, as late as fits
    (not between a backslash and the character it escapes)."""
    end, used = 0, 0
    while end < len(line) and used + size(line[end]) <= budget:
        used += size(line[end])
        end += 1
    space = line.rfind(" ", 1, end)
    first = space
    while space > 0 and _MARKER.match(line, space + 1):
        space = line.rfind(" ", 1, space)
    if space > 0 or first > 0:
        return (space if space > 0 else first) + 1
    return end - 1 if end > 1 and line[end - 1] == "\\" else end
