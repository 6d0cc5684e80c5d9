"""The table server (`campaign serve`): an HTTP JSON API on the engine's application API, with
sign-in by one-time invite links (a browser's session cookie) and bearer tokens (bots); and the
Interactions Endpoint of a Discord application (``web.discord``), whose slash commands and
registration the CLI takes from here."""

from web.app import create_app
from web.discord.api import put_commands
from web.discord.interactions import PATH as DISCORD_PATH
from web.discord.slash import commands as slash_commands
from web.notify.settings import notice_settings
from web.serving import serve

__all__ = [
    "DISCORD_PATH",
    "create_app",
    "notice_settings",
    "put_commands",
    "serve",
    "slash_commands",
]
