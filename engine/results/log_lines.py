"""The log's lines, framed the one way `campaign log` and the table's pages show them: each
event's line with who it is about, an amendment as its reason and what now stands, a ruling's
disputes, and where in the session a ruling was made.

A `roll` prints its ruling with these lines, so they need no more than the events: the result
types (``engine.results.views``, tens of attrs classes) are for the commands that build them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING
from uuid import UUID

from domain.campaign import CampaignState
from domain.events import RulingAmended, RulingRetracted
from engine.store.records import Recorded
from projections.describe import describe, said_of_all

if TYPE_CHECKING:
    from engine.results.ruling import DisputeView


def names(campaign: CampaignState) -> dict[UUID, str]:
    """Each character's name by its stream."""
    return {e.character_id: e.name for e in campaign.roster}


def event_lines(records: Iterable[Recorded], campaign: CampaignState) -> list[str]:
    """The lines of some events, each with the character it is about (``Alice: ...``). An
    amendment reads as its reason (once, from the campaign stream) and what now stands
    (``now Alice: ...``); an undo is said once, by the campaign stream, and an event that says
    one thing of several streams (a turn order: ``said_of_all``) once, of no one."""
    who = names(campaign)
    lines: list[str] = []
    for record in records:
        event = record.event
        speaker = who.get(record.originator_id)
        if isinstance(event, RulingAmended):
            if record.originator_id == campaign.id:
                lines.append(describe(event) or "")
            for replaced in event.events:
                text = describe(replaced)
                if text is None:
                    continue
                if said_of_all(replaced):
                    _once(lines, f"now: {text}")
                else:
                    lines.append(f"now {speaker}: {text}" if speaker else f"now: {text}")
            continue
        if isinstance(event, RulingRetracted) and record.originator_id != campaign.id:
            continue  # the campaign stream's retraction says it once
        text = describe(event)
        if text is None:
            continue
        if said_of_all(event):
            _once(lines, text)
        else:
            lines.append(f"{speaker}: {text}" if speaker else text)
    return [line for line in lines if line]


def _once(lines: list[str], line: str) -> None:
    if line not in lines:
        lines.append(line)


def dispute_line(d: DisputeView) -> str:
    """A ruling's dispute as the log shows it under the ruling."""
    state = f"{d.outcome}: {d.resolution}" if d.outcome else "open"
    return f"DISPUTED (dispute {d.dispute}) by {d.by}: {d.reason}; {state}"


def where(session: int | None, scene: int | None) -> str:
    """``session 2, scene 3`` (the parts known; "" before any session)."""
    parts = [f"session {session}" if session else "", f"scene {scene}" if scene else ""]
    return ", ".join(p for p in parts if p)
