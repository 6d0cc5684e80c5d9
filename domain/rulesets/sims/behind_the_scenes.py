"""Behind the Scenes (R-PDQ-15): the GM and the players write to each other privately, in
character or out of it (a "mole" among the players gets new orders). A private message is a
private post (``post --to``, ``domain.posts``): the engine lets only its author, its recipient
and the GMs read it.

What a Sims campaign refuses of a private post besides what every system refuses
(``check_private_post``, registered on the Sims ruleset): the rule's messages pass between the
GM and the players, so an observer neither writes nor receives one
(``OBSERVER_CANNOT_MESSAGE``); one is written to one other member (``MESSAGE_TO_SELF``,
``MESSAGE_TO_ONE_MEMBER``: DIGEST R-PDQ-15's ``PrivateMessageSent{from, to, ...}`` has one
recipient, and the text, "the GM would write to this specific player", does not say otherwise);
and it concerns a character: it speaks as one (``--character``), or its author or recipient
plays one (``MESSAGE_NEEDS_CHARACTER``).

``SendPrivateMessage`` is the ``message`` verb this was before it became ``post --to``: no verb
builds it any more, but the rulings that recorded it are decided again by undo and amend (and
its ``PrivateMessageSent`` reads as a private post: ``projections.sims``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

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

if TYPE_CHECKING:
    from domain.posts import WritePost


def _seat(campaign: CampaignState, name: str, *, recipient: bool) -> Member:
    """A member who may take part in a private message: the GM or a player."""
    if recipient and campaign.member(name) is None:
        known = ", ".join(m.name for m in campaign.seats)
        raise UnknownMember(name=name, known=known)
    member = acting_member(campaign, name)
    if member.role is Role.OBSERVER:
        raise errors.ObserverCannotMessage(name=name)
    return member


def _played(campaign: CampaignState, member: Member) -> list[str]:
    """The roster's characters ``member`` plays, in roster order."""
    own = campaign.own_characters(member)
    return [e.name for e in campaign.roster if e.character_id in own]


def check_private_post(campaign: CampaignState, post: WritePost) -> None:
    """Refuse a private post Behind the Scenes does not allow (see the module docstring)."""
    author = _seat(campaign, post.by, recipient=False)
    names = list(dict.fromkeys(name.strip() for name in post.to))
    recipients = [_seat(campaign, name, recipient=True) for name in names]
    for recipient in recipients:
        if recipient.name == author.name:
            raise errors.MessageToSelf(name=author.name)
    if len(recipients) > 1:
        raise errors.MessageToOneMember(names=", ".join(m.name for m in recipients))
    (recipient,) = recipients
    if post.character is None and not (_played(campaign, author) or _played(campaign, recipient)):
        raise errors.MessageNeedsCharacter(sender=author.name, to=recipient.name)


# --- The verb it was -----------------------------------------------------------------------------


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
    """Behind the Scenes as the ``message`` verb recorded it, before it became ``post --to``:
    kept so that its rulings can be decided again (undo, amend). Only the sender, the recipient
    and the GMs read it."""

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
