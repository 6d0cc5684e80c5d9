"""What every rolling verb shares: --dice and --seed, and running one command as one ruling."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cli.context import WHOLE_NUMBER, Context
from cli.render import show_ruling
from domain.commands import Command
from domain.dice import parse_faces
from engine import DiceSpec

F = TypeVar("F", bound=Callable[..., Any])


def _hide(ctx: click.Context, _: click.Parameter, value: bool) -> None:
    found = ctx.find_object(Context)
    if value and found is not None:
        found.hidden = True


def dice_options(f: F) -> F:
    """--dice and --seed (``entered_dice``), and --hidden for a GM's roll the players do not
    see until `campaign reveal`."""
    hidden = click.option(
        "--hidden",
        is_flag=True,
        expose_value=False,
        callback=_hide,
        help="The GM's hidden roll: only the GMs read it until `campaign reveal RULING`.",
    )
    return hidden(entered_dice(f))


def entered_dice(f: F) -> F:
    """--dice for faces rolled at the table, --seed for reproducible digital dice."""
    seeded = click.option(
        "--seed", type=WHOLE_NUMBER, help="Roll reproducible digital dice from this seed."
    )
    entered = click.option(
        "--dice",
        "faces",
        metavar="FACES",
        help="Faces rolled at the table, in the order rolled, e.g. --dice 3,5.",
    )
    return entered(seeded(f))


def run(
    ctx: Context, command: Command, *, faces: str | None = None, seed: int | None = None
) -> None:
    """Record ``command`` as one ruling of the current campaign and show what it recorded."""
    spec = DiceSpec(faces=parse_faces(faces) if faces is not None else None, seed=seed)
    result = ctx.engine.execute(
        ctx.campaign(), command, actor=ctx.actor, dice=spec, hidden=ctx.hidden, say=ctx.say
    )
    show_ruling(result, ctx.as_json)
