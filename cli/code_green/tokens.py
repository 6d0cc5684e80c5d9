"""The tokens on a character's grid: placing them at the start of a scene, and adapting (moving
one) after every test."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from domain.errors import DomainError
from domain.rulesets.code_green.commands import Adapt, PlaceTokens
from domain.rulesets.code_green.tables import TOKENS


@click.command("place")
@click.argument("who")
@click.argument("squares", nargs=TOKENS)
@dice_options
@pass_context
def place(
    ctx: Context, who: str, squares: tuple[str, ...], faces: str | None, seed: int | None
) -> None:
    """Place a character's three tokens at the start of a scene.

    Each square is R1C1..R3C3, a pair such as Legs/Cryptic, or 'roll' (d66; an occupied square is
    flipped, then re-rolled).

    \b
    Example:
      campaign place 31415 R1C1 Tail/Invulnerable roll --dice 3,3
    """
    run(ctx, PlaceTokens(character=who, squares=squares), faces=faces, seed=seed)


@click.command("adapt")
@click.argument("who")
@click.argument("squares", nargs=-1)
@pass_context
def adapt(ctx: Context, who: str, squares: tuple[str, ...]) -> None:
    """After a test, move one token FROM a square TO a different free one (required every test).

    Without squares, records that no token can move (only when that is true).

    \b
    Example:
      campaign adapt 31415 R1C1 R2C3
    """
    if len(squares) not in (0, 2):
        raise AdaptNeedsTwoSquares(count=len(squares))
    source, destination = squares if squares else (None, None)
    run(ctx, Adapt(character=who, source=source, destination=destination))


class AdaptNeedsTwoSquares(DomainError):
    template = "adapt takes a FROM and a TO square (or none when nothing can move), got {count}"
