"""Task resolution outside conflicts: simple situations (no roll) and complicated ones (2d6)."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from cli.sims.options import badass_option, penalty_option, with_option
from domain.rulesets.sims import commands


@click.command("simple")
@click.argument("who")
@click.argument("quality")
@click.option("--difficulty", required=True, help="The task's Difficulty rank.")
@click.option("--task", default="", help="What the character tries.")
@pass_context
def simple(ctx: Context, who: str, quality: str, difficulty: str, task: str) -> None:
    """Simple situation: a rank higher than the difficulty succeeds without a roll; otherwise
    it becomes complicated. QUALITY 'none' means the default Average.

    \b
    Example:
      campaign simple Neo Outdoorsman --difficulty Average --task "climb the wall"
    """
    command = commands.JudgeSimple(character=who, quality=quality, difficulty=difficulty, task=task)
    run(ctx, command)


@click.command("roll")
@click.argument("who")
@click.argument("qualities", nargs=-1)
@click.option("--difficulty", required=True, help="The task's Difficulty rank (TN 5..13).")
@click.option("--task", default="", help="What the character tries.")
@click.option("--hazardous", is_flag=True, help="Failing deals TN - total Damage Ranks.")
@badass_option
@penalty_option
@with_option
@dice_options
@pass_context
def roll(
    ctx: Context,
    who: str,
    qualities: tuple[str, ...],
    difficulty: str,
    task: str,
    hazardous: bool,
    badass: bool,
    penalties: tuple[str, ...],
    helpers: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Complicated situation: 2d6 + modifiers, match or beat the difficulty's target number.

    No QUALITIES means the default Average; several combine their modifiers.

    \b
    Example:
      campaign roll Cypher --difficulty Good --task "down the wall" --hazardous --dice 3,5
    """
    command = commands.RollComplicated(
        character=who,
        qualities=qualities,
        difficulty=difficulty,
        task=task,
        hazardous=hazardous,
        badass=badass,
        penalties=penalties,
        helpers=helpers,
    )
    run(ctx, command, faces=faces, seed=seed)
