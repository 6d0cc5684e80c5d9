"""`campaign verify`: walk every chain and seal of a campaign in the store's raw rows.

Works on the stored bytes, never on decoded events, so a row that no longer decodes is reported
rather than crashing the check.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import StoredEvent

from engine.chain import genesis, link, seal
from engine.mapper import canonical_json

if TYPE_CHECKING:
    from engine.service import Engine

MADE = "domain.events:RulingMade"
SEALED = "domain.events:SessionSealed"


@frozen
class Break:
    """The first place a stream's chain does not hold."""

    stream: UUID
    version: int
    ruling: int | None
    problem: str


@frozen
class Seal:
    session: int
    digest: str
    intact: bool


@frozen
class Report:
    streams: int
    events: int
    seals: tuple[Seal, ...]
    breaks: tuple[Break, ...]

    @property
    def intact(self) -> bool:
        return not self.breaks and all(s.intact for s in self.seals)


def _rows(engine: Engine, stream: UUID) -> Sequence[StoredEvent]:
    return engine.store.recorder.select_events(stream)


def _body(row: StoredEvent) -> dict[str, Any] | None:
    try:
        body: dict[str, Any] = json.loads(row.state)
    except (ValueError, UnicodeDecodeError):
        return None
    return body


def check_stream(stream: UUID, rows: Sequence[StoredEvent]) -> Break | None:
    """Walk one stream's chain from its genesis; the first row that does not link is reported."""
    previous = genesis(stream)
    for expected, row in enumerate(rows, start=1):
        if row.originator_version != expected:
            return Break(stream, expected, None, f"version {expected} is missing")
        body = _body(row)
        if body is None:
            return Break(stream, expected, None, "the stored event is not readable")
        ruling = body.get("ruling")
        chain = body.pop("chain", None)
        if not chain:
            return Break(stream, expected, ruling, "the event has no chain link")
        if link(previous, stream, expected, row.topic, canonical_json(body)) != chain:
            return Break(stream, expected, ruling, "the event was changed or moved")
        previous = chain
    return None


def verify(engine: Engine, campaign_name: str) -> Report:
    """Check every stream the campaign's rulings wrote to, every ruling's ranges, every seal."""
    campaign_id = engine.find_campaign(campaign_name).campaign_id
    rows: dict[UUID, Sequence[StoredEvent]] = {campaign_id: _rows(engine, campaign_id)}
    ranges: list[tuple[int, UUID, int]] = []
    sealed: list[dict[str, Any]] = []
    for row in rows[campaign_id]:
        body = _body(row) or {}
        event = body.get("event", {})
        if row.topic == MADE:
            for span in event.get("touched", []):
                ranges.append((event.get("number", 0), UUID(span["stream"]), span["last"]))
        elif row.topic == SEALED:
            sealed.append(event)
    for _, stream, _ in ranges:
        if stream not in rows:
            rows[stream] = _rows(engine, stream)
    breaks = [b for stream, found in rows.items() if (b := check_stream(stream, found))]
    for number, stream, last in ranges:
        if len(rows[stream]) < last and not any(b.stream == stream for b in breaks):
            problem = f"ruling {number} wrote up to version {last}; the stream ends before it"
            breaks.append(Break(stream, len(rows[stream]) + 1, number, problem))
    seals = tuple(_check_seal(event, rows, engine) for event in sealed)
    events = sum(len(found) for found in rows.values())
    ordered = tuple(sorted(breaks, key=lambda b: (b.ruling or 0, str(b.stream))))
    return Report(streams=len(rows), events=events, seals=seals, breaks=ordered)


def _check_seal(
    event: dict[str, Any], rows: dict[UUID, Sequence[StoredEvent]], engine: Engine
) -> Seal:
    heads: dict[UUID, tuple[int, str]] = {}
    intact = True
    for head in event.get("heads", []):
        stream, version, chain = UUID(head["stream"]), head["version"], head["chain"]
        heads[stream] = (version, chain)
        found = rows.get(stream) or _rows(engine, stream)
        stored = _body(found[version - 1]) if 0 < version <= len(found) else None
        intact = intact and stored is not None and stored.get("chain") == chain
    digest = event.get("digest", "")
    return Seal(event.get("number", 0), digest, intact and seal(heads) == digest)
