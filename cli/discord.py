"""`campaign discord`: play the campaign in a Discord channel. ``link`` and ``unlink`` are the
GM's rulings; ``commands`` prints the slash commands generated from the campaign's verbs (the
JSON Discord's bulk overwrite takes) and ``register`` sends them to Discord with the bot's token
(``CAMPAIGN_DISCORD_TOKEN``; ``CAMPAIGN_DISCORD_API`` points at another API, as tests do)."""

from __future__ import annotations

import os

import click

from cli.context import Context, pass_context
from cli.render import emit_json, say, show_ruling
from domain.errors import DomainError
from domain.links import LinkChannel, UnlinkChannel, chat_id
from domain.rulesets import SYSTEMS

TOKEN = "CAMPAIGN_DISCORD_TOKEN"


class NoDiscordToken(DomainError):
    template = (
        f"registering commands needs the bot's token in ${TOKEN} (the developer portal's Bot page)"
    )


@click.group("discord")
def discord() -> None:
    """Play the campaign in a Discord channel: link it, then register the slash commands.

    \b
    Example:
      campaign discord link 1100000000000000001
    """


@discord.command("link")
@click.argument("channel")
@click.option(
    "--key",
    default="",
    help="The Discord application's public key (the developer portal's General Information): "
    "players' rolls made in the channel are then sealed by Discord's signature.",
)
@pass_context
def discord_link(ctx: Context, channel: str, key: str) -> None:
    """Play this campaign in a Discord channel (the GM's call): slash commands used there are
    recorded here, by the members whose accounts are linked (`campaign member link`).

    \b
    Example:
      campaign discord link 1100000000000000001
    """
    command = LinkChannel(channel=channel, key=key)
    show_ruling(ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor), ctx.as_json)


@discord.command("unlink")
@click.argument("channel")
@pass_context
def discord_unlink(ctx: Context, channel: str) -> None:
    """Stop playing this campaign in a Discord channel; what was recorded from it stays.

    \b
    Example:
      campaign discord unlink 1100000000000000001
    """
    command = UnlinkChannel(channel=channel)
    show_ruling(ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor), ctx.as_json)


def _system(ctx: Context, system: str | None) -> str:
    return system or ctx.engine.find_campaign(ctx.campaign()).system


@discord.command("commands")
@click.option("--system", type=click.Choice(sorted(SYSTEMS)), help="Default: the campaign's.")
@pass_context
def discord_commands(ctx: Context, system: str | None) -> None:
    """Print the slash commands of a system's campaign, as Discord's bulk overwrite takes them.

    \b
    Example:
      campaign discord commands --system sprawl-goons
    """
    from web import slash_commands

    emit_json(slash_commands(_system(ctx, system)))


@discord.command("register")
@click.option("--application", required=True, help="The application's id (General Information).")
@click.option("--guild", help="A server's id: its commands appear at once (default: global).")
@click.option("--system", type=click.Choice(sorted(SYSTEMS)), help="Default: the campaign's.")
@pass_context
def discord_register(ctx: Context, application: str, guild: str | None, system: str | None) -> None:
    """Send the slash commands to Discord (a bulk overwrite: those registered before are
    replaced). Needs the bot's token in $CAMPAIGN_DISCORD_TOKEN.

    \b
    Example:
      campaign discord register --application 4400000000000000001 --guild 5500000000000000001
    """
    from web import put_commands, slash_commands

    token = os.environ.get(TOKEN, "").strip()
    if not token:
        raise NoDiscordToken()
    app = chat_id(application)
    server = chat_id(guild) if guild is not None else None
    found = slash_commands(_system(ctx, system))
    answer = put_commands(app, server, found, token)
    if ctx.as_json:
        emit_json(answer)
    else:
        say(f"registered {len(found)} commands" + (f" in server {guild}" if guild else " globally"))


COMMANDS = (discord,)
