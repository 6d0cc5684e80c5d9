"""Behind the Scenes: the GM and the players write to each other privately, in character or out
of it (a "mole" among the players gets new orders). Each message is a private ruling: the
engine lets only its ``audience`` (the sender and the recipient) and the GMs read it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.campaign import CampaignState, Member
from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import UnknownMember
from domain.events import Role
from domain.lifecycle import required_text
from domain.plain import Plain
from domain.policy import acting_member
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.events import PrivateMessageSent
from domain.rulesets.sims.lookup import character


def _seat(campaign: CampaignState, name: str, *, recipient: bool) -> Member:
    """A member who may take part in a private message: the GM or a player."""
    if recipient and campaign.member(name) is None:
        known = ", ".join([campaign.gm, *(m.name for m in campaign.members)])
        raise UnknownMember(name=name, known=known)
    member = acting_member(campaign, name)
    if member.role is Role.OBSERVER:
        raise errors.ObserverCannotMessage(name=name)
    return member


def _kept_with(view: View, *members: Member) -> SimsCharacter | None:
    """The character a message naming none is kept with: the recipient's first character, else
    the sender's."""
    campaign = view.campaign
    for member in members:
        played = campaign.own_characters(member)
        found = next((e.character_id for e in campaign.roster if e.character_id in played), None)
        if found is not None:
            kept: SimsCharacter = view.character(found)
            return kept
    return None


@frozen(kw_only=True)
class SendPrivateMessage(Plain):
    """Behind the Scenes: write privately to one member of the table (a player, or the GM), in
    character or out of it. Only the sender, the recipient and the GMs ever read it: it stays
    out of everyone else's log, history and recap. A player writes for their own character;
    the GM for any character, or in person."""

    name: ClassVar[str] = "message"
    to: str
    body: str
    by: str
    character: str | None = None
    in_character: bool = False

    def audience(self) -> tuple[str, ...]:
        """Who reads the ruling besides the GMs (``domain.visibility.Private``)."""
        return tuple(dict.fromkeys((self.by, self.to)))

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        sender = _seat(campaign, self.by, recipient=False)
        recipient = _seat(campaign, self.to, recipient=True)
        if sender.name == recipient.name:
            raise errors.MessageToSelf(name=sender.name)
        body = required_text(self.body, "the message")
        voice = character(view, self.character) if self.character is not None else None
        kept = voice or _kept_with(view, recipient, sender)
        if kept is None:
            raise errors.MessageNeedsCharacter(sender=sender.name, to=recipient.name)
        sent = PrivateMessageSent(
            sender=sender.name,
            to=recipient.name,
            character=voice.name if voice is not None else None,
            body=body,
            in_character=self.in_character,
        )
        return (Change(kept.id, sent),)
