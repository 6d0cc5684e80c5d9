"""Tamper evidence: each stored event is linked to the one before it in its stream by SHA-256.

``link`` hashes the previous link, the stream, the version, the topic and the SHA-256 digest of
the event's canonical bytes (everything stored but the link itself). Editing, deleting or
reordering stored rows breaks the chain at that row; rewriting a whole stream's chain changes its
head, which the session seals (published by the GM) and the witnesses pin down.

A link over the body's digest rather than the body lets a copy keep, in place of an event its
reader may not read, the digest alone and still be checked link by link (``link_of_digest``).
Rows written before 2026-12-06 are linked over the body's bytes themselves (``link_over_body``,
still what a snapshot's own link is); a chain may hold both, and a row holds when its link is
either (``holds``). docs/format.md gives both, byte by byte.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from engine.store.mapper import body_of, canonical_json, loads, split_chain, with_chain
from engine.store.records import Recorded


def genesis(stream: UUID) -> str:
    """The link before a stream's first event."""
    return hashlib.sha256(f"campaign-log:{stream}".encode()).hexdigest()


# What a link over a body's digest hashes first: no link over a body's bytes starts so (those
# start with 64 hex digits), so one input is never read both ways.
DIGEST_LINK = "campaign-log link 2\x00"


def link_over_body(previous: str, stream: UUID | str, version: int, topic: str, body: bytes) -> str:
    """The first kind of link, over the body's bytes: rows written before 2026-12-06, and a
    snapshot's own link."""
    head = f"{previous}\x00{stream}\x00{version}\x00{topic}\x00".encode()
    return hashlib.sha256(head + body).hexdigest()


def link_of_digest(
    previous: str, stream: UUID | str, version: int, topic: str, digest: bytes
) -> str:
    """The link of an event whose body's SHA-256 is ``digest`` (32 bytes): all a copy needs
    of an event its reader may not read."""
    head = f"{DIGEST_LINK}{previous}\x00{stream}\x00{version}\x00{topic}\x00".encode()
    return hashlib.sha256(head + digest).hexdigest()


def link(previous: str, stream: UUID | str, version: int, topic: str, body: bytes) -> str:
    """The link an event is written with: over its body's digest."""
    return link_of_digest(previous, stream, version, topic, hashlib.sha256(body).digest())


def holds(
    chain: str, previous: str, stream: UUID | str, version: int, topic: str, body: bytes
) -> bool:
    """Whether ``chain`` is the event's link of either kind."""
    return chain in (
        link(previous, stream, version, topic, body),
        link_over_body(previous, stream, version, topic, body),
    )


def encoded(
    records: Iterable[Recorded], heads: Mapping[UUID, str]
) -> tuple[tuple[Recorded, ...], list[StoredEvent]]:
    """Link each record to its stream's head and encode it as stored: each body is encoded
    once, and the link is over those bytes (the stored bytes less the link itself)."""
    last = dict(heads)
    out: list[Recorded] = []
    stored: list[StoredEvent] = []
    topics: dict[type[Any], str] = {}
    names: dict[UUID, str] = {}
    stamp: datetime | None = None  # a ruling's records share one time: written as text once
    at = ""
    for record in records:
        stream = record.originator_id
        kind = type(record.event)
        topic = topics.get(kind) or topics.setdefault(kind, get_topic(kind))
        name = names.get(stream) or names.setdefault(stream, str(stream))
        if record.timestamp != stamp:
            stamp, at = record.timestamp, record.timestamp.isoformat()
        body = canonical_json(body_of(record, at))
        version = record.originator_version
        value = link(last.get(stream) or genesis(stream), name, version, topic, body)
        out.append(record.linked(value))
        stored.append(
            StoredEvent(
                originator_id=stream,
                originator_version=version,
                topic=topic,
                state=with_chain(body, value),
            )
        )
        last[stream] = value
    return tuple(out), stored


def seal(heads: Mapping[UUID, tuple[int, str]], previous: str = "") -> str:
    """One digest over the heads (stream, version, link) of every stream a session touched and
    the digest of the seal before it (``previous``; a first seal, or one written before seals
    were chained, has none and is the digest of the heads alone)."""
    listed = sorted((str(stream), version, chain) for stream, (version, chain) in heads.items())
    if not previous:
        return hashlib.sha256(canonical_json(listed)).hexdigest()
    return hashlib.sha256(canonical_json({"heads": listed, "previous": previous})).hexdigest()


def stored_link(state: bytes) -> str:
    """The chain link a stored event carries ("" when it has none or does not parse): read from
    its first bytes when written chain first, else parsed (older stores)."""
    fast = split_chain(state)
    if fast is not None:
        return fast[0]
    try:
        body = loads(state)
    except (ValueError, UnicodeDecodeError):
        return ""
    chain = body.get("chain", "") if isinstance(body, dict) else ""
    return chain if isinstance(chain, str) else ""
