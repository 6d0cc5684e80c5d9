"""A member's own copy of the log (`campaign export --for MEMBER`): the export's lines, each row
the member may read whole, every other in its place as its stream, version, topic, its body's
SHA-256 and its stored link (``{"withheld": {"digest", "chain"}}``). A link is over its body's
digest (``engine.store.chain.link_of_digest``), so the copy is checked link by link and seal by
seal, and its heads digest is the GM's export's; a row linked over its body's bytes (written
before 2026-12-06) cannot be checked from a digest: its withheld line says so
(``"linked_over": "body"``) and the check takes its link as given, pinned by the next link.

What the member may read is what every read gives them (``domain.visibility``): a ruling not
hidden from them (public, private to them or theirs, hidden and since revealed; an undone ruling
as it was), and of it every row but a GM-only note's. A ruling whose header says it is a GM-only
note (a log written before such rulings were marked the GM's) is withheld whole."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.audience import Member
from domain.visibility import hidden_from
from engine.audit.chain import MADE, stored_body
from engine.audit.rows import StoreRows
from engine.store.chain import genesis, link_of_digest, stored_link
from engine.store.mapper import canonical_json, split_chain
from engine.transfer.export_import import PAGE, exported_streams, header_of, stored_line

if TYPE_CHECKING:
    from domain.campaign import CampaignState, DirectoryEntry
    from engine.audit.verify import Report
    from engine.store.campaign_store import CampaignStore

NOTE = "domain.events:NoteAdded"


def copy_lines(
    store: CampaignStore,
    entry: DirectoryEntry,
    report: Report,
    campaign: CampaignState,
    member: str,
    *,
    spec: str,
) -> Iterator[str]:
    """The member's copy as JSON lines: the export's header with ``copy_for``, then every
    stored event of the campaign in recorded order, whole or withheld."""
    recorder = store.recorder
    unread = set(hidden_from(campaign, Member(member)))
    streams = exported_streams(store, entry.campaign_id)
    headers = StoreRows(recorder).picked(entry.campaign_id, (MADE,))  # a page at a time
    unread |= {number for number in map(_gm_note, headers) if number is not None}
    yield json.dumps({**header_of(entry, report), "copy_for": member}, ensure_ascii=False)
    last: dict[UUID, str] = {}
    start = 1
    while True:
        page = recorder.select_notifications(start=start, limit=PAGE)
        for row in page:
            stream = row.originator_id if isinstance(row.originator_id, UUID) else None
            stream = stream or UUID(str(row.originator_id))
            if stream not in streams:
                continue
            previous = last.get(stream) or ""
            last[stream] = stored_link(row.state)
            body = stored_body(row)
            if body is not None and _readable(body, row.topic, unread):
                yield stored_line(row, spec)
                continue
            yield _withheld_line(row, stream, previous, last[stream])
        if len(page) < PAGE:
            return
        start = page[-1].id + 1


def _readable(body: dict[str, Any], topic: str, unread: set[int]) -> bool:
    if body.get("ruling") in unread:
        return False
    event = body.get("event")
    return not (topic == NOTE and isinstance(event, dict) and event.get("gm_only") is True)


def _gm_note(header: Any) -> int | None:
    """The number of a ruling whose header says it wrote a GM-only note (None: it did not)."""
    event = (stored_body(header) or {}).get("event") or {}
    if event.get("command") != "note":
        return None
    try:
        gm_only = json.loads(event["params"])["args"].get("gm_only")
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    number = event.get("number")
    return number if gm_only and isinstance(number, int) else None


def _withheld_line(row: Any, stream: UUID, previous: str, chain: str) -> str:
    """A row in its place, its body's digest and its link alone."""
    parts = split_chain(row.state)
    if parts is None:  # written before links came first: its body canonical again
        body = stored_body(row) or {}
        body.pop("chain", None)
        raw = canonical_json(body)
    else:
        raw = parts[1]
    digest = hashlib.sha256(raw).digest()
    kept: dict[str, str] = {"digest": digest.hex(), "chain": chain}
    before = previous or genesis(stream)
    version, topic = row.originator_version, row.topic
    if link_of_digest(before, str(stream), version, topic, digest) != chain:
        kept["linked_over"] = "body"  # a link over the body's bytes: not checked from a digest
    line = {"stream": str(stream), "version": version, "topic": topic, "withheld": kept}
    return json.dumps(line, sort_keys=True)
