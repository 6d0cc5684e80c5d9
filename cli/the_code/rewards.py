"""The Objective and Reward Points: accomplishing and altering the Objective, spending points."""

from __future__ import annotations

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import dice_options, run
from cli.the_code.options import reveal_option
from domain.rulesets.the_code.commands import (
    AccomplishObjective,
    AlterObjective,
    BuyMotivation,
    RecurProblem,
    SolveProblem,
)
from domain.rulesets.the_code.tables import Scale


@click.command("objective")
@click.argument("who")
@reveal_option
@dice_options
@pass_context
def objective(
    ctx: Context, who: str, reveal: tuple[str, ...], faces: str | None, seed: int | None
) -> None:
    """GM ruling: the Objective is accomplished. Rolls maximum Motivation (+1 die for the
    Weakness, +1 for the MO this session): each die at or above the score earns Reward Points
    and Motivation; an even MO die gains Exposure. Then the Popularity roll.

    \b
    Example:
      campaign objective "The Hawk" --dice 6,8,3,7,1,4,7
    """
    run(ctx, AccomplishObjective(hero=who, reveal=reveal), faces=faces, seed=seed)


@click.command("solve")
@click.argument("who")
@click.argument("scale", type=click.Choice([s.value for s in Scale]))
@click.argument("description")
@reveal_option
@dice_options
@pass_context
def solve(
    ctx: Context,
    who: str,
    scale: str,
    description: str,
    reveal: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Spend Reward Points on a community problem of the scale the GM rules (minor 25, general
    50, major 100): Exposure and Popularity rise 1/2/3, then the Popularity roll.

    \b
    Example:
      campaign solve "The Hawk" minor "petty theft on Elm Street" --dice 3,5,9,2
    """
    command = SolveProblem(hero=who, description=description, scale=Scale(scale), reveal=reveal)
    run(ctx, command, faces=faces, seed=seed)


@click.command("recur")
@click.argument("who")
@click.argument("description")
@click.option("--note", default="", help="How it came back.")
@pass_context
def recur(ctx: Context, who: str, description: str, note: str) -> None:
    """GM ruling: a community problem WHO solved has come back (a solution is rarely
    permanent). It may be solved again with Reward Points.

    \b
    Example:
      campaign recur "The Hawk" "petty crime on Elm Street" --note "a new gang moved in"
    """
    run(ctx, RecurProblem(hero=who, description=description, note=note))


@click.command("buy-motivation")
@click.argument("who")
@dice_options
@pass_context
def buy_motivation(ctx: Context, who: str, faces: str | None, seed: int | None) -> None:
    """Spend 25 Reward Points on one die: even raises the maximum Motivation by one.

    \b
    Example:
      campaign buy-motivation "The Hawk" --dice 4
    """
    run(ctx, BuyMotivation(hero=who), faces=faces, seed=seed)


@click.command("alter-objective")
@click.argument("who")
@click.option("--objective", "text", help="The new Objective.")
@click.option("--score", type=WHOLE_NUMBER, help="The new score (1-10).")
@pass_context
def alter_objective(ctx: Context, who: str, text: str | None, score: int | None) -> None:
    """Change the Objective: Motivation becomes half the new score; bought Motivation is lost.

    \b
    Example:
      campaign alter-objective "The Hawk" --objective "break the Falcone gang" --score 8
    """
    run(ctx, AlterObjective(hero=who, objective=text, score=score))
