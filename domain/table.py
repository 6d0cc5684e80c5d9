"""Commands about the table's people, shared by every system: members and their roles, and
disputes of rulings. Who may issue which command is ``domain.policy``'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.campaign import CampaignState, Dispute
from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import (
    AlreadyDisputed,
    CannotRemoveGm,
    InvalidPublicKey,
    MemberExists,
    NoKeyForGm,
    NotHidden,
    UnknownDispute,
    UnknownMember,
    UnknownRuling,
)
from domain.events import (
    DisputeResolved,
    MemberAdded,
    MemberKeyRegistered,
    MemberRemoved,
    Outcome,
    Role,
    RulingDisputed,
    RulingRevealed,
)
from domain.plain import Plain
from domain.seats import required_text, seat
from domain.signatures import is_public_key


@frozen(kw_only=True)
class AddMember(Plain):
    """Seat somebody at the table: a player (with the characters they play), an observer, or
    another GM."""

    name: ClassVar[str] = "member add"
    member: str
    role: Role
    characters: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        who = seat(self.member, campaign.gm)
        known = campaign.member(who)
        if known is not None:
            raise MemberExists(name=who, role=known.role)
        bound = tuple(campaign.find(ref) for ref in self.characters)
        added = MemberAdded(
            name=who,
            role=Role(self.role),
            characters=tuple(e.character_id for e in bound),
            names=tuple(e.name for e in bound),
        )
        return (Change(campaign.id, added),)


@frozen(kw_only=True)
class RemoveMember(Plain):
    """Unseat a member; their rulings stay in the log under their name."""

    name: ClassVar[str] = "member remove"
    member: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        if self.member == campaign.gm:
            raise CannotRemoveGm(name=self.member)
        if not any(m.name == self.member for m in campaign.members):
            known = ", ".join(m.name for m in campaign.members) or "only the GM"
            raise UnknownMember(name=self.member, known=known)
        return (Change(campaign.id, MemberRemoved(name=self.member)),)


@frozen(kw_only=True)
class RegisterKey(Plain):
    """Put a player's public key on their seat (made by `campaign key new` on the player's own
    machine, or by their browser on the dice page): the entropy they add is counted only when
    signed by it. A later key replaces the earlier one; the log keeps both."""

    name: ClassVar[str] = "member key"
    member: str
    key: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        seated = campaign.member(self.member)
        if seated is None:
            known = ", ".join(m.name for m in campaign.members) or "only the GM"
            raise UnknownMember(name=self.member, known=known)
        if seated.role is Role.GM:
            raise NoKeyForGm(name=self.member)
        key = self.key.strip().lower()
        if not is_public_key(key):
            raise InvalidPublicKey(key=self.key[:80])
        return (Change(campaign.id, MemberKeyRegistered(name=seated.name, key=key)),)


@frozen(kw_only=True)
class DisputeRuling(Plain):
    """Object to a ruling, with a reason: it stays open until the GM resolves it."""

    name: ClassVar[str] = "dispute"
    ruling: int
    reason: str
    by: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        if not 1 <= self.ruling <= campaign.rulings:
            raise UnknownRuling(ruling=self.ruling)
        for d in campaign.open_disputes():
            if d.ruling == self.ruling and d.by == self.by:
                raise AlreadyDisputed(by=self.by, ruling=self.ruling, dispute=d.number)
        disputed = RulingDisputed(
            dispute=len(campaign.disputes) + 1,
            ruling=self.ruling,
            by=required_text(self.by, "who disputes"),
            reason=required_text(self.reason, "the reason for the dispute"),
        )
        return (Change(campaign.id, disputed),)


@frozen(kw_only=True)
class UpholdRuling(Plain):
    """Resolve a dispute by letting the ruling stand, saying why. (A dispute resolved by undoing
    or amending the ruling is resolved by that undo or amendment.)"""

    name: ClassVar[str] = "resolve"
    dispute: int
    reason: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        upheld = resolution(campaign, self.dispute, Outcome.UPHELD, self.reason)
        return (Change(campaign.id, upheld),)


def resolution(
    campaign: CampaignState, number: int, outcome: Outcome, reason: str
) -> DisputeResolved:
    """The resolution of open dispute ``number``, or a refusal listing the open ones."""
    found = open_dispute(campaign, number)
    return DisputeResolved(
        dispute=found.number,
        ruling=found.ruling,
        outcome=outcome,
        reason=required_text(reason, "the reason for the decision"),
    )


def open_dispute(campaign: CampaignState, number: int) -> Dispute:
    """The open dispute ``number``, or a refusal listing the open ones."""
    found = next((d for d in campaign.open_disputes() if d.number == number), None)
    if found is None:
        listed = ", ".join(f"{d.number} (ruling {d.ruling})" for d in campaign.open_disputes())
        raise UnknownDispute(dispute=number, open=listed or "none")
    return found


@frozen(kw_only=True)
class RevealRuling(Plain):
    """Show the table a ruling the GM kept hidden: its dice and outcome become everyone's."""

    name: ClassVar[str] = "reveal"
    ruling: int

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        waiting = campaign.hidden - campaign.revealed - campaign.retracted
        if self.ruling not in waiting:
            listed = ", ".join(str(n) for n in sorted(waiting)) or "none"
            raise NotHidden(ruling=self.ruling, hidden=listed)
        return (Change(campaign.id, RulingRevealed(ruling=self.ruling)),)
