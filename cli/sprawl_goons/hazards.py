"""Harm without an attack roll: planted explosives, falls and fire."""

from __future__ import annotations

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import dice_options, run
from domain.rulesets.sprawl_goons import commands as sg
from domain.rulesets.sprawl_goons.tables import EXPLOSIVE_DICE, MAX_FIRE_ROUNDS


@click.command("explode")
@click.argument("targets", nargs=-1, required=True)
@click.option(
    "--d6",
    "dice_count",
    type=WHOLE_NUMBER,
    default=min(EXPLOSIVE_DICE),
    show_default=True,
    help="2 or 3 dice of damage, by type.",
)
@click.option("--what", default="planted explosive", show_default=True, help="What went off.")
@dice_options
@pass_context
def explode(
    ctx: Context,
    targets: tuple[str, ...],
    dice_count: int,
    what: str,
    faces: str | None,
    seed: int | None,
) -> None:
    """Planted explosives go off: 2d6 or 3d6 damage to everyone in the blast, no roll.

    \b
    Example:
      campaign explode "Zone Boss ganger" --d6 3 --what "shaped charge" --dice 4,4,5
    """
    command = sg.Detonate(dice_count=dice_count, targets=targets, what=what)
    run(ctx, command, faces=faces, seed=seed)


@click.command("fall")
@click.argument("who")
@click.argument("metres", type=WHOLE_NUMBER)
@dice_options
@pass_context
def fall(ctx: Context, who: str, metres: int, faces: str | None, seed: int | None) -> None:
    """Falling: 1 damage per 3 metres, rounded up (crit dice if it reaches 0).

    \b
    Example:
      campaign fall Tanner 7
    """
    run(ctx, sg.Fall(character=who, metres=metres), faces=faces, seed=seed)


@click.command("ignite")
@click.argument("who")
@click.option("--damage", type=WHOLE_NUMBER, required=True, help="Damage at each round's end.")
@click.option(
    "--rounds",
    type=WHOLE_NUMBER,
    default=MAX_FIRE_ROUNDS,
    show_default=True,
    help="How long it burns (1 to 3).",
)
@pass_context
def ignite(ctx: Context, who: str, damage: int, rounds: int) -> None:
    """Set a character on fire: repeat damage at each round's end, up to 3 rounds.

    \b
    Example:
      campaign ignite "Zone Boss ganger" --damage 2
    """
    run(ctx, sg.Ignite(character=who, damage=damage, rounds=rounds))


@click.command("extinguish")
@click.argument("who")
@click.option("--how", default="put out", help="How the fire was put out.")
@pass_context
def extinguish(ctx: Context, who: str, how: str) -> None:
    """Put out the fire on a character.

    \b
    Example:
      campaign extinguish Tanner --how "rolled in a puddle"
    """
    run(ctx, sg.Extinguish(character=who, reason=how))


COMMANDS = (explode, fall, ignite, extinguish)
