"""The recap read model: one document per session, kept up to date one ruling at a time.

Documents (keys within the model):
- ``campaign/<id>``: name, system, GM, who each stream is, rulings made outside a session that
  wait for the next session (its "before the session" part);
- ``ruling/<campaign id>/<n>``: the session a ruling belongs to (0 while it waits) and the key of
  the document that holds its entry;
- ``session/<campaign id>/<n>``: the session's scenes, its prologue, the corrections made during
  it, and how many rulings it has;
- ``session/<campaign id>/<n>/<page>``: the session's rulings, ``PAGE`` to a page, one entry per
  ruling: its events as plain data (``projections.event_data``), each with the character it is
  about, its part of the story, and later corrections (undone, amended, each with the events
  that stand instead). ``session_document`` puts a session back together.
- ``dispute/<campaign id>/<n>``: a dispute of a ruling and how it was resolved; a session lists
  the disputes raised or resolved in it.

One more ruling reads and writes its session's head and last page only, never the documents of
the whole session: its cost does not grow with the session's length.

The documents keep facts, not prose: no line of text is stored. A ruling's lines (``describe``),
highlights and moved scores are rendered from its events when the recap is read
(``projections.recap``), so a change to how an event reads changes every recap at once.

An undo or an amendment recorded later updates the entry of the ruling it corrects, in whatever
session that ruling was, and is listed in the session where it was made. Nothing is deleted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any
from uuid import UUID

from domain.events import (
    CORRECTIONS,
    CampaignCreated,
    CharacterJoined,
    DisputeResolved,
    Event,
    RosterRenamed,
    RulingAmended,
    RulingDisputed,
    RulingMade,
    RulingRetracted,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
    Visibility,
)
from domain.said import amended_say
from projections.documents import Documents
from projections.event_data import data_of
from projections.ids import id_text
from projections.recap_facts import STRUCTURE, Envelope, amendments_by_ruling
from projections.recap_story import story_of

Doc = dict[str, Any]
PAGE = 100  # entries in one page of a session's rulings


def header_of(records: Sequence[Envelope]) -> Envelope:
    for record in records:  # asked by each read model of each ruling: a loop, not a generator
        if isinstance(record.event, RulingMade):
            return record
    raise StopIteration  # as ``next`` of an empty generator


def kept(events: Iterable[tuple[UUID, Event]], names: dict[str, str]) -> list[Doc]:
    """The events of a ruling a recap reads, as facts: each as plain data with the character it
    is about (None: the campaign). Their lines, highlights and moved scores are rendered when
    the recap is read (``projections.recap``), never stored."""
    return [
        {"who": names.get(id_text(stream)), "event": data_of(event)}
        for stream, event in events
        if not isinstance(event, STRUCTURE)
    ]


# What a ruling's records may hold besides its entry: the campaign's own facts, corrections of
# earlier rulings, the structure of its session (a ruling with none of them writes its entry).
NAMING = (CampaignCreated, CharacterJoined, RosterRenamed)
CORRECTING = (RulingRetracted, RulingDisputed, DisputeResolved, RulingAmended)
SESSION = (SceneStarted, SessionEnded, SceneEnded)


class RecapModel:
    """Session recaps of every campaign in the store, for every rule system."""

    name = "recaps"
    # 4: each entry's part of the story (posts and narration, issue 29); 5: facts, not prose
    # (each entry keeps its events as data; its lines are rendered when the recap is read)
    version = 5

    def apply(self, docs: Documents, records: Sequence[Envelope]) -> None:
        header = header_of(records)
        made = header.event
        assert isinstance(made, RulingMade)
        cid = id_text(header.originator_id)
        campaign_key = f"campaign/{cid}"
        campaign = docs.get(campaign_key) or {"names": {}, "pending": []}
        correcting = False
        for record in records:
            event = record.event
            if isinstance(event, NAMING):
                if isinstance(event, CampaignCreated):
                    campaign.update(name=event.name, system=event.system, gm=event.gm)
                else:
                    campaign["names"][id_text(event.character_id)] = event.name
                if isinstance(event, CharacterJoined):
                    campaign.setdefault("players", {})[id_text(event.character_id)] = event.player
            elif isinstance(event, CORRECTING):
                correcting = True
        names: dict[str, str] = campaign["names"]
        if correcting:
            docs.put(campaign_key, campaign)  # the corrections below may edit its waiting rulings
            for record in records:
                if id_text(record.originator_id) != cid:
                    continue
                if isinstance(record.event, RulingRetracted):
                    self._undone(docs, header, record.event)
                elif isinstance(record.event, RulingDisputed | DisputeResolved):
                    self._dispute(docs, header, record.event)
            for amended in amendments_by_ruling(records):
                self._amended(docs, header, amended, names)
        if made.command not in CORRECTIONS:
            self._entry(docs, campaign, header, records, names)
        docs.put(campaign_key, campaign)

    # --- One ruling in its session --------------------------------------------------------------

    def _entry(
        self,
        docs: Documents,
        campaign: Doc,
        header: Envelope,
        records: Sequence[Envelope],
        names: dict[str, str],
    ) -> None:
        made = header.event
        assert isinstance(made, RulingMade)
        cid = id_text(header.originator_id)
        number = made.number
        events = [r.event for r in records]
        entry = {
            "ruling": number,
            "command": made.command,
            "actor": header.actor,
            "at": header.timestamp.isoformat(),
            "scene": header.scene,
            "events": [
                {"who": names.get(id_text(r.originator_id)), "event": data_of(r.event)}
                for r in records
                if not isinstance(r.event, STRUCTURE)
            ],  # as ``kept`` keeps them
            "undone": None,
            "amended": [],
            "story": story_of(made, header.actor, events, campaign),
        }
        started = None
        session_events = False
        for event in events:
            if isinstance(event, SESSION):
                session_events = True
            elif started is None and isinstance(event, SessionStarted):
                started = event
        if started is not None:
            self._start(docs, campaign, header, started.number)
        session = header.session
        if session is None:
            campaign["pending"].append(entry)
            docs.put(f"ruling/{cid}/{number}", _where(0, f"campaign/{cid}"))
            return
        key = f"session/{cid}/{session}"
        doc = docs.get(key) or _session(campaign, session, header)
        if session_events:
            for event in events:
                if isinstance(event, SceneStarted):
                    doc["scenes"].append({"number": event.number, "stage": event.stage})
                elif isinstance(event, SessionEnded):
                    doc["ended_at"] = header.timestamp.isoformat()
                elif isinstance(event, SceneEnded):
                    for scene in doc["scenes"]:
                        if scene["number"] == event.number:
                            scene["ended"] = True
        page_key = f"{key}/{doc['entries'] // PAGE}"
        page = docs.get(page_key) or {"rulings": []}
        page["rulings"].append(entry)
        doc["entries"] += 1
        docs.put(page_key, page)
        docs.put(key, doc)
        docs.put(f"ruling/{cid}/{number}", _where(session, page_key))

    def _start(self, docs: Documents, campaign: Doc, header: Envelope, number: int) -> None:
        """A session starts: the rulings made since the last one become its prologue."""
        cid = str(header.originator_id)
        key = f"session/{cid}/{number}"
        doc = _session(campaign, number, header)
        doc["prologue"] = campaign["pending"]
        for entry in campaign["pending"]:
            docs.put(f"ruling/{cid}/{entry['ruling']}", _where(number, key))
        campaign["pending"] = []
        docs.put(key, doc)

    # --- Corrections ----------------------------------------------------------------------------

    def _find(self, docs: Documents, cid: str, ruling: int) -> tuple[str, Doc, Doc] | None:
        """The document holding a ruling's entry, and the entry."""
        where = docs.get(f"ruling/{cid}/{ruling}")
        if where is None:
            return None
        key = where["doc"]
        doc = docs.get(key)
        entries = [*doc.get("prologue", []), *doc.get("rulings", []), *doc.get("pending", [])]
        entry = next((e for e in entries if e["ruling"] == ruling), None)
        return None if entry is None else (key, doc, entry)

    def _note(self, docs: Documents, header: Envelope, correction: Doc) -> None:
        """List a correction in the session where it was made."""
        if header.session is None:
            return
        key = f"session/{header.originator_id}/{header.session}"
        doc = docs.get(key)
        if doc is not None:
            doc["corrections_made"].append(correction)
            docs.put(key, doc)

    def _undone(self, docs: Documents, header: Envelope, event: RulingRetracted) -> None:
        cid = str(header.originator_id)
        undone = {"by": header.ruling, "actor": header.actor, "reason": event.reason}
        found = self._find(docs, cid, event.ruling)
        if found is not None:
            key, doc, entry = found
            entry["undone"] = undone
            docs.put(key, doc)
        session = _session_of(docs, cid, event.ruling)
        self._note(
            docs, header, {"ruling": event.ruling, "session": session, "kind": "undone", **undone}
        )

    def _amended(
        self,
        docs: Documents,
        header: Envelope,
        records: Sequence[Envelope],
        names: dict[str, str],
    ) -> None:
        cid = str(header.originator_id)
        first = records[0].event
        assert isinstance(first, RulingAmended)
        replacing = [(r.originator_id, e) for r in records for e in r.event.events]  # type: ignore[attr-defined]
        made = header.event
        assert isinstance(made, RulingMade)
        reason = next(r.event.reason for r in records if str(r.originator_id) == cid)  # type: ignore[attr-defined]
        campaign = docs.get(f"campaign/{cid}") or {}
        amendment = {
            "by": header.ruling,
            "actor": header.actor,
            "reason": reason,
            "kind": first.kind,
        }
        found = self._find(docs, cid, first.ruling)
        if found is not None:
            key, doc, entry = found
            events = [e for _, e in replacing]
            private = made.visibility is Visibility.PRIVATE  # never the story, as its ruling
            narration = None if private else amended_say(made, first)  # a corrected --say
            story = story_of(None, entry["actor"], events, campaign, entry, narration)
            entry["amended"].append(
                {
                    **amendment,
                    "events": kept(replacing, names),
                    "story": story,
                }
            )
            docs.put(key, doc)
        session = _session_of(docs, cid, first.ruling)
        self._note(
            docs,
            header,
            {"ruling": first.ruling, "session": session, **amendment},
        )

    # --- Disputes ---------------------------------------------------------------------------------

    def _dispute(
        self, docs: Documents, header: Envelope, event: RulingDisputed | DisputeResolved
    ) -> None:
        """A dispute raised or resolved: its document, listed in the session where it was."""
        cid = str(header.originator_id)
        key = f"dispute/{cid}/{event.dispute}"
        dispute: Doc = docs.get(key) or {
            "dispute": event.dispute,
            "ruling": event.ruling,
            "by": None,
            "reason": "",
        }
        if isinstance(event, RulingDisputed):
            dispute.update(by=event.by, reason=event.reason, outcome=None, resolution="")
            dispute.update(resolved_by=None, actor=None)
        else:
            dispute.update(outcome=str(event.outcome), resolution=event.reason)
            dispute.update(resolved_by=header.ruling, actor=header.actor)
        docs.put(key, dispute)
        if header.session is None:
            return
        session_key = f"session/{cid}/{header.session}"
        doc = docs.get(session_key)
        if doc is not None and event.dispute not in doc.setdefault("disputes", []):
            doc["disputes"].append(event.dispute)
            docs.put(session_key, doc)


def _session(campaign: Doc, number: int, header: Envelope) -> Doc:
    return {
        "campaign": campaign.get("name"),
        "system": campaign.get("system"),
        "gm": campaign.get("gm"),
        "session": number,
        "started_at": header.timestamp.isoformat(),
        "ended_at": None,
        "scenes": [],
        "prologue": [],
        "entries": 0,
        "corrections_made": [],
        "disputes": [],
    }


def _where(session: int, key: str) -> Doc:
    """Where a ruling's entry is: its session (0 while it waits) and the document holding it."""
    return {"session": session, "doc": key}


def _session_of(docs: Documents, cid: str, ruling: int) -> int | None:
    where = docs.get(f"ruling/{cid}/{ruling}")
    return None if where is None else int(where["session"])


def session_document(read: Callable[[str], Any], key: str) -> Doc:
    """A session's whole document (its head ``key``, ``session/<campaign id>/<n>``, with every
    page of its rulings), read through ``read`` (the read model's documents by key)."""
    head = read(key)
    if head is None:
        raise KeyError(key)
    pages = -(-head["entries"] // PAGE)
    rulings = [entry for page in range(pages) for entry in read(f"{key}/{page}")["rulings"]]
    cid = key.split("/")[1]
    disputes = [read(f"dispute/{cid}/{n}") for n in head.get("disputes", [])]
    return {**head, "rulings": rulings, "disputes": disputes}
