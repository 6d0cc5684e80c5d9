"""Combat: initiative, attacks, grenades, aiming, and the end of a round."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from cli.sprawl_goons.options import roll_options
from domain.rulesets.sprawl_goons import commands as sg
from domain.rulesets.sprawl_goons.tables import ShotgunRange


@click.command("attack")
@click.argument("who")
@click.argument("targets", nargs=-1, required=True)
@click.option(
    "--stat", required=True, help="Morphology for melee and brawling, Reaction for shooting."
)
@click.option("--full-auto", metavar="WEAPON", help="+4, and the weapon's magazine is empty.")
@click.option("--burst", metavar="WEAPON", help="+2; three bursts to a magazine.")
@click.option(
    "--shotgun",
    type=click.Choice([r.value for r in ShotgunRange]),
    help="+3 damage point blank, +2 close; at range up to 3 bunched targets.",
)
@click.option(
    "--mono", is_flag=True, help="A monofilament weapon: +1 damage to an unarmoured target."
)
@click.option(
    "--vs-mono", is_flag=True, help="The target wields monofilament: armour adds nothing."
)
@click.option(
    "--damage",
    "damage_bonuses",
    multiple=True,
    metavar="SOURCE=+N",
    help="Extra damage on a hit; repeatable.",
)
@roll_options
@pass_context
def attack(
    ctx: Context,
    who: str,
    targets: tuple[str, ...],
    stat: str,
    full_auto: str | None,
    burst: str | None,
    shotgun: str | None,
    mono: bool,
    vs_mono: bool,
    damage_bonuses: tuple[str, ...],
    items: tuple[str, ...],
    bonuses: tuple[str, ...],
    glitch: bool,
    upgrade: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """A dangerous Action Roll against the target's DS: the margin is damage to the target, a
    shortfall is damage to the attacker.

    \b
    Example:
      campaign attack Tanner "Zone Boss ganger" --stat morphology \\
          --item katana --item kevlar --dice 3,5
    """
    command = sg.Attack(
        character=who,
        targets=targets,
        stat=stat,
        items=items,
        bonuses=bonuses,
        damage_bonuses=damage_bonuses,
        glitch=glitch,
        upgrade=upgrade,
        full_auto=full_auto,
        burst=burst,
        shotgun=shotgun,
        mono=mono,
        vs_mono=vs_mono,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("grenade")
@click.argument("who")
@click.argument("targets", nargs=-1, required=True)
@click.option("--enclosed", is_flag=True, help="An enclosed space: +3 damage.")
@click.option("--grenade", "grenade", metavar="ITEM", help="The grenade item to spend a use of.")
@click.option("--fumble", is_flag=True, help="The referee rules a miss hurts the thrower.")
@roll_options
@pass_context
def grenade(
    ctx: Context,
    who: str,
    targets: tuple[str, ...],
    enclosed: bool,
    grenade: str | None,
    fumble: bool,
    items: tuple[str, ...],
    bonuses: tuple[str, ...],
    glitch: bool,
    upgrade: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Throw a grenade: a Moderate (10) Reaction roll; each target takes the margin (+3 enclosed).

    \b
    Example:
      campaign grenade Katya "Genexus agent" --enclosed --dice 5,6
    """
    command = sg.ThrowGrenade(
        character=who,
        targets=targets,
        enclosed=enclosed,
        grenade=grenade,
        items=items,
        bonuses=bonuses,
        glitch=glitch,
        upgrade=upgrade,
        fumble=fumble,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("aim")
@click.argument("who")
@click.argument("target")
@pass_context
def aim(ctx: Context, who: str, target: str) -> None:
    """Spend a round scoping a target: +1 a round on the next attack, at most +3.

    \b
    Example:
      campaign aim Katya "Genexus agent"
    """
    run(ctx, sg.TakeAim(character=who, target=target))


@click.command("initiative")
@click.argument("combatants", nargs=-1, required=True)
@click.option(
    "--item",
    "items",
    multiple=True,
    metavar="WHO:ITEM",
    help="A relevant speedware augment or drug (+1); repeatable.",
)
@click.option(
    "--modifier",
    "modifiers",
    multiple=True,
    metavar="WHO=+N",
    help="The referee's modifier (NPCs have no stats); repeatable.",
)
@dice_options
@pass_context
def initiative(
    ctx: Context,
    combatants: tuple[str, ...],
    items: tuple[str, ...],
    modifiers: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Roll initiative: d6 + Reaction + 1 per relevant augment or drug, highest first.

    \b
    Example:
      campaign initiative Tanner Katya "Zone Boss ganger" --item "Katya:reflex booster" --dice 3,4,2
    """
    command = sg.RollInitiative(combatants=combatants, items=items, modifiers=modifiers)
    run(ctx, command, faces=faces, seed=seed)


@click.command("round")
@dice_options
@pass_context
def end_round(ctx: Context, faces: str | None, seed: int | None) -> None:
    """End the combat round: fire burns, and the dying come one round closer to death.

    \b
    Example:
      campaign round
    """
    run(ctx, sg.EndRound(), faces=faces, seed=seed)


COMMANDS = (attack, grenade, aim, initiative, end_round)
