"""Characters and NPCs: making a PC from its stats and starting items, and the referee's NPCs and
systems (`character show` and `list` come from ``cli.sheets``)."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from domain.errors import DomainError
from domain.rulesets.sprawl_goons import commands as sg


class StatsFormat(DomainError):
    template = (
        "give the four stats as M,R,C,E (Morphology, Reaction, Cognition, Equilibrium), "
        "e.g. 2,1,1,0; got {text!r}"
    )


@click.group("character")
def character() -> None:
    """Create and show player characters.

    \b
    Example:
      campaign character show Tanner
    """


@character.command("create")
@click.argument("name")
@click.option(
    "--player",
    default="",
    help="Who plays the character (default: the name); given a seat as a player if they have none.",
)
@click.option(
    "--stats",
    required=True,
    metavar="M,R,C,E",
    help="4 points: Morphology, Reaction, Cognition, Equilibrium.",
)
@click.option(
    "--item",
    "items",
    multiple=True,
    help="A starting item from the list (key or name; melee:NAME for those to specify).",
)
@click.option(
    "--custom",
    multiple=True,
    metavar="KIND:NAME",
    help="A starting item the referee approved (kind: melee, ranged, armour, implant, "
    "console, consumable, drug, gear).",
)
@dice_options
@pass_context
def create(
    ctx: Context,
    name: str,
    player: str,
    stats: str,
    items: tuple[str, ...],
    custom: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Make a PC: 4 stat points, Resilience 12, Inventory 10, three starting items, 3d6 x 10 cash.

    With --dice, give the three cash dice first, then the uses dice of a stolen credit card
    (2d6) or a blister of Lazarus Patches (d6), in item order.

    \b
    Example:
      campaign character create Tanner --player ana --stats 2,1,1,0 \\
          --item melee:Katana --item "armour:Kevlar jacket" --item lazarus --dice 3,4,5,2
    """
    try:
        m, r, c, e = (int(v.strip()) for v in stats.split(","))
    except ValueError:
        raise StatsFormat(text=stats) from None
    command = sg.CreateCharacter(
        character=name,
        player=player,
        morphology=m,
        reaction=r,
        cognition=c,
        equilibrium=e,
        items=items,
        custom=custom,
        seat_player=bool(player.strip()),
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("npc")
@click.argument("name")
@click.option(
    "--ds",
    required=True,
    help="Its Difficulty Score, also its Resilience (a number or easy..impossible).",
)
@click.option(
    "--major", is_flag=True, help="A major NPC: critical injuries instead of dying at DS 0."
)
@click.option(
    "--armoured",
    is_flag=True,
    help="It wears armour (monofilament does +1 only to the unarmoured).",
)
@click.option("--system", is_flag=True, help="A system to hack rather than a person.")
@click.option(
    "--neural", is_flag=True, help="With --system: a secure system that deals neural damage."
)
@pass_context
def npc(
    ctx: Context, name: str, ds: str, major: bool, armoured: bool, system: bool, neural: bool
) -> None:
    """The referee brings in an NPC or a system; its DS is also its Resilience.

    \b
    Example:
      campaign npc "Zone Boss ganger" --ds moderate
    """
    command = sg.CreateNpc(
        character=name, ds=ds, major=major, armoured=armoured, system=system, neural=neural
    )
    run(ctx, command)


COMMANDS = (character, npc)


def _with_sheets() -> None:
    """`character show` and the other sheet verbs (``cli.sheets``), with Tanner as the example."""
    from cli.sheets import add_sheet_commands
    from cli.sprawl_goons.sheet import SHEETS

    add_sheet_commands(character, SHEETS, "Tanner")


_with_sheets()
