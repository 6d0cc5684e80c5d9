"""``campaign search``: what was written into the campaign, found by its words (the engine's
``search``, through the store's full-text index)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from cli.completion import character_names
from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.render import emit_json, say
from engine import converter, where

if TYPE_CHECKING:
    from engine import FoundText, SearchResult


@click.command("search")
@click.argument("query")
@click.option(
    "--character",
    shell_complete=character_names,
    help="Only what was written on this character's sheet.",
)
@click.option("--session", type=WHOLE_NUMBER, help="Only what was written in session N.")
@click.option(
    "--limit", type=int, default=20, show_default=True, help="How many texts to show (1-100)."
)
@click.option(
    "--before", type=WHOLE_NUMBER, help="Only rulings before this one (the next page of a search)."
)
@pass_context
def search_command(
    ctx: Context,
    query: str,
    character: str | None,
    session: int | None,
    limit: int,
    before: int | None,
) -> None:
    """Find what was written (notes, reasons, why a roll was made, private messages to you),
    newest first: every word must appear; end a word with * for any word starting so.

    You see what your `log` shows you: nothing hidden from you, nobody else's private messages.

    \b
    Example:
      campaign search "guard asleep"
      campaign search 'gat*' --session 1
    """
    result = ctx.engine.search(
        ctx.campaign(),
        query,
        audience=ctx.audience,
        character=character,
        session=session,
        limit=limit,
        before=before,
    )
    if ctx.as_json:
        emit_json(converter.unstructure(result))
        return
    show(result)


def show(result: SearchResult) -> None:
    """The texts found, one line of where and who, then the text."""
    if not result.found:
        say(f"nothing written holds {result.query!r}")
        return
    for found in result.found:
        say(f"#{found.ruling} {_heading(found)}")
        say(f"  {found.text}")
    if result.more:
        last = result.found[-1].ruling
        say(f"(older ones too: campaign search {result.query!r} --before {last})")


def _heading(found: FoundText) -> str:
    place = where(found.session, found.scene)
    who = found.actor + (f" on {found.character}" if found.character else "")
    status = f" ({found.status})" if found.status else ""
    context = f" [{place}]" if place else ""
    return f"{found.at[:16].replace('T', ' ')} {who}{context}{status}"


COMMANDS = (search_command,)
