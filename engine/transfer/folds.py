"""Each stream of an export folded while its lines are read, from the records the line checks
decoded (``engine.transfer.file``): no event is decoded again to replay it.

A stream folds as ``Streams.load`` folds it: the campaign's with the campaign's rules, every other
with its system's. A stream that holds an undo or an amendment is folded afterwards instead, from
the rows kept (``engine.transfer.export_import``): its corrections change how the events before them
apply, so it cannot be folded before they are read. A stream that does not fold keeps the line and
the problem of the event that did not apply; the import refuses it where it refuses a stream that
does not replay (after the checks of the rows), so a file is refused at the same line as before.

What a stream folded to, at its last event, is the snapshot the import leaves at its head: the
first read after an import loads each stream from there instead of replaying it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.errors import DomainError, HistoryConflict, ReplayMismatch
from domain.events import RulingAmended, RulingMade, RulingRetracted
from engine.audit.rulings import LARGEST
from engine.store.chain import stored_link
from engine.store.records import Recorded, Snapshot
from engine.store.streams import Evolve
from engine.transfer.format import error_line, on_one_line


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
        self.misplaced: tuple[int, str] | None = None  # the first row out of its ruling
        self._group: list[tuple[int, Recorded]] = []  # the rows of the ruling being read
        self._header: Recorded | None = None  # its header, once read
        self._first = True  # ruling 1's header also lists the directory entry, written anew

    def add(self, line: int, row: StoredEvent, record: Recorded) -> None:
        stream = record.originator_id
        event = record.event
        if self.misplaced is None:
            self._take(line, record)
        campaign = stream == self.campaign_id
        if campaign and isinstance(event, RulingMade):
            self.touched.update(span.stream for span in event.touched)
        self.last[stream] = (record, row)
        if (self.corrected or self.failed) and (stream in self.corrected or stream in self.failed):
            return
        if isinstance(event, RulingRetracted | RulingAmended):
            self.corrected.add(stream)
            self.states.pop(stream, None)
            return
        evolve = self._campaign if campaign else self.character
        try:
            self.states[stream] = evolve(event, self.states.get(stream))
        except (DomainError, ReplayMismatch) as problem:  # as ``streams.fold`` wraps them
            self._failed(stream, line, str(HistoryConflict(record, str(problem))))
        except Exception as error:  # whatever a rule makes of a history it was never given
            self._failed(stream, line, error_line(error))

    @property
    def unfinished(self) -> bool:
        """Whether the last rows read make no whole ruling."""
        return bool(self._group)

    def _take(self, line: int, record: Recorded) -> None:
        """The rows in the order read, taken as the read models take the log: whole rulings,
        each its header and the rows its header lists (``engine.reads.models.complete``)."""
        group = self._group
        group.append((line, record))
        if self._header is None and isinstance(record.event, RulingMade):
            self._header = record
        header = self._header
        made = header.event if header is not None else None
        if not isinstance(made, RulingMade):
            if len(group) > LARGEST:
                self.misplaced = (line, f"more than {LARGEST} rows stand before a ruling's header")
            return
        listed = sum(s.last - s.first + 1 for s in made.touched)
        taken = len(group) + (1 if self._first else 0)  # with the directory entry
        if taken < listed + 1:
            return
        if taken > listed + 1:
            problem = f"more rows stand with ruling {made.number} than its header lists"
            self.misplaced = (line, problem)
            return
        for at, r in group:
            if r is not header and not any(
                s.stream == r.originator_id and s.first <= r.originator_version <= s.last
                for s in made.touched
            ):
                problem = f"stands among ruling {made.number}'s rows; its header does not list it"
                self.misplaced = (at, problem)
                return
        self._group = []
        self._header = None
        self._first = False

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
