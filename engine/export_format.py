"""What an export file is held to before its lines are read: the format its header names, the
bounds on a line (its length, its text, its nesting), and the refusal that names the line and
field that is wrong, with what the file held shown on one short line."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import accumulate
from typing import Any, BinaryIO

from domain.errors import DomainError, ImportLineTooLong, ImportNestedTooDeep, ImportNotText

FORMAT = "campaign-log/1"


class ImportRefused(DomainError):
    template = "line {line}: {field}: {problem}; nothing was imported"


# Bounds a line is held to before it is parsed. The longest line the program writes is about a
# kilobyte (a ruling's header or a session's seal: at most 1,006 bytes over the four example
# campaigns); 1 MiB is a thousand times that (a seal over ~7,000 streams, a note of a million
# characters) and keeps what a hostile line costs to parse small. An event nests about eight
# levels deep (line, body, event, an amendment's events, their values): 64 is far past that, and
# far below what would exhaust a recursive parser.
MAX_LINE = 1 << 20  # bytes, its newline included
MAX_DEPTH = 64
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def file_lines(handle: BinaryIO) -> Iterator[bytes]:
    """A file's lines as bytes, none read past ``MAX_LINE`` + 1 bytes: a longer line is refused
    by its length before the rest of it is read."""
    while line := handle.readline(MAX_LINE + 1):
        yield line


def line_text(number: int, line: str | bytes) -> str:
    """The line as text, once it is known to be short enough, UTF-8 and not nested too deep."""
    try:
        raw = line.encode() if isinstance(line, str) else line
        text = line if isinstance(line, str) else line.decode()
    except UnicodeError:
        raise ImportNotText(line=number) from None
    if len(raw) > MAX_LINE:
        raise ImportLineTooLong(line=number, limit=MAX_LINE)
    if too_deep(raw):
        raise ImportNestedTooDeep(line=number, limit=MAX_DEPTH)
    return text


def too_deep(raw: bytes) -> bool:
    """Whether the JSON in ``raw`` nests deeper than ``MAX_DEPTH``, found without parsing it and
    without recursion: escaped backslashes and quotes are dropped, then every byte but quotes
    and brackets, then what lies between quotes (text); the depth is the highest running count
    of brackets opened less those closed. (A line with too few brackets is not scanned.)"""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    brackets = b"".join(plain.split(b'"')[::2])
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH


def value_shown(value: Any) -> str:
    """A value from the file, shown on one short line."""
    shown = repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def error_line(error: BaseException) -> str:
    """An error, on one short line."""
    said = on_one_line(str(error), 100)
    return f"{type(error).__name__}: {said}" if said else type(error).__name__


def on_one_line(text: str, most: int = 160) -> str:
    """Text (which may hold what the file held) on one line of at most ``most`` characters."""
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return text if len(text) <= most else text[: most - 3] + "..."
