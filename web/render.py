"""What a page shows of the log: each ruling as its reader may read it, in plain values the
templates lay out (``_ruling.html``); who the reader is (their seat, what they may do)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from attrs import frozen

from domain.campaign import CampaignState
from domain.events import Role, RulingAmended, RulingRetracted
from engine import LoggedRuling, Recorded
from projections.describe import describe

# Rulings the log keeps as they are (undo refuses them): no undo or amend button under them.
FOR_GOOD = frozenset(
    {
        "init",
        "undo",
        "amend",
        "session end",
        "entropy",
        "member key",
        "dispute",
        "resolve",
        "reveal",
    }
)


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


def event_lines(records: Iterable[Recorded], campaign: CampaignState) -> list[str]:
    """The log's lines of some events (``campaign log``'s), each with who it is about."""
    who: dict[UUID, str] = {e.character_id: e.name for e in campaign.roster}
    lines = []
    for record in records:
        event = record.event
        speaker = who.get(record.originator_id)
        if isinstance(event, RulingAmended):
            if record.originator_id == campaign.id:
                lines.append(describe(event) or "")
            for replaced in event.events:
                text = describe(replaced)
                if text is not None:
                    lines.append(f"now {speaker}: {text}" if speaker else f"now: {text}")
            continue
        if isinstance(event, RulingRetracted) and record.originator_id != campaign.id:
            continue  # the campaign stream's retraction says it once
        text = describe(event)
        if text is not None:
            lines.append(f"{speaker}: {text}" if speaker else text)
    return [line for line in lines if line]


def ruling_view(logged: LoggedRuling, campaign: CampaignState) -> dict[str, Any]:
    """One ruling for the templates: its header, dice, lines, undo, amendments, disputes."""
    made, header = logged.ruling, logged.header
    place = ", ".join(
        part
        for part in (
            f"session {header.session}" if header.session else "",
            f"scene {header.scene}" if header.scene else "",
        )
        if part
    )
    r = logged.retraction
    return {
        "number": made.number,
        "command": made.command,
        "actor": header.actor,
        "at": header.timestamp.strftime("%Y-%m-%d %H:%M"),
        "iso": header.timestamp.isoformat(),
        "place": place,
        "dice": ", ".join(f"d{d.sides}:{d.face}" for d in made.dice),
        "provenance": "" if made.provenance is None else str(made.provenance),
        "lines": event_lines(logged.events, campaign),
        "undone": None if r is None else {"by": r.by, "actor": r.actor, "reason": r.reason},
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
        "disputes": [
            {
                "number": d.number,
                "by": d.by,
                "reason": d.reason,
                "outcome": "" if d.outcome is None else str(d.outcome),
                "resolution": d.resolution,
            }
            for d in campaign.disputes
            if d.ruling == made.number
        ],
        "hidden": made.number in campaign.hidden and made.number not in campaign.revealed,
        "correctable": r is None and made.command not in FOR_GOOD,
    }
