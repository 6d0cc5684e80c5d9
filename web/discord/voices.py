"""In-character posts in the channel as the character (RPG Sage's "dialog"): a post written as
a character or an NPC appears under the character's name, sent through a webhook of the channel
that the app makes for itself (``campaign-log``, found again after a restart), with the bot's
token (``CAMPAIGN_DISCORD_TOKEN``; the app needs Manage Webhooks in the channel). The webhook's
token never reaches the log: it is Discord's, kept in this process's memory only.

The post is the ruling recorded first, as always; its appearance in the channel follows the
answer. Without a bot token, or when Discord refuses, the answer itself shows the post."""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from domain.events import PostKind, PostWritten, Visibility
from engine import RulingResult
from projections.post_text import with_rolls
from web.discord import api

TOKEN = "CAMPAIGN_DISCORD_TOKEN"
NAME = "campaign-log"  # the name of the webhook the app makes in a channel
USERNAME = 80  # characters of a webhook message's username
# The permissions the app is invited with (docs/discord.md): to see the channel and list its
# webhooks, and to make the one posts go through. Answers need none: they are the interaction's.
VIEW_CHANNEL, MANAGE_WEBHOOKS = 1 << 10, 1 << 29
INVITE_PERMISSIONS = VIEW_CHANNEL | MANAGE_WEBHOOKS
log = logging.getLogger(__name__)
_hooks: dict[str, tuple[str, str]] = {}  # channel -> (webhook id, token)
_lock = threading.Lock()


def voice_of(result: RulingResult) -> tuple[str, str] | None:
    """The speaker and text of a public post in a character's or an NPC's voice (None for any
    other ruling: those are answered as rulings)."""
    if result.records and _visibility(result) is not Visibility.PUBLIC:
        return None
    post = next((r.event for r in result.records if isinstance(r.event, PostWritten)), None)
    if post is None or post.kind not in (PostKind.CHARACTER, PostKind.NPC) or not post.speaker:
        return None
    return post.speaker, with_rolls(post.text, post.rolls)


def _visibility(result: RulingResult) -> Visibility:
    return result.made.visibility


def can_speak() -> bool:
    return bool(os.environ.get(TOKEN, "").strip())


def speak(channel: str, speaker: str, text: str) -> None:
    """Post ``text`` in ``channel`` under ``speaker``'s name (said in the log when it fails)."""
    try:
        hook, token = _hook(channel)
        message = {
            "username": speaker[:USERNAME],
            "content": text[:2000],
            "allowed_mentions": {"parse": []},
        }
        api.call("POST", f"/webhooks/{hook}/{token}?wait=true", message)
    except Exception:
        log.exception("a post could not be shown in the channel as its character")


def post(channel: str, message: dict[str, Any]) -> Any:
    """Post ``message`` (a webhook message's data) in ``channel`` through the app's webhook;
    Discord's answer, or ``DISCORD_REFUSED``."""
    hook, token = _hook(channel)
    return api.call("POST", f"/webhooks/{hook}/{token}?wait=true", message)


def app_post(channel: str, message: dict[str, Any]) -> Any:
    """Post ``message`` in ``channel`` through the app's webhook there, under the app's name
    (``DiscordRefused`` when Discord refuses): what the app says itself, as a session's seal
    (``web.discord.seals``)."""
    hook, token = _hook(channel)
    body = {"username": NAME, "allowed_mentions": {"parse": []}, **message}
    return api.call("POST", f"/webhooks/{hook}/{token}?wait=true", body)


def _hook(channel: str) -> tuple[str, str]:
    """The app's webhook of ``channel``: remembered, found among the channel's, or made."""
    with _lock:
        if channel in _hooks:
            return _hooks[channel]
        token = os.environ.get(TOKEN, "").strip()
        found: Any = api.call("GET", f"/channels/{channel}/webhooks", None, token=token)
        ours = [h for h in found or [] if h.get("name") == NAME and h.get("token")]
        hook = (
            ours[0]
            if ours
            else api.call("POST", f"/channels/{channel}/webhooks", {"name": NAME}, token=token)
        )
        _hooks[channel] = (str(hook["id"]), str(hook["token"]))
        return _hooks[channel]


def forget() -> None:
    """Forget the remembered webhooks (tests; a process that was moved)."""
    with _lock:
        _hooks.clear()
