"""Where the table plays besides here: a Discord channel that plays the campaign, and the Discord
account of each member (what that account does in the channel is done by the member). Linking
is the GM's ruling, recorded like any other; ``web.discord`` reads the links."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import (
    ChannelLinkedAlready,
    ChannelNotLinked,
    InvalidDiscordAppKey,
    InvalidDiscordId,
    UnknownMember,
)
from domain.events import ChannelLinked, ChannelUnlinked, MemberLinked
from domain.plain import Plain

DISCORD = "discord"
SNOWFLAKE = re.compile(r"[1-9][0-9]{16,19}")  # Discord's ids: 64-bit, 17-20 digits today


def discord_id(value: str) -> str:
    """``value`` when it reads as a Discord id (``INVALID_DISCORD_ID`` otherwise)."""
    text = value.strip()
    if SNOWFLAKE.fullmatch(text) is None:
        raise InvalidDiscordId(value=value)
    return text


@frozen(kw_only=True)
class LinkChannel(Plain):
    """Play this campaign in a Discord channel: the slash commands used there are recorded here,
    by the members whose accounts are linked. ``key``: the Discord application's public key
    (64 hex digits, from the developer portal), recorded with the link: the players' rolls
    made there are then sealed by Discord's signature of their interaction, checked with it."""

    name: ClassVar[str] = "discord link"
    channel: str
    key: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        from domain.signatures import is_public_key  # Ed25519 loads for a link, not a roll

        campaign = view.campaign
        channel = discord_id(self.channel)
        if (DISCORD, channel) in campaign.channels:
            raise ChannelLinkedAlready(channel=channel)
        key = self.key.strip().lower()
        if key and not is_public_key(key):
            raise InvalidDiscordAppKey(value=self.key[:80])
        linked = ChannelLinked(platform=DISCORD, channel=channel, key=key)
        return (Change(campaign.id, linked),)


@frozen(kw_only=True)
class UnlinkChannel(Plain):
    """Stop playing this campaign in a Discord channel (what was recorded from it stays)."""

    name: ClassVar[str] = "discord unlink"
    channel: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        channel = discord_id(self.channel)
        if (DISCORD, channel) not in campaign.channels:
            linked = ", ".join(c for p, c in campaign.channels if p == DISCORD) or "none"
            raise ChannelNotLinked(channel=channel, linked=linked)
        return (Change(campaign.id, ChannelUnlinked(platform=DISCORD, channel=channel)),)


@frozen(kw_only=True)
class LinkMember(Plain):
    """Link a member's Discord account: what it does in a linked channel is done by the member
    (a later link replaces theirs; an account belongs to one member)."""

    name: ClassVar[str] = "member link"
    member: str
    discord: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        account = discord_id(self.discord)
        if campaign.member(self.member) is None:
            known = ", ".join(m.name for m in campaign.seats)
            raise UnknownMember(name=self.member, known=known)
        linked = MemberLinked(name=self.member, platform=DISCORD, user=account)
        return (Change(campaign.id, linked),)
