"""Strain: the GM's ruling that a test strains the character, the token it pushes, recovery."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from domain.rulesets.code_green.commands import DisplaceToken, Recover, SufferStrain


@click.command("strain")
@click.argument("who")
@click.option("--to", "destination", help="Where a struck token goes, if it must move.")
@click.option(
    "--foolhardy",
    is_flag=True,
    help="A most foolhardy effort: strain past house rule maxStrainPerTest.",
)
@dice_options
@pass_context
def strain(
    ctx: Context,
    who: str,
    destination: str | None,
    foolhardy: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """GM ruling: the test causes strain. Rolls d66 for the square struck.

    A struck token moves to an empty unmarked square (--to, or `campaign displace` later), or is
    removed when fewer than three unmarked squares remain; a square already marked incapacitates.
    One strain a test (house rule maxStrainPerTest) unless the GM rules the effort --foolhardy.

    \b
    Example:
      campaign strain 31415 --to R1C2 --dice 1,3
    """
    command = SufferStrain(character=who, destination=destination, foolhardy=foolhardy)
    run(ctx, command, faces=faces, seed=seed)


@click.command("displace")
@click.argument("who")
@click.argument("square")
@pass_context
def displace(ctx: Context, who: str, square: str) -> None:
    """Move the token strain struck to an empty, unmarked square.

    \b
    Example:
      campaign displace 31415 R1C2
    """
    run(ctx, DisplaceToken(character=who, destination=square))


@click.command("recover")
@click.argument("who")
@pass_context
def recover(ctx: Context, who: str) -> None:
    """GM ruling: an incapacitated character recovers.

    \b
    Example:
      campaign recover 31415
    """
    run(ctx, Recover(character=who))
