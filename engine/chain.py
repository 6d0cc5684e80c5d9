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
    last = dict(heads)
    out = []
    for record in records:
        stream = record.originator_id
        previous = last.get(stream) or genesis(stream)
        body = canonical_json(body_of(record))
        value = link(
            previous, stream, record.originator_version, get_topic(type(record.event)), body
        )
        out.append(attrs.evolve(record, chain=value))
        last[stream] = value
    return tuple(out)


def seal(heads: Mapping[UUID, tuple[int, str]]) -> str:
    """One digest over the heads (stream, version, link) of every stream a session touched."""
    listed = sorted((str(stream), version, chain) for stream, (version, chain) in heads.items())
    return hashlib.sha256(canonical_json(listed)).hexdigest()
