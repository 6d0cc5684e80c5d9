"""The calls the program makes to Discord's HTTP API: the bulk overwrite of the slash commands
(with the bot's token) and the edit of a deferred answer (through the interaction's webhook,
whose token is the interaction's). ``CAMPAIGN_DISCORD_API`` points every call at another base
URL (tests point it at a local stand-in); the default is Discord's API, version 10."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Any

from domain.errors import Fault
from projections.plain_text import plain_text

ENVVAR = "CAMPAIGN_DISCORD_API"
DISCORD_API = "https://discord.com/api/v10"
AGENT = "DiscordBot (https://github.com/campaign-log, 1)"  # the form Discord asks of bots
TIMEOUT = 20.0


class DiscordRefused(Fault):
    template = "Discord answered {status}: {problem}"


def base() -> str:
    return os.environ.get(ENVVAR, DISCORD_API).rstrip("/")


def call(method: str, path: str, body: Any, *, token: str | None = None) -> Any:
    """One request to the API (``path`` under the base URL); its JSON answer, or
    ``DISCORD_REFUSED`` saying what Discord said."""
    headers = {"Content-Type": "application/json", "User-Agent": AGENT}
    if token is not None:
        headers["Authorization"] = f"Bot {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base() + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        said = error.read()[:300].decode("utf-8", "replace")
        raise DiscordRefused(status=error.code, problem=plain_text(said)) from None
    except OSError as error:
        raise DiscordRefused(status="nothing", problem=plain_text(str(error))[:200]) from None


def put_commands(application: str, guild: str | None, commands: list[Any], token: str) -> Any:
    """Replace the application's slash commands (in one server's scope, or everywhere)."""
    scope = f"/guilds/{guild}" if guild is not None else ""
    return call("PUT", f"/applications/{application}{scope}/commands", commands, token=token)


def edit_original(application: str, interaction_token: str, data: dict[str, Any]) -> Any:
    """Replace a deferred answer ("… is thinking") with the answer (``data`` of a message)."""
    path = f"/webhooks/{application}/{interaction_token}/messages/@original"
    return call("PATCH", path, data)


def follow_up(application: str, interaction_token: str, data: dict[str, Any]) -> Any:
    """One more message after the answer (a recap's next part)."""
    return call("POST", f"/webhooks/{application}/{interaction_token}", data)
