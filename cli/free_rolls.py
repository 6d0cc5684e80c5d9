"""Free rolls: dice no rule names, a verb every system shares."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from domain.free_rolls import RollFreely


@click.command("dice")
@click.argument("expression", nargs=-1, required=True)
@click.option("--why", default="", help="What the roll is for (the log shows it).")
@dice_options
@pass_context
def dice(
    ctx: Context, expression: tuple[str, ...], why: str, faces: str | None, seed: int | None
) -> None:
    """Roll dice no rule names (--why says what for): EXPRESSION in dice notation (2d6+1,
    4d6kh3 keeps the highest 3, 2d20kl1 the lowest, 1d20-1d4+2, d%; `d20+3 adv` and `1d20 dis`
    are 2d20kh1+3 and 2d20kl1), at most 100 dice of 2 to 1000 sides. The dice come from
    --dice, --seed or the session's committed dice, and are recorded like any other roll's.
    An expression that starts with a minus goes last, after `--` (`campaign dice -- -1+1d6`).

    \b
    Example:
      campaign dice 1d6 --why "to see if it rains" --dice 4
      campaign dice d20+3 adv
    """
    command = RollFreely(expression=" ".join(expression), why=why)
    run(ctx, command, faces=faces, seed=seed)


COMMANDS = (dice,)
