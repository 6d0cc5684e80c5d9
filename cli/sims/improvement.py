"""Characters Improvement: adventures completed, upgrades from a successful campaign or an Upgrade
Mission, spent on a rank, on Master+ or on Rebirth."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import run
from domain.rulesets.sims import commands
from domain.rulesets.sims.tables import MASTER_PLUS_QUALITIES


@click.group("adventure")
def adventure() -> None:
    """Adventures: the parts a campaign is made of.

    \b
    Example:
      campaign adventure complete "The Merovingian's club"
    """


@adventure.command("complete")
@click.argument("name")
@pass_context
def adventure_complete(ctx: Context, name: str) -> None:
    """An adventure is over: recorded for every player character (no upgrade by itself; the
    campaign's success brings one).

    \b
    Example:
      campaign adventure complete "The Merovingian's club"
    """
    run(ctx, commands.CompleteAdventure(adventure=name))


@click.command("campaign-success")
@pass_context
def campaign_success(ctx: Context) -> None:
    """The campaign succeeded: every player character earns one upgrade.

    \b
    Example:
      campaign campaign-success
    """
    run(ctx, commands.SucceedCampaign())


@click.group("mission")
def mission() -> None:
    """Upgrade Missions, announced in advance by the GM.

    \b
    Example:
      campaign mission announce "The Vault" Neo
    """


@mission.command("announce")
@click.argument("name")
@click.argument("characters", nargs=-1, required=True)
@pass_context
def mission_announce(ctx: Context, name: str, characters: tuple[str, ...]) -> None:
    """Announce that a mission is an Upgrade Mission for these characters.

    \b
    Example:
      campaign mission announce "The Vault" Neo Trinity
    """
    run(ctx, commands.AnnounceMission(mission=name, characters=characters))


@mission.command("succeed")
@click.argument("name")
@click.argument("characters", nargs=-1)
@pass_context
def mission_succeed(ctx: Context, name: str, characters: tuple[str, ...]) -> None:
    """The Upgrade Mission succeeded: each character it was announced to earns one upgrade.

    \b
    Example:
      campaign mission succeed "The Vault"
    """
    run(ctx, commands.SucceedMission(mission=name, characters=characters))


@click.command("upgrade")
@click.argument("who")
@click.argument("quality")
@pass_context
def upgrade(ctx: Context, who: str, quality: str) -> None:
    """Spend an upgrade: one quality one rank higher (not above Master).

    \b
    Example:
      campaign upgrade Rocky Boxer
    """
    run(ctx, commands.UpgradeQuality(character=who, quality=quality))


@click.command("master-plus")
@click.argument("who")
@click.argument("qualities", nargs=MASTER_PLUS_QUALITIES)
@pass_context
def master_plus(ctx: Context, who: str, qualities: tuple[str, ...]) -> None:
    """Master in three qualities: spend an upgrade on two new qualities, both Good.

    \b
    Example:
      campaign master-plus Trinity Telepathy Flight
    """
    run(ctx, commands.TakeMasterPlus(character=who, qualities=qualities))


@click.command("rebirth")
@click.argument("who")
@click.option("--quality", "qualities", multiple=True, metavar="NAME:AREA:RANK", help="x10.")
@click.option("--extra", multiple=True, metavar="NAME[:extraordinary]", help="x4, all Good.")
@pass_context
def rebirth(ctx: Context, who: str, qualities: tuple[str, ...], extra: tuple[str, ...]) -> None:
    """Master in six qualities, no Master+: spend an upgrade on a whole new sheet plus four Good
    qualities (one may be psychic or extraordinary).

    \b
    Example:
      campaign rebirth Trinity --quality Kicks:Combat:Good ... --extra Psi:extraordinary
    """
    run(ctx, commands.TakeRebirth(character=who, qualities=qualities, extra=extra))
