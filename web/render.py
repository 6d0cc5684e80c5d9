"""Who reads a page (their seat, what they may do), and what the templates may use to lay out
the one ruling value every front end renders (``engine.LogEntry``, in ``_ruling.html`` and
``_entry.html``): its time, place and dice as text, from the text renderer's own functions."""

from __future__ import annotations

from attrs import frozen

from domain.campaign import CampaignState
from domain.events import Role
from engine import dice_source, faces, place, stamp

FILTERS = {"stamp": stamp, "place": place, "faces": faces, "dice_source": dice_source}


@frozen(kw_only=True)
class Reader:
    """The signed-in member reading a page: their name, role and the characters they play."""

    name: str
    role: str
    characters: tuple[str, ...]

    @property
    def gm(self) -> bool:
        return self.role == str(Role.GM)

    @property
    def disputes(self) -> bool:
        """A player or an observer objects to rulings (the GM undoes or amends instead)."""
        return self.role in (str(Role.PLAYER), str(Role.OBSERVER))


def reader_of(campaign: CampaignState, member: str) -> Reader:
    seat = campaign.member(member)
    own = campaign.own_characters(seat) if seat is not None else frozenset()
    return Reader(
        name=member,
        role=str(seat.role) if seat is not None else "",
        characters=tuple(e.name for e in campaign.roster if e.character_id in own),
    )
