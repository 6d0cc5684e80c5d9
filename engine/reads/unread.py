"""What a member has not read yet: the entries of a session's thread (``projections.thread``, as
they may read it) that someone else wrote after their read position. Their own posts and
rulings are never new to them; corrections show on what they corrected, not as entries."""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen

from projections.thread import Entry


@frozen(kw_only=True)
class Unread:
    """A member's place in a session's thread (``session`` None: the rulings before the first
    session): the last ruling of it they were shown (``read``, 0: none yet), and the entries
    others wrote after it (``rulings``, in order; ``count`` of them, the ``first``)."""

    campaign: str
    member: str
    session: int | None
    read: int
    count: int
    first: int | None
    rulings: list[int]


def new_to(member: str, read: int, entries: Iterable[Entry]) -> list[int]:
    """The rulings of ``entries`` new to ``member`` who read up to ruling ``read``: those
    recorded after it by someone else."""
    return [e.ruling for e in entries if e.ruling > read and e.actor != member]


def unread_of(
    campaign: str, member: str, session: int | None, read: int, entries: Iterable[Entry]
) -> Unread:
    found = new_to(member, read, entries)
    return Unread(
        campaign=campaign,
        member=member,
        session=session,
        read=read,
        count=len(found),
        first=found[0] if found else None,
        rulings=found,
    )
