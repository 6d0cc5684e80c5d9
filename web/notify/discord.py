"""Notices in Discord: a mention of each member's linked account in the channel the campaign
plays in, for what the table may read (one message for every member told at once, through the
app's webhook of the channel, ``web.discord.voices``), and a direct message for what only the
member may (``web.discord.direct``). Both need the bot's token (``CAMPAIGN_DISCORD_TOKEN``).

A mention pings only the accounts it names: ``allowed_mentions`` lists them (at most 100 a
message, Discord's limit) and nothing else (no role, no ``@everyone`` a line might hold); a
direct message pings nobody."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from engine import Notice
from projections.plain_text import plain_text
from web.discord import direct, voices

CONTENT = 2000  # characters of a message's content
USERS = 100  # accounts one message may mention


def can_send() -> bool:
    return bool(os.environ.get(voices.TOKEN, "").strip())


def _line(text: str, limit: int = 400) -> str:
    flat = plain_text(text)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _chunks(lines: Sequence[str], tail: str) -> list[list[str]]:
    """``lines`` in messages of at most ``CONTENT`` characters, ``tail`` closing each."""
    chunks: list[list[str]] = [[]]
    size = len(tail) + 1
    for line in lines:
        if chunks[-1] and size + len(line) + 1 > CONTENT:
            chunks.append([])
            size = len(tail) + 1
        chunks[-1].append(line)
        size += len(line) + 1
    return chunks


def mentions(campaign: str, told: Sequence[tuple[str, Notice]], link: str) -> list[dict[str, Any]]:
    """The channel's messages telling each account (``told``: account, notice) what waits on
    it, each mentioning only the accounts it names."""
    lines = [f"<@{account}> {_line(notice.line)}" for account, notice in told]
    tail = f"{_line(campaign, 100)}: <{link}>"
    messages = []
    for chunk in _chunks(lines, tail):
        for start in range(0, len(chunk), USERS):
            part = chunk[start : start + USERS]
            accounts = list(dict.fromkeys(line[2 : line.index(">")] for line in part))
            messages.append(
                {
                    "content": "\n".join([*part, tail]),
                    "allowed_mentions": {"users": accounts[:USERS]},
                }
            )
    return messages


def direct_message(campaign: str, notices: Sequence[Notice], link: str) -> list[dict[str, Any]]:
    """The direct messages telling a member ``notices`` (no mention: nobody is pinged)."""
    head = f"{_line(campaign, 100)} waits on you:"
    lines = [f"- {_line(n.line)}" for n in notices]
    return [
        {"content": "\n".join([head, *chunk, f"<{link}>"]), "allowed_mentions": {"parse": []}}
        for chunk in _chunks(lines, head + f"\n<{link}>")
    ]


def post_mentions(channel: str, messages: Sequence[dict[str, Any]]) -> None:
    for message in messages:
        voices.post(channel, message)


def send_direct(account: str, messages: Sequence[dict[str, Any]]) -> None:
    token = os.environ.get(voices.TOKEN, "").strip()
    for message in messages:
        direct.dm(account, message, token)
