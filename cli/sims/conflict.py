"""Conflicts: attacks and tied re-rolls, distributing the ranks taken, and killing."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from cli.sims.options import badass_option, penalty_option, with_option
from domain.rulesets.sims import commands
from domain.rulesets.sims.tables import RankKind


@click.command("attack")
@click.argument("who")
@click.argument("qualities", nargs=-1)
@click.option(
    "--target",
    "targets",
    multiple=True,
    required=True,
    metavar="WHO[:QUALITY]",
    help="A defender and its defending quality (repeat to split the attack).",
)
@click.option(
    "--kind",
    type=click.Choice(["damage", "failure"]),
    default="damage",
    show_default=True,
    help="Damage Ranks (combat) or Failure Ranks (social, mental).",
)
@click.option("--full-attack", is_flag=True, help="Play Full Attack with this attack.")
@click.option(
    "--full-defense", multiple=True, metavar="WHO", help="A defender reacts with Full Defense."
)
@badass_option
@penalty_option
@with_option
@click.option("--killing", is_flag=True, help="Killing damage (house rule lethality).")
@dice_options
@pass_context
def attack(
    ctx: Context,
    who: str,
    qualities: tuple[str, ...],
    targets: tuple[str, ...],
    kind: str,
    full_attack: bool,
    full_defense: tuple[str, ...],
    badass: bool,
    penalties: tuple[str, ...],
    helpers: tuple[str, ...],
    killing: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Conflict: roll against each defender's rank as a Difficulty. Higher than the TN hits for
    the difference in ranks; equal ties and is rolled again (`campaign reroll`).

    \b
    Example:
      campaign attack Draco Cutlass --target Ninja --dice 3,6
    """
    command = commands.Attack(
        attacker=who,
        qualities=qualities,
        targets=targets,
        kind=RankKind(kind.capitalize()),
        full_attack=full_attack,
        full_defense=full_defense,
        badass=badass,
        penalties=penalties,
        helpers=helpers,
        killing=killing,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("reroll")
@click.argument("who", required=False)
@dice_options
@pass_context
def reroll(ctx: Context, who: str | None, faces: str | None, seed: int | None) -> None:
    """Roll a tied attack again, everything as it was.

    \b
    Example:
      campaign reroll Draco --dice 4,4
    """
    run(ctx, commands.Reroll(attacker=who), faces=faces, seed=seed)


@click.command("allocate")
@click.argument("who")
@click.argument("steps", nargs=-1, required=True)
@pass_context
def allocate(ctx: Context, who: str, steps: tuple[str, ...]) -> None:
    """Distribute the ranks taken: one quality per rank, in order (a quality may repeat).

    \b
    Example:
      campaign allocate Kristov Brawler Brawler "Dirty Fighter"
    """
    run(ctx, commands.AllocateRanks(character=who, steps=steps))


@click.command("kill")
@click.argument("attacker")
@click.argument("victim")
@pass_context
def kill(ctx: Context, attacker: str, victim: str) -> None:
    """Out for Blood: on the attacker's next turn, kill a character who is out of the scene.

    \b
    Example:
      campaign kill Jefferson Kristov
    """
    run(ctx, commands.Kill(attacker=attacker, victim=victim))
