"""What every rolling verb shares: --dice and --seed, and running one command as one ruling."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cli.context import WHOLE_NUMBER, Context
from cli.render import emit_json, show_ruling
from domain.commands import Command
from domain.dice import parse_faces
from engine import DiceSpec

F = TypeVar("F", bound=Callable[..., Any])


def _hide(ctx: click.Context, _: click.Parameter, value: bool) -> None:
    found = ctx.find_object(Context)
    if value and found is not None:
        found.hidden = True


def _sealed(ctx: click.Context, parameter: click.Parameter, value: Any) -> None:
    found = ctx.find_object(Context)
    if found is not None and value:
        if parameter.name == "seal":
            found.seal = value
        else:
            found.seal_text = True


def dice_options(f: F) -> F:
    """--dice and --seed (``entered_dice``), --hidden for a GM's roll the players do not see
    until `campaign reveal`, and --seal / --seal-text for a roll its player seals."""
    hidden = click.option(
        "--hidden",
        is_flag=True,
        expose_value=False,
        callback=_hide,
        help="The GM's hidden roll: only the GMs read it until `campaign reveal RULING`.",
    )
    sealed = click.option(
        "--seal",
        "seal",
        metavar="SIGNATURE",
        expose_value=False,
        callback=_sealed,
        help="The player's own seal of this roll, as `campaign key seal` printed it: its dice "
        "come from the committed seed and the seal, which the GM's machine cannot foresee.",
    )
    text = click.option(
        "--seal-text",
        "seal_text",
        is_flag=True,
        expose_value=False,
        callback=_sealed,
        help="Print the text the player signs to seal this roll (`campaign key seal`), and "
        "record nothing.",
    )
    return hidden(sealed(text(entered_dice(f))))


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
    """Record ``command`` as one ruling of the current campaign and show what it recorded
    (with --seal-text, print the text its player signs to seal it, and record nothing)."""
    if ctx.seal_text:
        _seal_text(ctx, command)
        return
    spec = DiceSpec(faces=parse_faces(faces) if faces is not None else None, seed=seed)
    result = ctx.engine.execute(
        ctx.campaign(),
        command,
        actor=ctx.actor,
        dice=spec,
        hidden=ctx.hidden,
        say=ctx.say,
        seal=ctx.seal,
    )
    show_ruling(result, ctx.as_json)


def _seal_text(ctx: Context, command: Command) -> None:
    """The text the one at the keyboard (``--as``) signs to seal ``command``, whole: the player
    signs it on their own machine with `campaign key seal`."""
    name = ctx.campaign()
    member = ctx.actor or ctx.engine.campaign(name).gm
    text = ctx.engine.seal_text(name, command, actor=member)
    if ctx.as_json:
        from engine import sealed_in

        emit_json({"text": text, "member": member, "sealed": sealed_in(text)})
        return
    click.echo(text)
