"""Behind the Scenes: private messages between the GM and the players."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import run
from domain.rulesets.sims import commands


@click.command("message")
@click.argument("to")
@click.argument("body")
@click.option(
    "--from",
    "character",
    metavar="CHARACTER",
    help="The character it comes from (a player's own; the GM's any, or none: in person).",
)
@click.option("--in-character", is_flag=True, help="Written in the character's voice.")
@pass_context
def message(ctx: Context, to: str, body: str, character: str | None, in_character: bool) -> None:
    """Write privately to one member of the table (Behind the Scenes). Only you, TO and the
    GMs read it: it stays out of everyone else's log, history and recap (`campaign recap
    --for TO` is TO's own recap, with it).

    \b
    Example:
      campaign --as bob message Morpheus "Deal. I want the steak." --from Cypher
    """
    name = ctx.campaign()
    by = ctx.actor or ctx.engine.campaign(name).gm
    command = commands.SendPrivateMessage(
        to=to, body=body, by=by, character=character, in_character=in_character
    )
    run(ctx, command)
