"""Which campaign a Discord channel plays, and which member a Discord account is: read from the
campaigns' own rulings (``campaign discord link``, ``campaign member link``). Nothing here
records anything; a channel or an account not linked gets a line saying what to do."""

from __future__ import annotations

from attrs import frozen

from domain.campaign import CampaignState
from domain.errors import DomainError
from domain.links import DISCORD
from engine import Engine


class ChannelPlaysNothing(DomainError):
    template = (
        "this channel plays no campaign yet: the GM links it with `campaign discord link {channel}`"
    )


class ChannelPlaysTwo(DomainError):
    template = (
        "this channel is linked by more than one campaign ({campaigns}): the GM of all but one"
        " unlinks it with `campaign discord unlink {channel}`"
    )


class AccountNotLinked(DomainError):
    template = (
        "your Discord account is not linked to a member of {campaign!r}: the GM links it with"
        " `campaign member link NAME --discord {account}`"
    )


@frozen
class Seat:
    """Who is acting, and where: the campaign the channel plays and the member the account is."""

    campaign: CampaignState
    member: str


def campaign_of(engine: Engine, channel: str) -> CampaignState:
    """The campaign that linked ``channel`` (refused when none or more than one did)."""
    playing = [
        state
        for entry in engine.directory().campaigns
        if (DISCORD, channel) in (state := engine.campaign(entry.name)).channels
    ]
    if not playing:
        raise ChannelPlaysNothing(channel=channel)
    if len(playing) > 1:
        names = ", ".join(repr(c.name) for c in playing)
        raise ChannelPlaysTwo(campaigns=names, channel=channel)
    return playing[0]


def seat_of(engine: Engine, channel: str, account: str) -> Seat:
    """The campaign ``channel`` plays and the member ``account`` is in it."""
    campaign = campaign_of(engine, channel)
    member = campaign.member_on(DISCORD, account)
    if member is None or campaign.member(member) is None:
        raise AccountNotLinked(campaign=campaign.name, account=account)
    return Seat(campaign=campaign, member=member)
