"""What only some members may read, delivered to them alone: a ruling made in a channel that
the whole table does not read (a private post, a hidden roll, a GM-only note) is answered to
its author only (an ephemeral answer), and the app sends it by direct message to each of its
other readers whose Discord account is linked: a private post's addressees and the GMs, a
hidden ruling's GMs. The channel never shows it.

A direct message needs the bot's token (``CAMPAIGN_DISCORD_TOKEN``, as posting in a
character's voice does): the app opens a DM channel with the account (``POST
/users/@me/channels``) and posts the ruling there (``POST /channels/{id}/messages``). Without a
token, or when Discord refuses (a member who allows no DMs from the server's members), the
reader finds it where they read the log (the table page, ``/log``); the server's log says
which reader was not told."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

from domain.campaign import CampaignState
from domain.events import Role, Visibility
from domain.links import DISCORD
from engine import RulingResult
from web.discord import api
from web.discord.voices import TOKEN

log = logging.getLogger(__name__)
DM = "discord-dm"  # where a member is told of a ruling (``Engine.told_once``): by direct message


def readers_besides(result: RulingResult, author: str) -> tuple[str, ...]:
    """The members besides ``author`` who may read ``result``'s ruling when the table may not
    (none for a public ruling): the GMs, and a private ruling's addressees."""
    header = result.made
    if header.visibility is Visibility.PUBLIC:
        return ()
    campaign = result.campaign
    named = header.audience if header.visibility is Visibility.PRIVATE else ()
    gms = tuple(m.name for m in campaign.seats if m.role is Role.GM)
    seated = {m.name for m in campaign.seats}
    readers = dict.fromkeys(name for name in (*gms, *named) if name in seated)
    return tuple(name for name in readers if name != author)


def accounts_of(campaign: CampaignState, members: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each of ``members`` with the Discord account they linked (those who linked none left
    out)."""
    found = ((m, campaign.account_of(DISCORD, m)) for m in members)
    return [(member, account) for member, account in found if account is not None]


def can_send() -> bool:
    return bool(os.environ.get(TOKEN, "").strip())


def dm(account: str, body: dict[str, Any], token: str) -> None:
    """Send ``body`` (a message's data) to the Discord account ``account`` by direct message:
    its DM channel opened (or found again) first."""
    channel: Any = api.call("POST", "/users/@me/channels", {"recipient_id": account}, token=token)
    api.call("POST", f"/channels/{channel['id']}/messages", body, token=token)


def send(
    result: RulingResult,
    author: str,
    message: dict[str, Any],
    first: Callable[[str], bool] = lambda member: True,
) -> list[str]:
    """DM ``message`` (a message's data: an embed) to each other reader of ``result``'s
    ruling whose account is linked, and for whom ``first(member)`` says nobody told them of it
    by direct message yet (the server's notices, ``web.notify``, tell a private post's
    addressees too); the members it reached (a failure is logged, not raised: the ruling is
    recorded whatever Discord says)."""
    token = os.environ.get(TOKEN, "").strip()
    members = readers_besides(result, author)
    if not token or not members:
        return []
    told = []
    # the ruling as its author saw it, without its buttons (they answer in the channel)
    body: dict[str, Any] = {key: message[key] for key in ("content", "embeds") if key in message}
    body["allowed_mentions"] = {"parse": []}
    for member, account in accounts_of(result.campaign, members):
        try:
            if not first(member):
                continue
            dm(account, body, token)
            told.append(member)
        except Exception:
            log.exception(
                "ruling %s could not be sent to %s by direct message", result.number, member
            )
    return told
