"""Making tests: declaring one with a pair of traits, assisting it (or the GM ruling an assist
out), and rolling it."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from domain.errors import DomainError
from domain.rulesets.code_green.commands import AssistTest, DeclareTest, RejectAssist, RollTest


@click.command("test")
@click.argument("who")
@click.argument("traits", nargs=-1)
@click.option("--no-pair", is_flag=True, help="No pair of traits applies (roll only assist dice).")
@click.option("--roll", "roll_now", is_flag=True, help="Roll at once (no assistance).")
@dice_options
@pass_context
def test(
    ctx: Context,
    who: str,
    traits: tuple[str, ...],
    no_pair: bool,
    roll_now: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Declare a test with one Form and one Function trait; friends may then assist.

    The pool is the tokens in the Form trait's row and the Function trait's column (the square
    where they cross counts once), plus one die per assisting friend. Roll it with `campaign roll`,
    or at once with --roll.

    \b
    Example:
      campaign test 31415 Legs Invulnerable --roll --dice 2,5
    """
    if no_pair and traits:
        raise TraitsWithNoPair()
    if not no_pair and len(traits) != 2:
        raise TraitsWithNoPair()
    form, function = (None, None) if no_pair else traits
    command = DeclareTest(character=who, form=form, function=function, roll=roll_now)
    run(ctx, command, faces=faces, seed=seed)


class TraitsWithNoPair(DomainError):
    template = "name one Form and one Function trait (e.g. Legs Invulnerable), or pass --no-pair"


@click.command("assist")
@click.argument("helper")
@click.argument("square")
@click.option("--why", required=True, help="How the helper's pair helps (the rules ask for it).")
@pass_context
def assist(ctx: Context, helper: str, square: str, why: str) -> None:
    """Hand one die to the declared test, with the pair under one of the helper's own tokens.

    \b
    Example:
      campaign assist 52231 Teeth/Cryptic --why "bites through the cable"
    """
    run(ctx, AssistTest(helper=helper, square=square, justification=why))


@click.command("reject-assist")
@click.argument("helper")
@click.option("--reason", required=True, help="Why the helper's pair does not apply.")
@pass_context
def reject_assist(ctx: Context, helper: str, reason: str) -> None:
    """GM ruling: a helper's pair does not apply to the declared test; its die is taken back.

    Before the roll only. The same helper may still assist with another pair under one of its
    tokens, not with the pair ruled out.

    \b
    Example:
      campaign reject-assist bob --reason "his blood cannot reach the radio from here"
    """
    run(ctx, RejectAssist(helper=helper, reason=reason))


@click.command("roll")
@click.argument("who", required=False)
@dice_options
@pass_context
def roll(ctx: Context, who: str | None, faces: str | None, seed: int | None) -> None:
    """Roll the declared test: highest die; a pool of zero rolls two and keeps the lowest.

    \b
    Example:
      campaign roll --dice 3,6
    """
    run(ctx, RollTest(character=who), faces=faces, seed=seed)
