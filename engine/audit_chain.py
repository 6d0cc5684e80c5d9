"""The stored rows as ``verify`` reads them: the topics it looks for, each row's body (when it
still reads), its link and the values it holds, and why a row does not read; each stream's chain
walked from its genesis, the streams a campaign's rulings wrote to, and one digest over every
stream's head."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from engine.audit_report import Break
from engine.chain import genesis, link, seal, stored_link
from engine.mapper import canonical_json, loads, split_chain
from engine.records import DIRECTORY_ID as DIRECTORY

MADE = "domain.events:RulingMade"
SEALED = "domain.events:SessionSealed"
COMMITTED = "domain.events:DiceCommitted"
REVEALED = "domain.events:DiceRevealed"
ENTROPY = "domain.events:EntropyAdded"


def stored_body(row: StoredEvent) -> dict[str, Any] | None:
    try:
        body: dict[str, Any] = loads(row.state)
    except (ValueError, UnicodeDecodeError):
        return None
    return body


def as_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def why(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 160 else text[:157] + "..."


def link_at(found: Sequence[StoredEvent], version: int) -> str:
    """The link of a stream's stored row at ``version`` ("" when there is none)."""
    at = version - 1
    if not 0 <= at < len(found) or found[at].originator_version != version:
        at = bisect_left([r.originator_version for r in found], version)  # rows are missing
        if at >= len(found) or found[at].originator_version != version:
            return ""
    return stored_link(found[at].state)


def check_stream(
    stream: UUID, rows: Sequence[StoredEvent], owner: Callable[[int], int | None] | None = None
) -> Break | None:
    """Walk one stream's chain from its genesis; the first row that does not link is reported.

    A row written chain first is checked over its own bytes; any other is parsed, its link
    taken out and its body encoded canonically again (older stores wrote the link among the
    sorted keys). ``owner`` names the ruling whose header claims a version (for a missing row,
    the only way to name it; for a changed one, the ruling it says is its own comes first)."""
    previous = genesis(stream)
    name = str(stream)
    for expected, row in enumerate(rows, start=1):
        if row.originator_version != expected:
            ruling = owner(expected) if owner is not None else None
            return Break(stream, expected, ruling, f"version {expected} is missing")
        fast = split_chain(row.state)
        if fast is not None and link(previous, name, expected, row.topic, fast[1]) == fast[0]:
            previous = fast[0]
            continue
        body = stored_body(row)
        claimed = owner(expected) if owner is not None else None
        if not isinstance(body, dict):
            return Break(stream, expected, claimed, "the stored event is not readable")
        ruling = body.get("ruling") if isinstance(body.get("ruling"), int) else claimed
        chain = body.pop("chain", None)
        if not chain:
            return Break(stream, expected, ruling, "the event has no chain link")
        if link(previous, stream, expected, row.topic, canonical_json(body)) != chain:
            return Break(stream, expected, ruling, "the event was changed or moved")
        previous = chain
    return None


def campaign_streams(campaign_id: UUID, campaign_rows: Sequence[StoredEvent]) -> list[UUID]:
    """The campaign's stream and every stream its rulings wrote to (not the store's directory,
    which every campaign of the store shares)."""
    streams = [campaign_id]
    for row in campaign_rows:
        if row.topic == MADE:
            for span in (stored_body(row) or {}).get("event", {}).get("touched", []):
                stream = UUID(span["stream"])
                if stream not in streams and stream != DIRECTORY:
                    streams.append(stream)
    return streams


def heads_digest(rows: Mapping[UUID, Sequence[StoredEvent]]) -> str:
    """One digest over every stream's last version and link: equal for equal logs."""
    heads = {}
    for stream, found in rows.items():
        if found:
            last = stored_body(found[-1]) or {}
            heads[stream] = (found[-1].originator_version, str(last.get("chain", "")))
    return seal(heads)
