"""The Exposure reveal timeline read model (The Code's; ``projections.timeline.hero_document``
reads a hero back): what the public learnt, when and why.

Documents (keys within the model):
- ``campaign/<id>``: name, the heroes in order, and each ended session's last ruling;
- ``hero/<campaign id>/<hero id>``: the hero, its starting Exposure, how many rows and pages it
  has;
- ``hero/<campaign id>/<hero id>/<page>``: its rows, about ``PAGE`` to a page, one per ruling
  that moved its Exposure or revealed something: every change with its cause, the events that
  explain it (the dice of the roll, the blab, the problem solved), every detail revealed with
  its level, value then and session. ``hero_document`` puts a hero's rows back together.
  The explaining events are kept as data (``projections.event_data``) and read as lines
  (``describe``) when the timeline is read (``projections.timeline``): no text is stored;
- ``ruling/<campaign id>/<n>``: the page of each hero with a row from ruling n (so an undo finds
  it).

One more row reads and writes the hero's head and last page only: its cost does not grow with
the hero's history. An amendment's row goes into the page of the row it replaces.

An undone ruling's row stays, marked voided (who, why); an amended ruling's row is voided and the
row its replacement events make is put right after it. Re-deriving the reveals that a later gain
would now make after an undo (DIGEST §5.2 "Rederived") is not done here: the log holds no such
events, and a projection does not re-run the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from domain.events import CampaignCreated, Event, RulingAmended, RulingMade, RulingRetracted
from domain.events import SessionEnded as SessionEndedEvent
from domain.rulesets.the_code import events as tc
from projections.documents import Documents
from projections.event_data import data_of
from projections.ids import id_text
from projections.recap_facts import Envelope, amendments_by_ruling, gm_only
from projections.recap_model import header_of

Doc = dict[str, Any]
PAGE = 100  # rows in one page of a hero's timeline

ROW_EVENTS = (tc.ExposureChanged, tc.DetailRevealed, tc.IdentityMadePublic, tc.ExposureRolled)
EXPLAINING = (
    tc.ExposureRolled,
    tc.TraitBlabbed,
    tc.CommunityProblemSolved,
    tc.ObjectiveRewardRolled,
    tc.MoFollowed,
    tc.SessionTakenOff,
    tc.PopularityChanged,
)


def row_of(header: Envelope, events: Sequence[Event]) -> Doc | None:
    """A hero's timeline row for one ruling's events on its stream, or None."""
    if not any(isinstance(e, ROW_EVENTS) for e in events):
        return None
    changes = [
        {
            "before": e.before,
            "after": e.after,
            "delta": e.delta,
            "cause": str(e.cause),
            "peak_before": e.peak_before,
            "peak_after": e.peak_after,
        }
        for e in events
        if isinstance(e, tc.ExposureChanged)
    ]
    reveals = [
        {
            "detail": str(e.detail),
            "level": e.level,
            "value": e.value,
            "cause": str(e.cause),
            "gm_override": e.gm_override,
            "suggested": None if e.suggested is None else str(e.suggested),
            "session": e.session,
        }
        for e in events
        if isinstance(e, tc.DetailRevealed)
    ]
    because = [
        data_of(e) for e in events if isinstance(e, EXPLAINING) and _explains(e) and not gm_only(e)
    ]
    made = header.event
    assert isinstance(made, RulingMade)
    return {
        "ruling": made.number,
        "command": made.command,
        "session": header.session,
        "at": header.timestamp.isoformat(),
        "actor": header.actor,
        "changes": changes,
        "because": because,
        "reveals": reveals,
        "identity_public": any(isinstance(e, tc.IdentityMadePublic) for e in events),
        "voided": None,
        "replaces": None,
    }


def _explains(event: Event) -> bool:
    if isinstance(event, tc.PopularityChanged):
        return str(event.cause) == "lower-exposure"
    return True


class TimelineModel:
    """Exposure reveal timelines of every hero of every The Code campaign in the store."""

    name = "exposure"
    version = 3  # 3: facts, not prose (``because`` keeps the explaining events, as data)

    def apply(self, docs: Documents, records: Sequence[Envelope]) -> None:
        header = header_of(records)
        cid = id_text(header.originator_id)
        campaign = docs.get(f"campaign/{cid}") or {"heroes": [], "sessions": {}}
        by_stream: dict[UUID, list[Event]] = {}
        rows = False  # whether a stream's events may make a row (none: no hero has one)
        for record in records:
            event = record.event
            if isinstance(event, CampaignCreated):
                campaign.update(name=event.name, system=event.system)
            elif isinstance(event, SessionEndedEvent):
                campaign["sessions"][str(event.number)] = header.ruling
            elif isinstance(event, tc.HeroCreated):
                self._created(docs, campaign, header, record.originator_id, event)
            if id_text(record.originator_id) != cid:
                by_stream.setdefault(record.originator_id, []).append(event)
                rows = rows or isinstance(event, ROW_EVENTS)
            elif isinstance(event, RulingRetracted):
                self._void(docs, cid, event.ruling, header, "undone", event.reason)
        groups = amendments_by_ruling(records)
        for amended in groups:
            self._amended(docs, cid, header, amended)
        if not groups and rows:
            self._rows(docs, cid, header, by_stream)
        docs.put(f"campaign/{cid}", campaign)

    def _created(
        self, docs: Documents, campaign: Doc, header: Envelope, hero: UUID, event: tc.HeroCreated
    ) -> None:
        campaign["heroes"].append(str(hero))
        docs.put(
            f"hero/{header.originator_id}/{hero}",
            {
                "campaign": campaign.get("name"),
                "hero": event.code_name,
                "player": event.player,
                "start": event.exposure,
                "created": header.ruling,
                "count": 0,
                "pages": 0,
            },
        )

    def _rows(
        self, docs: Documents, cid: str, header: Envelope, by_stream: dict[UUID, list[Event]]
    ) -> None:
        pages: dict[str, str] = {}
        for stream, events in by_stream.items():
            key = f"hero/{cid}/{stream}"
            head = docs.get(key)
            row = row_of(header, events) if head is not None else None
            if row is None:
                continue
            page_key, page = _last_page(docs, key, head)
            page["rows"].append(row)
            head["count"] += 1
            docs.put(page_key, page)
            docs.put(key, head)
            pages[str(stream)] = page_key
        if pages:
            docs.put(f"ruling/{cid}/{header.ruling}", pages)

    def _void(
        self, docs: Documents, cid: str, ruling: int, header: Envelope, kind: str, reason: str
    ) -> None:
        voided = {"kind": kind, "by": header.ruling, "actor": header.actor, "reason": reason}
        for page_key in (docs.get(f"ruling/{cid}/{ruling}") or {}).values():
            page = docs.get(page_key)
            for row in page["rows"]:
                if row["ruling"] == ruling and row["voided"] is None:
                    row["voided"] = voided
            docs.put(page_key, page)

    def _amended(
        self, docs: Documents, cid: str, header: Envelope, records: Sequence[Envelope]
    ) -> None:
        first = records[0].event
        assert isinstance(first, RulingAmended)
        target = first.ruling
        self._void(docs, cid, target, header, first.kind, first.reason)
        pages: dict[str, str] = docs.get(f"ruling/{cid}/{target}") or {}
        for record in records:
            event = record.event
            assert isinstance(event, RulingAmended)
            hero = str(record.originator_id)
            key = f"hero/{cid}/{hero}"
            head = docs.get(key)
            row = row_of(header, event.events) if head is not None else None
            if row is None:
                continue
            row.update(ruling=target, replaces=target, amended_by=header.ruling)
            where = pages.get(hero)
            page_key, page = (where, docs.get(where)) if where else _last_page(docs, key, head)
            original = [i for i, r in enumerate(page["rows"]) if r["ruling"] == target]
            if original:  # right after the row it replaces, in the session of that row
                row["session"] = page["rows"][original[-1]]["session"]
                page["rows"].insert(original[-1] + 1, row)
            else:
                page["rows"].append(row)
            head["count"] += 1
            docs.put(page_key, page)
            docs.put(key, head)
            pages[hero] = page_key
        docs.put(f"ruling/{cid}/{target}", dict(sorted(pages.items())))


def _last_page(docs: Documents, key: str, head: Doc) -> tuple[str, Doc]:
    """The page a new row of hero ``key`` goes to: its last, or a new one when that is full."""
    if head["pages"]:
        page_key = f"{key}/{head['pages'] - 1}"
        page: Doc = docs.get(page_key)
        if len(page["rows"]) < PAGE:
            return page_key, page
    head["pages"] += 1
    return f"{key}/{head['pages'] - 1}", {"rows": []}
