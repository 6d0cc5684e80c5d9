"""Rendering results: plain text for people, JSON (stable keys) for scripts."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

from domain.campaign import CampaignState
from domain.events import RulingMade
from domain.said import said
from engine import converter, dispute_line
from engine import event_lines as event_lines  # the log's lines, as the pages frame them
from engine import where as where
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
    from engine import ruling_view  # the result types: not needed to print a ruling as text

    data: dict[str, Any] = converter.unstructure(ruling_view(result))
    return data


def show_ruling(result: RulingResult, as_json: bool) -> None:
    if as_json:
        emit_json(ruling_json(result))
        return
    dice = f" ({result.provenance} dice)" if result.dice else ""
    say(f"ruling {result.number}: {result.command}{dice}")
    _narration(result.made)
    for line in event_lines(result.records, result.campaign):
        say(f"  {line}")


def logged_json(logged: LoggedRuling, campaign: CampaignState) -> dict[str, Any]:
    """One ruling of the log as `log --json` shows it (and the API's ``log`` gives it)."""
    from engine import log_entry

    data: dict[str, Any] = converter.unstructure(log_entry(logged, campaign))
    return data


def dispute_lines(campaign: CampaignState, ruling: int) -> list[str]:
    """A ruling's disputes as the log shows them under it."""
    from engine import dispute_views

    return [dispute_line(d) for d in dispute_views(campaign, ruling)]


def show_log(rulings: Iterable[LoggedRuling], campaign: CampaignState) -> None:
    for logged in rulings:
        made = logged.ruling
        header = logged.header
        place = where(header.session, header.scene)
        stamp = header.timestamp.strftime("%Y-%m-%d %H:%M")
        context = f" [{place}]" if place else ""
        say(f"#{made.number} {stamp} {header.actor}: {made.command}{context}")
        _narration(made, "~ " if any(a.say is not None for a in logged.amendments) else "")
        if logged.retraction is not None:
            r = logged.retraction
            say(f"  UNDONE by #{r.by} ({r.actor}): {r.reason}")
        for line in dispute_lines(campaign, made.number):
            say(f"  {line}")
        replaced = bool(logged.retraction or logged.amendments)
        for line in event_lines(logged.events, campaign):
            say(f"  {'~ ' if replaced else ''}{line}")
        redraws = 0
        for amendment in logged.amendments:
            kind = amendment.kind.upper()
            redraws += bool(amendment.new_dice)
            drew = f" ({redrawn(redraws)} so far)" if amendment.new_dice else ""
            say(f"  {kind} by #{amendment.by} ({amendment.actor}): {amendment.reason}{drew}")
            if amendment.say is not None:
                say(f'  > "{amendment.say}"')
            for line in event_lines(amendment.events, campaign):
                say(f"  > {line}")


def redrawn(count: int) -> str:
    """How many times a ruling's dice were re-drawn by amendments, in words."""
    return f"dice re-drawn {'once' if count == 1 else f'{count} times'}"


def _narration(made: RulingMade | Any, mark: str = "") -> None:
    """A ruling's narration (``--say``), quoted under its first line, when it has one (``mark``:
    ``~ `` when an amendment replaced it, as the lines it replaced are marked)."""
    narration = said(made)
    if narration:
        say(f'  {mark}"{narration}"')


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
