"""Action Rolls outside a fight: a plain or dangerous roll against a DS, and hacking a system."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import run
from cli.sprawl_goons.options import roll_options
from domain.rulesets.sprawl_goons import commands as sg


@click.command("roll")
@click.argument("who")
@click.argument("stat")
@click.option(
    "--ds",
    required=True,
    help="The Difficulty Score: a number or easy, moderate, challenging, hard, formidable, "
    "extreme, impossible.",
)
@click.option("--dangerous", is_flag=True, help="A failure costs the shortfall in Resilience.")
@click.option(
    "--vs-mono", is_flag=True, help="The danger is a monofilament blade: armour adds nothing."
)
@roll_options
@pass_context
def roll(
    ctx: Context,
    who: str,
    stat: str,
    ds: str,
    dangerous: bool,
    vs_mono: bool,
    items: tuple[str, ...],
    bonuses: tuple[str, ...],
    glitch: bool,
    upgrade: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """An Action Roll: 2d6 + stat + 1 per relevant item + bonuses, success on total >= DS.

    \b
    Example:
      campaign roll Tanner morphology --ds hard --item toolkit --dice 4,5
    """
    command = sg.MakeActionRoll(
        character=who,
        stat=stat,
        ds=ds,
        dangerous=dangerous,
        items=items,
        bonuses=bonuses,
        glitch=glitch,
        upgrade=upgrade,
        vs_mono=vs_mono,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("hack")
@click.argument("who")
@click.argument("system")
@click.option("--console", help="The cyberspace console jacked in with (its bonus counts).")
@roll_options
@pass_context
def hack(
    ctx: Context,
    who: str,
    system: str,
    console: str | None,
    items: tuple[str, ...],
    bonuses: tuple[str, ...],
    glitch: bool,
    upgrade: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Hack a system: Cognition + console against its DS; secure systems deal neural damage.

    \b
    Example:
      campaign hack Dixie "Maas mainframe" --console ono-sendai --bonus "ICE-breaker=+1" --dice 5,6
    """
    command = sg.Hack(
        character=who,
        system=system,
        console=console,
        items=items,
        bonuses=bonuses,
        glitch=glitch,
        upgrade=upgrade,
    )
    run(ctx, command, faces=faces, seed=seed)


COMMANDS = (roll, hack)
