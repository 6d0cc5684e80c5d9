"""Conflict turns: the turn order, passing the turn, and the strategies that last a turn."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from domain.rulesets.sims import commands
from domain.rulesets.sims.tables import Strategy, TieBreak


@click.command("turns")
@click.argument("entries", nargs=-1, required=True)
@click.option(
    "--ties",
    type=click.Choice([t.value for t in TieBreak]),
    default=TieBreak.ROLL_OFF.value,
    show_default=True,
    help="Equal ranks: a PC before an NPC, then a 1d6 roll-off; or the order listed (the GM's).",
)
@dice_options
@pass_context
def turns(
    ctx: Context, entries: tuple[str, ...], ties: str, faces: str | None, seed: int | None
) -> None:
    """Start a conflict: WHO:QUALITY for each side; the higher fighting rank goes first. At
    equal ranks a PC goes before an NPC, then tied characters roll 1d6 each in the order
    listed, highest first (PDQ-A11).

    \b
    Example:
      campaign turns "Kristov:Dirty Fighter" Jefferson:Biker Ninja Samurai --dice 5,2
    """
    run(ctx, commands.SetTurnOrder(entries=entries, ties=TieBreak(ties)), faces=faces, seed=seed)


@click.command("next")
@pass_context
def next_turn(ctx: Context) -> None:
    """End the current turn; the next character who can act takes its turn.

    \b
    Example:
      campaign next
    """
    run(ctx, commands.EndTurn())


@click.command("strategy")
@click.argument("who")
@click.argument("strategy", type=click.Choice([s.value for s in Strategy]))
@pass_context
def strategy(ctx: Context, who: str, strategy: str) -> None:
    """Play Full Attack (own turn) or Full Defense (also as a reaction) until the next turn.

    \b
    Example:
      campaign strategy Ninja full-defense
    """
    run(ctx, commands.DeclareStrategy(character=who, strategy=strategy))
