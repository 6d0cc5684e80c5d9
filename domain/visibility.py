"""Who reads what: a ruling is public, the GMs' alone (a hidden roll, until revealed), or
private to the members it names; a GM-only note is the GMs' whatever its ruling. Every read
(log, history, recap, timeline) asks here for its audience (``domain.audience``)."""

from __future__ import annotations

from typing import Protocol

from domain.audience import Audience, GMs, Member, Table
from domain.campaign import CampaignState
from domain.errors import NotAllowed
from domain.events import Event, NoteAdded, Role, Visibility
from domain.policy import acting_member, check_gm


def reads_all(campaign: CampaignState, reader: Audience) -> bool:
    """Whether ``reader`` reads everything: the GMs, or a member seated as a GM (a member with
    no seat is refused ``NOT_A_MEMBER``); never the table."""
    if isinstance(reader, GMs):
        return True
    if isinstance(reader, Table):
        return False
    return acting_member(campaign, reader.name).role is Role.GM


def sees_event(campaign: CampaignState, reader: Audience, event: Event) -> bool:
    """Whether ``reader`` may read one event of a ruling they see (a GM-only note is not)."""
    return not (isinstance(event, NoteAdded) and event.gm_only) or reads_all(campaign, reader)


def hidden_from(campaign: CampaignState, reader: Audience) -> frozenset[int]:
    """The rulings ``reader`` may not read (none, for a GM): the GM's hidden ones not revealed
    and those private to others (the campaign keeps both from each ruling's visibility); for the
    table, every private ruling, whoever it names."""
    if reads_all(campaign, reader):
        return frozenset()
    name = reader.name if isinstance(reader, Member) else None
    kept = {number for number, audience in campaign.private if name not in audience}
    return (campaign.hidden - campaign.revealed) | kept


def check_whole_log(campaign: CampaignState, reader: Audience, what: str) -> None:
    """Refuse ``what`` (a read of everything, hidden rulings and private posts whole: the
    export) to any audience but the GMs or a member seated as a GM; never the table."""
    if isinstance(reader, Member):
        check_gm(campaign, reader.name, what)
    elif isinstance(reader, Table):
        raise NotAllowed(who="the table", role="everyone", what=what, rule="only a GM reads it all")


def check_copy_for(campaign: CampaignState, reader: Audience, member: str) -> None:
    """Refuse a member's own copy of the log (what they read whole, the rest withheld) to any
    audience but the GMs, a member seated as a GM, or the member themself; ``member`` must hold
    a seat (``NOT_A_MEMBER``)."""
    acting_member(campaign, member)
    if isinstance(reader, Member) and reader.name != member:
        check_gm(campaign, reader.name, f"export {member}'s copy of the log")
    elif isinstance(reader, Table):
        what = f"export {member}'s copy of the log"
        raise NotAllowed(who="the table", role="everyone", what=what, rule="only a GM or they do")


class Private(Protocol):
    """A command whose ruling only some members read (a private message): ``audience``
    names them; the GMs read it too."""

    def audience(self) -> tuple[str, ...]: ...


def visibility_of(command: object, *, hidden: bool) -> tuple[Visibility, tuple[str, ...]]:
    """A new ruling's visibility and audience: the GMs' for a hidden roll or a command for the
    GMs only (``gm_only`` set: a GM-only note), private to its ``audience`` for a command that
    names one (``Private``), else public. (Read by name, so that no command class need be
    imported to record another's ruling.)"""
    if hidden or getattr(command, "gm_only", False) is True:
        return Visibility.GM, ()
    audience = getattr(command, "audience", None)
    named = tuple(audience()) if callable(audience) else ()
    if named:  # a post to nobody in particular is the whole table's
        return Visibility.PRIVATE, named
    return Visibility.PUBLIC, ()
