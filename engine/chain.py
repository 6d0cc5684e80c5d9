"""Tamper evidence: each stored event is linked to the one before it in its stream by SHA-256.

``link`` hashes the previous link, the stream, the version, the topic and the event's canonical
bytes (everything stored but the link itself). Editing, deleting or reordering stored rows breaks
the chain at that row; rewriting a whole stream's chain changes its head, which the session seals
(published by the GM) pin down.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from uuid import UUID

import attrs
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from engine.mapper import body_of, canonical_json
from engine.records import Recorded


def genesis(stream: UUID) -> str:
    """The link before a stream's first event."""
    return hashlib.sha256(f"campaign-log:{stream}".encode()).hexdigest()


def link(previous: str, stream: UUID | str, version: int, topic: str, body: bytes) -> str:
    digest = hashlib.sha256()
    for part in (previous, str(stream), str(version), topic):
        digest.update(part.encode())
        digest.update(b"\x00")
    digest.update(body)
    return digest.hexdigest()


def chained(records: Iterable[Recorded], heads: Mapping[UUID, str]) -> tuple[Recorded, ...]:
    """Give each record its link, continuing each stream from its current head."""
    return encoded(records, heads)[0]


def encoded(
    records: Iterable[Recorded], heads: Mapping[UUID, str]
) -> tuple[tuple[Recorded, ...], list[StoredEvent]]:
    """Link each record to its stream's head and encode it as stored, each body built once
    (the link is over the stored bytes less the link itself)."""
    last = dict(heads)
    out: list[Recorded] = []
    stored: list[StoredEvent] = []
    for record in records:
        stream = record.originator_id
        topic = get_topic(type(record.event))
        body = body_of(record)
        value = link(
            last.get(stream) or genesis(stream),
            stream,
            record.originator_version,
            topic,
            canonical_json(body),
        )
        body["chain"] = value
        out.append(attrs.evolve(record, chain=value))
        stored.append(
            StoredEvent(
                originator_id=stream,
                originator_version=record.originator_version,
                topic=topic,
                state=canonical_json(body),
            )
        )
        last[stream] = value
    return tuple(out), stored


def seal(heads: Mapping[UUID, tuple[int, str]]) -> str:
    """One digest over the heads (stream, version, link) of every stream a session touched."""
    listed = sorted((str(stream), version, chain) for stream, (version, chain) in heads.items())
    return hashlib.sha256(canonical_json(listed)).hexdigest()
