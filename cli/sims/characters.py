"""Sheets: making a character (the `character` group; `show` and `list` are added with the
sheets) and replacing a quality that sees no use."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import run
from domain.rulesets.sims import commands
from domain.rulesets.sims.tables import SheetKind


@click.group("character")
def character() -> None:
    """Create and show characters.

    \b
    Example:
      campaign character show Neo
    """


@character.command("create")
@click.argument("name")
@click.option(
    "--player",
    default="",
    help="Who plays the character (given a seat as a player if they have none; an NPC's "
    "default: the campaign's GM).",
)
@click.option(
    "--quality", "qualities", multiple=True, metavar="NAME:AREA:RANK", help="A quality (x10)."
)
@click.option("--npc", is_flag=True, help="A major NPC: any sheet.")
@click.option("--secondary", metavar="NAME:RANK", help="A secondary NPC: one Difficulty rank.")
@click.option("--custom", is_flag=True, help="GM: a player character outside the creation rules.")
@click.option("--strength", "strengths", multiple=True, help="A strength (repeatable).")
@click.option("--weakness", "weaknesses", multiple=True, help="A weakness (repeatable).")
@pass_context
def create(
    ctx: Context,
    name: str,
    player: str,
    qualities: tuple[str, ...],
    npc: bool,
    secondary: str | None,
    custom: bool,
    strengths: tuple[str, ...],
    weaknesses: tuple[str, ...],
) -> None:
    """Make a sheet: ten qualities (two Combat), two Good, one Poor, the rest Average.

    Areas: Physical, Mental, Social, Professional, Combat. Ranks: Poor, Average, Good, Expert,
    Master. NPCs (--npc) and GM sheets (--custom) skip the creation rules; a secondary NPC
    (--secondary) is a single rank.

    \b
    Example:
      campaign character create Ninja --secondary Henchman:Average
    """
    kind = SheetKind.SECONDARY if secondary else SheetKind.NPC if npc else SheetKind.PC
    command = commands.CreateCharacter(
        character=name,
        player=player,
        qualities=(secondary,) if secondary else qualities,
        kind=kind,
        custom=custom,
        strengths=strengths,
        weaknesses=weaknesses,
        seat_player=bool(player.strip()),
    )
    run(ctx, command)


@click.command("replace")
@click.argument("who")
@click.argument("quality")
@click.argument("new_name")
@click.option("--area", help="The new quality's area (default: the old one's).")
@click.option("--gm-approved", is_flag=True, help="The GM approved the change.")
@pass_context
def replace(
    ctx: Context, who: str, quality: str, new_name: str, area: str | None, gm_approved: bool
) -> None:
    """Swap a quality that sees no use for one that fits better, at the same rank.

    \b
    Example:
      campaign replace Neo Sailor Parkour --area Physical --gm-approved
    """
    command = commands.ReplaceQuality(
        character=who, quality=quality, new_name=new_name, area=area, gm_approved=gm_approved
    )
    run(ctx, command)
