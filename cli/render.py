"""Rendering results: plain text for people, JSON (stable keys) for scripts."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

from domain.campaign import CampaignState
from engine import converter, entry_lines, log_entry, result_lines, ruling_view
from projections.plain_text import plain_text

if TYPE_CHECKING:  # the log's types: reading the log is not needed to show one ruling
    from rich.table import Table

    from engine import LoggedRuling, RulingResult


def clean(text: object) -> str:
    """Text as the terminal gets it: one line, without control characters (BEL, ESC and the
    escape sequences it starts), bidi overrides or isolates, so that a name or a note cannot
    ring, recolour, move the cursor or reorder what is printed around it."""
    return plain_text(text)


def say(line: object = "") -> None:
    """Print one line of text output (the one place user text reaches the terminal here),
    wrapped to the terminal's width."""
    text = clean(line)
    width = wrap_width()
    click.echo(text if width is None or len(text) <= width else wrapped(text, width))


def wrap_width() -> int | None:
    """The width of the terminal the output goes to (`COLUMNS` when set); None for a file or a
    pipe, where every line stays whole for grep and scripts."""
    if not sys.stdout.isatty():
        return None
    import shutil  # only for a terminal (it imports the archivers): a roll's output is piped

    return max(shutil.get_terminal_size().columns, 20)


def wrapped(text: str, width: int) -> str:
    """A long line broken between words to fit the width, its continuations indented two more
    than the line itself. A word is never broken: a digest longer than the width gets a line of
    its own, whole, to be copied and compared."""
    indent = " " * (len(text) - len(text.lstrip(" ")))
    return textwrap.fill(
        text,
        width,
        subsequent_indent=f"{indent}  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def print_table(table: Table) -> None:
    """Print a rich table: boxed when it fits the terminal, else without its rules and with a
    single space between columns, so the room goes to the contents and no header breaks."""
    from rich import box
    from rich.console import Console

    console = Console()
    if console.measure(table, options=console.options.update_width(1000)).maximum > console.width:
        table.box, table.show_edge, table.pad_edge = box.SIMPLE_HEAD, False, False
        table.collapse_padding = True
    console.print(table)


def say_lines(text: str) -> None:
    """Print text of several lines (a sheet, a grid), each line cleaned as ``say`` does."""
    for line in text.splitlines():
        say(line)


def json_line(value: Any) -> str:
    """One JSON line, even when the data holds characters some readers take for line breaks."""
    line = json.dumps(value, ensure_ascii=False, default=str)
    return line.translate({0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"})


def ruling_json(result: RulingResult) -> dict[str, Any]:
    """What one command recorded, as `--json` shows it (and the API's POST gives it)."""
    data: dict[str, Any] = converter.unstructure(ruling_view(result))
    return data


def show_ruling(result: RulingResult, as_json: bool) -> None:
    view = ruling_view(result)
    if as_json:
        emit_json(converter.unstructure(view))
        return
    for line in result_lines(view):
        say(line)


def logged_json(logged: LoggedRuling, campaign: CampaignState) -> dict[str, Any]:
    """One ruling of the log as `log --json` shows it (and the API's ``log`` gives it)."""
    data: dict[str, Any] = converter.unstructure(log_entry(logged, campaign))
    return data


def show_log(rulings: Iterable[LoggedRuling], campaign: CampaignState) -> None:
    for logged in rulings:
        for line in entry_lines(log_entry(logged, campaign)):
            say(line)


def emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def emit_json_list(items: Iterable[Any]) -> None:
    """A JSON list written as its items come (the text ``emit_json`` writes for the list)."""
    first = True
    for item in items:
        text = json.dumps(item, indent=2, ensure_ascii=False, default=str)
        click.echo(("[\n" if first else ",\n") + textwrap.indent(text, "  "), nl=False)
        first = False
    click.echo("[]" if first else "\n]")
