"""What a page shows of the log: each ruling as its reader may read it, in plain values the
templates lay out (``_ruling.html``); who the reader is (their seat, what they may do)."""

from __future__ import annotations

from typing import Any

from attrs import frozen

from domain.campaign import CampaignState
from domain.events import Role
from engine import NOT_UNDOABLE, LoggedRuling, UndoneView, dispute_views, where
from engine import event_lines as event_lines  # the pages' lines are the log's


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


def ruling_view(logged: LoggedRuling, campaign: CampaignState) -> dict[str, Any]:
    """One ruling for the templates: its header, dice, lines (framed as `campaign log` frames
    them), undo, amendments and disputes (the engine's ``DisputeView``); whether it is hidden
    from the table, and whether it may be corrected (undo refuses ``NOT_UNDOABLE``'s)."""
    made, header = logged.ruling, logged.header
    r = logged.retraction
    return {
        "number": made.number,
        "command": made.command,
        "actor": header.actor,
        "at": header.timestamp.strftime("%Y-%m-%d %H:%M"),
        "iso": header.timestamp.isoformat(),
        "place": where(header.session, header.scene),
        "dice": ", ".join(f"d{d.sides}:{d.face}" for d in made.dice),
        "provenance": "" if made.provenance is None else str(made.provenance),
        "lines": event_lines(logged.events, campaign),
        "undone": None if r is None else UndoneView(by=r.by, actor=r.actor, reason=r.reason),
        "amendments": [
            {
                "kind": a.kind,
                "by": a.by,
                "actor": a.actor,
                "reason": a.reason,
                "lines": event_lines(a.events, campaign),
            }
            for a in logged.amendments
        ],
        "disputes": dispute_views(campaign, made.number),
        "hidden": made.number in campaign.hidden and made.number not in campaign.revealed,
        "correctable": r is None and made.command not in NOT_UNDOABLE,
    }
