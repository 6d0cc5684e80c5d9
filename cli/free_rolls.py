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
    """Roll dice no rule names (--why says what for): EXPRESSION in Avrae's dice notation
    (2d6+1; 4d6kh3 keeps the highest 3, 2d20kl1 the lowest; 4d6ro1 rerolls 1s once, rr until
    none, 10d6ra6 adds a die for a 6; 2d6e6 explodes; 4d6mi2, ma5; (1d6, 1d8)kh1; (1d8+4)*2;
    1d10[cold]; d% is a d100; `d20+3 adv` and `1d20 dis` are 2d20kh1+3 and 2d20kl1), at most
    100 dice of 2 to 1000 sides, 1000 drawn with rerolls and explosions. The dice come from
    --dice (every die drawn, in order), --seed or the session's committed dice, and are
    recorded like any other roll's. An expression that starts with a minus goes last, after
    `--` (`campaign dice -- -1+1d6`).

    \b
    Example:
      campaign dice 1d6 --why "to see if it rains" --dice 4
      campaign dice d20+3 adv
      campaign dice "4d6ro1kh3" --why stats
    """
    command = RollFreely(expression=" ".join(expression), why=why)
    run(ctx, command, faces=faces, seed=seed)


COMMANDS = (dice,)
