"""Making and renaming characters (`character create`, `character rename`); `character show` and
`list` are added from the sheets."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from domain.rulesets.code_green.commands import CreateCharacter, RenameCharacter


def _three(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(","))


@click.group("character")
def character() -> None:
    """Create and show characters.

    \b
    Example:
      campaign character show 31415
    """


@character.command("create")
@click.option(
    "--player",
    required=True,
    help="Who plays the character (given a seat as a player if they have none).",
)
@click.option(
    "--form",
    default="roll,roll,roll",
    show_default=True,
    help="Three Form traits in slot order (rows); 'roll' rolls d66 for a slot.",
)
@click.option(
    "--function",
    default="roll,roll,roll",
    show_default=True,
    help="Three Function traits in slot order (columns); 'roll' rolls d66 for a slot.",
)
@dice_options
@pass_context
def create(
    ctx: Context, player: str, form: str, function: str, faces: str | None, seed: int | None
) -> None:
    """Make a Code Green character: three Form and three Function traits, then five d6 for a name.

    Rolled duplicates are flipped, then re-rolled (Character Creation). With --dice, give the
    faces in the order rolled: two per d66 for each rolled trait, then the five name dice.

    \b
    Example:
      campaign character create --player alice --form Legs,Tail,Teeth \\
          --function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5
    """
    command = CreateCharacter(
        player=player, form=_three(form), function=_three(function), seat_player=True
    )
    run(ctx, command, faces=faces, seed=seed)


@character.command("rename")
@click.argument("who")
@click.argument("new_name")
@pass_context
def rename(ctx: Context, who: str, new_name: str) -> None:
    """Give a character a new name: the five rolled digits are only the name it has when play
    begins. The log keeps the old name; the roster knows the new one from now on.

    \b
    Example:
      campaign character rename 31415 Frost
    """
    run(ctx, RenameCharacter(character=who, new_name=new_name))
