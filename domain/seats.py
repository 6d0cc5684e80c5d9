"""A member's seat: the checks a new member's name passes, and the seats a character's creation
gives its players. Apart from the session's commands (``domain.lifecycle``), which a system's
character creation does not need to load."""

from __future__ import annotations

from collections.abc import Sequence

from domain.campaign import CampaignState
from domain.commands import Change
from domain.errors import EmptyText, InvalidMemberName, MemberExists
from domain.events import CharacterJoined, MemberAdded, Role


def seated_players(campaign: CampaignState, changes: Sequence[Change]) -> tuple[Change, ...]:
    """``changes`` (a character's creation), and a seat as a player for each player of a new
    character who has none: the GM's `character create --player alice` seats alice in the same
    ruling (``seat_player`` on each system's creation command), so undoing it unseats her."""
    seats: list[Change] = []
    for change in changes:
        joined = change.event
        if isinstance(joined, CharacterJoined) and campaign.member(joined.player) is None:
            added = MemberAdded(name=seat(joined.player, campaign.gm), role=Role.PLAYER)
            seats.append(Change(campaign.id, added))
    return (*changes, *seats)


def seat(name: str, gm: str) -> str:
    """A new member's name, checked: printable, 1 to 80 characters, not the GM's."""
    who = required_text(name, "the member's name")
    if not who.isprintable() or len(who) > 80:
        raise InvalidMemberName(name=name)
    if who == gm:
        raise MemberExists(name=who, role=Role.GM)
    return who


def required_text(value: str, what: str) -> str:
    """``value`` stripped, refused when nothing is left."""
    text = value.strip()
    if not text:
        raise EmptyText(what=what)
    return text
