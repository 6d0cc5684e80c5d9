"""Recovering from damage: the GM's danger call, the 1d6 recovery roll and placing its ranks."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from domain.rulesets.sims import commands
from domain.rulesets.sims.tables import Danger


@click.command("danger")
@click.argument("danger", type=click.Choice([d.value for d in Danger]))
@click.argument("characters", nargs=-1)
@pass_context
def danger(ctx: Context, danger: str, characters: tuple[str, ...]) -> None:
    """GM: momentary danger (all ranks back at scene end) or continuing (a 1d6 recovery roll).

    \b
    Example:
      campaign danger continuing Kristov
    """
    run(ctx, commands.DeclareDanger(danger=Danger(danger), characters=characters))


@click.command("authorize-recovery")
@click.argument("who")
@click.option("--reason", default="the GM says to roll again", help="Why.")
@pass_context
def authorize_recovery(ctx: Context, who: str, reason: str) -> None:
    """GM: the character may roll for recovery (again).

    \b
    Example:
      campaign authorize-recovery Kristov
    """
    run(ctx, commands.AuthorizeRecovery(character=who, reason=reason))


@click.command("recover")
@click.argument("who")
@click.argument("steps", nargs=-1)
@dice_options
@pass_context
def recover(
    ctx: Context, who: str, steps: tuple[str, ...], faces: str | None, seed: int | None
) -> None:
    """Roll 1d6 for recovery; STEPS place the ranks now (or later with `campaign restore`).

    \b
    Example:
      campaign recover Soren Pirate Toughness Toughness --dice 3
    """
    run(ctx, commands.RollRecovery(character=who, steps=steps), faces=faces, seed=seed)


@click.command("restore")
@click.argument("who")
@click.argument("steps", nargs=-1, required=True)
@pass_context
def restore(ctx: Context, who: str, steps: tuple[str, ...]) -> None:
    """Place the ranks a recovery roll brought back, one quality per rank.

    \b
    Example:
      campaign restore Soren Pirate Toughness Toughness
    """
    run(ctx, commands.PlaceRecovery(character=who, steps=steps))
