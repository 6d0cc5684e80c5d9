"""Loading a stream: snapshot (when still valid) + later events, skipping retracted rulings.

A ``RulingRetracted`` on a stream lists the versions it voids. Replay skips them. A snapshot taken
at version S already reflects every retraction up to S; if a later retraction voids a version at or
below S, the snapshot no longer describes the corrected history and the stream is replayed whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast
from uuid import UUID

from attrs import frozen

from domain.errors import DomainError, HistoryConflict, ReplayMismatch
from domain.events import Event, RulingRetracted
from engine.records import Recorded, Snapshot
from engine.store import CampaignStore

Evolve = Callable[[Event, Any], Any]


@frozen
class Loaded:
    """A stream's state and the last version stored in it (0 when the stream is empty)."""

    state: Any
    version: int


def voided_versions(records: Iterable[Recorded]) -> set[int]:
    voided: set[int] = set()
    for record in records:
        if isinstance(record.event, RulingRetracted):
            voided.update(record.event.versions)
    return voided


def fold(
    records: Iterable[Recorded],
    evolve: Evolve,
    state: Any = None,
    skip: set[int] | frozenset[int] = frozenset(),
) -> Any:
    """Apply the records in order, skipping the voided versions; a misfit raises HistoryConflict."""
    for record in records:
        if record.originator_version in skip:
            continue
        try:
            state = evolve(record.event, state)
        except (DomainError, ReplayMismatch) as problem:
            raise HistoryConflict(record, str(problem)) from problem
    return state


class Streams:
    def __init__(self, store: CampaignStore) -> None:
        self.store = store

    def records(
        self, stream: UUID, *, gt: int | None = None, lte: int | None = None
    ) -> list[Recorded]:
        return cast("list[Recorded]", list(self.store.events.get(stream, gt=gt, lte=lte)))

    def last_version(self, stream: UUID) -> int:
        latest = list(self.store.events.get(stream, desc=True, limit=1))
        return latest[0].originator_version if latest else 0

    def load(self, stream: UUID, evolve: Evolve, *, lte: int | None = None) -> Loaded:
        """The state after version ``lte`` (default: the end), as recorded up to then."""
        snapshot = None
        if self.store.snapshots is not None:
            found = cast(
                "list[Snapshot]",
                list(self.store.snapshots.get(stream, desc=True, limit=1, lte=lte)),
            )
            snapshot = found[0] if found else None
        start = snapshot.originator_version if snapshot else 0
        records = self.records(stream, gt=start, lte=lte)
        voided = voided_versions(records)
        if snapshot is not None and voided and min(voided) <= snapshot.originator_version:
            snapshot, start = None, 0
            records = self.records(stream, lte=lte)
            voided = voided_versions(records)
        state = fold(records, evolve, snapshot.state if snapshot else None, voided)
        version = records[-1].originator_version if records else start
        return Loaded(state=state, version=version)

    def replay(
        self, records: Sequence[Recorded], evolve: Evolve, *, corrections: Iterable[Recorded] = ()
    ) -> Any:
        """Fold the given records from scratch; ``corrections`` adds retractions recorded later."""
        return fold(records, evolve, None, voided_versions([*records, *corrections]))
