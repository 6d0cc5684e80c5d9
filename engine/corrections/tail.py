"""What an undo or an amendment of ruling T reads: the log from T on, and the state before it.

Undoing or amending T changes nothing that happened before T. So instead of every stream's whole
history, they read the campaign stream backwards, a page at a time, until T's first record; and
each stream that T or a later ruling wrote to from the first version they wrote there, starting
from the state before that version, loaded as any load is (from a snapshot). Where a correction
recorded from then on reaches behind that version (the undo, recorded after T, of an earlier
ruling), the stream is read from its start instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.events import RulingMade
from engine.store.records import DIRECTORY_ID, Recorded
from engine.store.streams import PAGE, Evolve, Streams, corrections

FIRST_PAGE = 16  # the first page read back: a recent ruling's records and a few more

if TYPE_CHECKING:
    from engine.store.streams import Streams


def read_back(
    streams: Streams, campaign_id: UUID, far_enough: Callable[[list[Recorded]], bool]
) -> list[Recorded]:
    """The campaign stream's latest records, in order, read backwards a page at a time until
    they begin with the stream's first or ``far_enough(records)``. The pages grow from
    ``FIRST_PAGE`` records to ``PAGE``: a correction of a recent ruling reads a few records."""
    records: list[Recorded] = []
    size = min(FIRST_PAGE, PAGE)
    while True:
        lte = records[0].originator_version - 1 if records else None
        page = streams.records_desc(campaign_id, limit=size, lte=lte)
        records[:0] = reversed(page)
        if len(page) < size or records[0].originator_version == 1 or far_enough(records):
            return records
        size = min(PAGE, size * 4)


def reach(records: list[Recorded], ruling: int) -> bool:
    """Whether ``records`` (read back, not from the stream's first) hold every record of
    ``ruling`` and of the rulings after it."""
    return records[0].ruling < ruling


class Tail:
    """A campaign's history from ruling ``first`` on (``records``: its campaign stream's records,
    from the first one of ``first`` or later), and each stream's state before it."""

    def __init__(self, streams: Streams, campaign_id: UUID, first: int, records: list[Recorded]):
        self._streams = streams
        self.campaign_id = campaign_id
        self.first = first
        self.records = [r for r in records if r.ruling >= first]
        self.made: list[RulingMade] = [
            r.event for r in self.records if isinstance(r.event, RulingMade)
        ]
        self._starts: dict[UUID, int] = {}  # stream -> the first version written from ``first``
        if self.records:
            self._starts[campaign_id] = self.records[0].originator_version
        for made in self.made:
            for span in made.touched:
                self._starts[span.stream] = min(
                    span.first, self._starts.get(span.stream, span.first)
                )
        self._histories: dict[UUID, tuple[Any, list[Recorded]]] = {}

    def streams(self) -> list[UUID]:
        """Every stream a ruling from ``first`` on wrote to (the store's directory aside)."""
        return [s for s in self._starts if s != DIRECTORY_ID]

    def written(self, stream: UUID) -> bool:
        """Whether a ruling from ``first`` on wrote to ``stream``."""
        return stream in self._starts

    def history(self, stream: UUID, evolve: Evolve) -> tuple[Any, list[Recorded]]:
        """The state to fold ``stream`` from and the records to fold: the state before the
        first version written from ``first`` on and the records from it; or no state and
        every record, where a correction among those reaches behind it. A stream nothing wrote
        to from ``first`` on: its state now, and no record."""
        if stream not in self._histories:
            self._histories[stream] = self._read(stream, evolve)
        return self._histories[stream]

    def _read(self, stream: UUID, evolve: Evolve) -> tuple[Any, list[Recorded]]:
        streams = self._streams
        start = self._starts.get(stream)
        if start is None:
            return streams.load(stream, evolve).state, []
        before = start - 1
        mine = stream == self.campaign_id
        records = self.records if mine else streams.records(stream, gt=before)
        if before == 0:
            return None, records
        if streams.reaches_back(stream, corrections(records), records, before):
            return None, streams.records(stream)
        return streams.load(stream, evolve, lte=before).state, records
