"""Each stream of an export folded while its lines are read, from the records the line checks
decoded (``engine.export_file``): no event is decoded again to replay it.

A stream folds as ``Streams.load`` folds it: the campaign's with the campaign's rules, every other
with its system's. A stream that holds an undo or an amendment is folded afterwards instead, from
the rows kept (``engine.transfer``): its corrections change how the events before them apply, so
it cannot be folded before they are read. A stream that does not fold keeps the line and the
problem of the event that did not apply; the import refuses it where it refuses a stream that does
not replay (after the checks of the rows), so a file is refused at the same line as before.

What a stream folded to, at its last event, is the snapshot the import leaves at its head: the
first read after an import loads each stream from there instead of replaying it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.errors import DomainError, HistoryConflict, ReplayMismatch
from domain.events import RulingAmended, RulingMade, RulingRetracted
from engine.chain import stored_link
from engine.export_format import error_line, on_one_line
from engine.records import Recorded, Snapshot
from engine.streams import Evolve


class Folds:
    """The streams of one campaign, folded one record at a time (``add``), in the order read."""

    def __init__(self, campaign_id: UUID, campaign: Evolve, character: Evolve) -> None:
        self.campaign_id = campaign_id
        self._campaign = campaign
        self.character = character
        self.states: dict[UUID, Any] = {}
        self.last: dict[UUID, tuple[Recorded, StoredEvent]] = {}  # each stream's last event
        self.failed: dict[UUID, tuple[int, str]] = {}  # the line that did not apply, and why
        self.corrected: set[UUID] = set()  # streams folded afterwards (they hold corrections)
        self.touched: set[UUID] = set()  # the streams the campaign's rulings wrote to

    def add(self, line: int, row: StoredEvent, record: Recorded) -> None:
        stream = record.originator_id
        event = record.event
        if stream == self.campaign_id and isinstance(event, RulingMade):
            self.touched.update(span.stream for span in event.touched)
        self.last[stream] = (record, row)
        if stream in self.corrected or stream in self.failed:
            return
        if isinstance(event, RulingRetracted | RulingAmended):
            self.corrected.add(stream)
            self.states.pop(stream, None)
            return
        evolve = self._campaign if stream == self.campaign_id else self.character
        try:
            self.states[stream] = evolve(event, self.states.get(stream))
        except (DomainError, ReplayMismatch) as problem:  # as ``streams.fold`` wraps them
            self._failed(stream, line, str(HistoryConflict(record, str(problem))))
        except Exception as error:  # whatever a rule makes of a history it was never given
            self._failed(stream, line, error_line(error))

    def _failed(self, stream: UUID, line: int, said: str) -> None:
        self.failed[stream] = (line, f"does not replay: {on_one_line(said)}")
        self.states.pop(stream, None)

    def snapshots(self, states: dict[UUID, Any]) -> list[Snapshot]:
        """A snapshot at the head of every stream in ``states`` (each stream's state folded)."""
        found = []
        for stream, state in states.items():
            if state is None or stream not in self.last:
                continue
            record, row = self.last[stream]
            found.append(
                Snapshot(
                    originator_id=stream,
                    originator_version=record.originator_version,
                    timestamp=record.timestamp,
                    state=state,
                    chain=stored_link(row.state),
                )
            )
        return found
