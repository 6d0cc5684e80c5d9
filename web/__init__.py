"""The table server (`campaign serve`): an HTTP JSON API on the engine's application API, with
sign-in by one-time invite links (a browser's session cookie) and bearer tokens (bots); and the
Interactions Endpoint of a Discord application (``web.discord``), whose slash commands and
registration the CLI takes from here."""

from web.app import create_app
from web.discord.api import put_commands
from web.discord.slash import commands as slash_commands

__all__ = ["create_app", "put_commands", "slash_commands"]
