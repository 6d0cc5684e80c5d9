"""Where ``verify`` reads stored rows from, a page at a time: a store's recorder (``StoreRows``)
or rows already in memory (``HeldRows``: an export a player checks). Neither hands out more than
``PAGE`` rows at once, so what a check holds does not grow with the campaign; and ``Numbers``,
the compact set of whole numbers (rulings, versions) the checks remember."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from engine.store.recorders import TopicFilter

PAGE = 1000  # rows read at once


class Rows(Protocol):
    """Stored rows, each stream's in version order, read a page at a time."""

    def pages(self, stream: UUID, gt: int = 0) -> Iterator[Sequence[StoredEvent]]: ...

    def end(self, stream: UUID) -> int: ...

    def picked(
        self, stream: UUID, topics: Sequence[str], gt: int = 0, lte: int | None = None
    ) -> Iterator[StoredEvent]: ...


class StoreRows:
    """A recorder's rows (the store's events, or its snapshots), ``PAGE`` at a time."""

    def __init__(self, recorder: Any, page: int = PAGE) -> None:
        self.recorder = recorder
        self.page = page

    def pages(self, stream: UUID, gt: int = 0) -> Iterator[Sequence[StoredEvent]]:
        while True:
            rows = self.recorder.select_events(stream, gt=gt, limit=self.page)
            if rows:
                yield rows
            if len(rows) < self.page:
                return
            gt = rows[-1].originator_version

    def end(self, stream: UUID) -> int:
        last = self.recorder.select_events(stream, desc=True, limit=1)
        return int(last[0].originator_version) if last else 0

    def picked(
        self, stream: UUID, topics: Sequence[str], gt: int = 0, lte: int | None = None
    ) -> Iterator[StoredEvent]:
        """The stream's rows of those topics after ``gt`` (up to ``lte``): chosen in the query
        where the recorder can."""
        if isinstance(self.recorder, TopicFilter):
            while True:
                rows = self.recorder.select_events(
                    stream, gt=gt, lte=lte, limit=self.page, topics=topics
                )
                yield from rows
                if len(rows) < self.page:
                    return
                gt = rows[-1].originator_version
        for page in self.pages(stream, gt):
            for row in page:
                if lte is not None and row.originator_version > lte:
                    return
                if row.topic in topics:
                    yield row


class HeldRows:
    """Rows already in memory, by stream (in version order), served like a store's."""

    def __init__(self, rows: Mapping[UUID, Sequence[StoredEvent]]) -> None:
        self.rows = rows

    def pages(self, stream: UUID, gt: int = 0) -> Iterator[Sequence[StoredEvent]]:
        found = self.rows.get(stream, ())
        at = bisect_right([r.originator_version for r in found], gt) if gt else 0
        for start in range(at, len(found), PAGE):
            yield found[start : start + PAGE]

    def end(self, stream: UUID) -> int:
        found = self.rows.get(stream, ())
        return found[-1].originator_version if found else 0

    def picked(
        self, stream: UUID, topics: Sequence[str], gt: int = 0, lte: int | None = None
    ) -> Iterator[StoredEvent]:
        for row in self.rows.get(stream, ()):
            version = row.originator_version
            if row.topic in topics and version > gt and (lte is None or version <= lte):
                yield row


class Numbers:
    """A set of whole numbers kept as one bit each from 0 up to the highest dense one (a
    ruling's number, a version), and any far-off or negative one (a forged value) in a set."""

    SPREAD = 1 << 20  # a number this far past the bits kept so far is kept in the set

    def __init__(self) -> None:
        self._bits = bytearray()
        self._far: set[Any] = set()

    def add(self, number: Any) -> None:
        if type(number) is not int or not 0 <= number < len(self._bits) * 8 + self.SPREAD:
            self._far.add(number)
            return
        byte = number >> 3
        if byte >= len(self._bits):
            self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits) // 2)))
        self._bits[byte] |= 1 << (number & 7)

    def __contains__(self, number: Any) -> bool:
        bits = self._bits
        dense = type(number) is int and 0 <= number < len(bits) * 8
        if dense and bits[number >> 3] & (1 << (number & 7)):
            return True
        try:
            return number in self._far
        except TypeError:  # a forged value that is no number at all
            return False
