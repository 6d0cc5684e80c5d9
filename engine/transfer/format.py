"""What an export file is held to before its lines are read: the format its header names, the
bounds on a line (its length, its text, its nesting), and the refusal that names the line and
field that is wrong, with what the file held shown on one short line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from domain.errors import DomainError, ImportLineTooLong, ImportNestedTooDeep, ImportNotText
from domain.limits import MAX_DEPTH as MAX_DEPTH  # the bounds a line is held to
from domain.limits import MAX_LINE as MAX_LINE
from domain.limits import nests_deeper

FORMAT = "campaign-log/1"


class ImportRefused(DomainError):
    template = "line {line}: {field}: {problem}; nothing was imported"


class ImportActorNotAllowed(ImportRefused):
    """A ruling of the file the program never records for the member it names: the table's
    policy as it stood then refuses it (``engine.audit.policy``), as ``verify`` names it."""

    template = (
        "line {line}: ruling {ruling} ({command}, by {actor}) is one the program never records: "
        "{rule}; nothing was imported"
    )


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
    """Whether the JSON in ``raw`` nests deeper than ``MAX_DEPTH`` (found without parsing it)."""
    return nests_deeper(raw, MAX_DEPTH)


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
