"""What the store holds: a domain event in its envelope, and snapshots of replayed state."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID, uuid5

from attrs import frozen

from domain.events import Event
from domain.plain import Plain

# The store's directory of campaigns: one stream every campaign of a store registers in.
DIRECTORY_ID = uuid5(UUID("6f6d0f5e-2b1c-4f0e-9a53-1d2f3c4b5a69"), "campaign-log directory")


@frozen(kw_only=True)
class Recorded(Plain):
    """A domain event as recorded: stream and version, time, ruling, actor, session and scene."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    ruling: int
    actor: str
    session: int | None
    scene: int | None
    event: Event
    # hash linking this event to the one before it in its stream (engine.store.chain)
    chain: str = ""

    def linked(self, chain: str) -> Recorded:
        """This record with its chain link (built directly: ``attrs.evolve`` is slow in bulk)."""
        return Recorded(
            originator_id=self.originator_id,
            originator_version=self.originator_version,
            timestamp=self.timestamp,
            ruling=self.ruling,
            actor=self.actor,
            session=self.session,
            scene=self.scene,
            event=self.event,
            chain=chain,
        )


@frozen(kw_only=True)
class Snapshot(Plain):
    """A stream's replayed state at a version (every retraction up to that version applied).

    ``chain``: the link of the stream's event at that version, the history the state was folded
    from. A load uses a snapshot only when the stored event there still has that link (and the
    snapshot's own link over its bytes holds: ``engine.store.mapper.SnapshotMapper``); one without
    it (written before snapshots were linked) is not trusted: the stream is replayed instead."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    state: Any
    chain: str = ""
