"""Exposure and Popularity: the end-of-session roll, lowering Exposure, blabbed details, and
how the public reacts."""

from __future__ import annotations

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import dice_options, run
from cli.the_code.options import reveal_option
from domain.rulesets.the_code.commands import Blab, LowerExposure, RollExposure, RollReaction


@click.command("exposure")
@click.argument("who")
@click.option("--mo-followed", is_flag=True, help="GM ruling: the MO was followed this session.")
@click.option("--off", is_flag=True, help="The hero took the session off: no roll.")
@click.option("--reduce", is_flag=True, help="With --off: lower Exposure by 1.")
@reveal_option
@dice_options
@pass_context
def exposure(
    ctx: Context,
    who: str,
    mo_followed: bool,
    off: bool,
    reduce: bool,
    reveal: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """The end-of-session Exposure roll, made for every hero before `campaign session end`.

    One die per point of Exposure, one more if the MO was followed; any even die gains 1 (2 for
    a public identity); with no gain all session, Exposure drops by 1. Each new level above 1
    reveals a detail.

    \b
    Example:
      campaign exposure "The Hawk" --mo-followed --dice 2,4,6,8,1 --reveal appearance
    """
    command = RollExposure(hero=who, mo_followed=mo_followed, off=off, reduce=reduce, reveal=reveal)
    run(ctx, command, faces=faces, seed=seed)


@click.command("lower-exposure")
@click.argument("who")
@pass_context
def lower_exposure(ctx: Context, who: str) -> None:
    """Give up a point of Popularity to lower Exposure by one (nothing public is forgotten).

    \b
    Example:
      campaign lower-exposure "The Hawk"
    """
    run(ctx, LowerExposure(hero=who))


@click.command("blab")
@click.argument("who")
@click.argument("details", nargs=-1, required=True)
@click.option("--by", "confidant", required=True, help="Who blabbed.")
@pass_context
def blab(ctx: Context, who: str, details: tuple[str, ...], confidant: str) -> None:
    """Someone the hero confided in blabbed: each detail becomes public, +1 Exposure each.

    \b
    Example:
      campaign blab "The Hawk" profession --by "his old partner"
    """
    run(ctx, Blab(hero=who, details=details, confidant=confidant))


@click.command("reaction")
@click.argument("who")
@click.argument("audience")
@click.option("--extra-dice", type=WHOLE_NUMBER, default=0, help="Motivation spent on extra dice.")
@click.option("--because", default="", help="How the Profession or Advantage helps.")
@click.option("--conflict", is_flag=True, help="At Popularity 10: an extreme conflict.")
@dice_options
@pass_context
def reaction(
    ctx: Context,
    who: str,
    audience: str,
    extra_dice: int,
    because: str,
    conflict: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """How the public, the media or the authorities react: a d10 at or under Popularity.

    \b
    Example:
      campaign reaction "The Hawk" "a beat cop" --extra-dice 1 --because "ex-cop" --dice 7,3
    """
    command = RollReaction(
        hero=who,
        audience=audience,
        extra_dice=extra_dice,
        justification=because,
        conflict=conflict,
    )
    run(ctx, command, faces=faces, seed=seed)
