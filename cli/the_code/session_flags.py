"""The GM's calls for the session: the MO followed, the Weakness in play, violent or secretive."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import run
from domain.rulesets.the_code.commands import FollowMo, RuleConduct, RuleWeaknessInPlay


@click.command("mo")
@click.argument("who")
@click.argument("description", required=False, default="")
@pass_context
def mo(ctx: Context, who: str, description: str) -> None:
    """GM ruling: the hero followed their MO this session (an extra Exposure die, a bonus die
    when the Objective is accomplished).

    The GM's call (R-TC-14, TC-A27); a player records it for their own hero only in a campaign
    made with --house-rule playersRecordMo=true.

    \b
    Example:
      campaign mo "The Hawk" "left the mugger cuffed to a phone booth"
    """
    run(ctx, FollowMo(hero=who, description=description))


@click.command("weakness")
@click.argument("who")
@click.argument("task")
@pass_context
def weakness(ctx: Context, who: str, task: str) -> None:
    """GM ruling: the hero's Weakness came into play this session.

    \b
    Example:
      campaign weakness "The Hawk" "chasing the van on foot"
    """
    run(ctx, RuleWeaknessInPlay(hero=who, task=task))


@click.command("conduct")
@click.argument("who")
@click.option("--violent/--not-violent", default=False, help="The hero is violent.")
@click.option("--secretive/--not-secretive", default=False, help="The hero is secretive.")
@pass_context
def conduct(ctx: Context, who: str, violent: bool, secretive: bool) -> None:
    """GM ruling: is the hero violent or secretive? (They lose Popularity on a roll with no evens.)

    \b
    Example:
      campaign conduct "The Hawk" --violent
    """
    run(ctx, RuleConduct(hero=who, violent=violent, secretive=secretive))
