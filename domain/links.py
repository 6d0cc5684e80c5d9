"""Where the table plays besides here: a chat link. A channel of a chat platform plays the
campaign, and each member may link their account there (what that account does in the channel
is done by the member). Linking is the GM's ruling, recorded like any other; a chat front end
(``web.discord``) reads the links. The platforms known are data (``PLATFORMS``): Discord today,
the ``platform`` every link records."""

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
    InvalidChatId,
    InvalidDiscordAppKey,
    UnknownMember,
)
from domain.events import ChannelLinked, ChannelUnlinked, MemberLinked
from domain.plain import Plain


@frozen(kw_only=True)
class ChatPlatform:
    """A chat platform a campaign may be played in: ``name`` as a link records it (the
    ``platform`` of ``ChannelLinked``, ``MemberLinked``), ``shown`` as a person reads it, and
    the ids of its channels and accounts: their ``pattern`` and their ``form`` in words (where a
    user finds one)."""

    name: str
    shown: str
    pattern: re.Pattern[str]
    form: str


DISCORD = "discord"
PLATFORMS: dict[str, ChatPlatform] = {
    DISCORD: ChatPlatform(
        name=DISCORD,
        shown="Discord",
        pattern=re.compile(r"[1-9][0-9]{16,19}"),  # snowflakes: 64-bit, 17-20 digits today
        form=(
            "a snowflake: 17 to 20 digits; Discord shows it with Developer Mode on, under Copy"
            " Channel ID / Copy User ID"
        ),
    ),
}


def chat_id(value: str, platform: str = DISCORD) -> str:
    """``value`` when it reads as an id of a channel or an account on ``platform``
    (``InvalidChatId`` otherwise)."""
    known = PLATFORMS[platform]
    text = value.strip()
    if known.pattern.fullmatch(text) is None:
        raise InvalidChatId(value=value, platform=known.shown, form=known.form)
    return text


@frozen(kw_only=True)
class LinkChannel(Plain):
    """Play this campaign in a Discord channel: the slash commands used there are recorded here,
    by the members whose accounts are linked. The key, if given, is the Discord application's
    public key (64 hex digits, from the developer portal), recorded with the link: the players'
    rolls made there are then sealed by Discord's signature of their interaction, checked
    with it."""

    name: ClassVar[str] = "discord link"
    channel: str
    key: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        from domain.signatures import is_public_key  # Ed25519 loads for a link, not a roll

        campaign = view.campaign
        channel = chat_id(self.channel)
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
        channel = chat_id(self.channel)
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
        account = chat_id(self.discord)
        if campaign.member(self.member) is None:
            known = ", ".join(m.name for m in campaign.seats)
            raise UnknownMember(name=self.member, known=known)
        linked = MemberLinked(name=self.member, platform=DISCORD, user=account)
        return (Change(campaign.id, linked),)
