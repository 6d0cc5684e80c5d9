"""Rows taken as whole rulings in the order they were recorded, as ``engine.reads.models`` takes
them for the read models: a ruling's rows and its header, which lists them (``Rulings``, fed one
row at a time by ``engine.audit.log``; it holds the rows of the ruling being taken, no more than
``LARGEST``)."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable
from typing import Any, NamedTuple
from uuid import UUID

from domain.events import RulingMade
from domain.rulesets.renamed import RENAMED
from engine.audit.chain import MADE
from engine.store.mapper import loads
from engine.store.records import DIRECTORY_ID as DIRECTORY
from engine.store.records import Recorded

LARGEST = 10_000  # rows of one ruling held (a ruling writes a few dozen)
Row = tuple[int, str, int, str, Any, Any]  # id, stream (hex), version, topic, state, row read
MADE_TOPICS = frozenset({MADE, *(old for old, new in RENAMED.items() if new == MADE)})


class Header(NamedTuple):
    """What a ruling's header says of the rows it lists: (stream as hex, first, last)."""

    number: Any
    spans: tuple[tuple[str, int, int], ...]
    listed: int

    def lists(self, stream: str, version: int) -> bool:
        """Whether the header lists the row at ``version`` of ``stream``: by its version, or
        on the directory by its stream only (the header of a campaign imported from another
        store names where its registration stood there)."""
        if stream == _DIRECTORY:
            return any(s == _DIRECTORY for s, _, _ in self.spans)
        return any(s == stream and f <= version <= last for s, f, last in self.spans)


_DIRECTORY = DIRECTORY.hex


def _made(number: Any, spans: tuple[tuple[str, int, int], ...]) -> Header:
    return Header(number, spans, sum(last - first + 1 for _, first, last in spans))


class Listed:
    """What the campaign's headers list, kept as its stream is read for the ledger (one header
    at a time, by version: ``add``), so the walk of the log need not parse them again: three
    whole numbers per header in arrays, and the rulings whose header lists a directory row."""

    def __init__(self) -> None:
        self.versions = array("q")
        self.numbers = array("q")
        self.counts = array("q")
        self.directory: set[int] = set()

    def add(self, version: int, number: int, count: int, directory: bool) -> None:
        if not (_LOW <= version <= _HIGH and _LOW <= number <= _HIGH and _LOW <= count <= _HIGH):
            return  # a forged number past 64 bits: the walk reads that header's bytes
        if self.versions and version <= self.versions[-1]:
            return
        self.versions.append(version)
        self.numbers.append(number)
        self.counts.append(count)
        if directory:
            self.directory.add(number)

    def at(self, version: int, owner: Callable[[str], Callable[[int], int | None]]) -> Any:
        """The header at ``version`` (None: none was kept), its rows looked up by ``owner``:
        the ruling whose header claims a version of a stream (given as hex)."""
        at = bisect_left(self.versions, version)
        if at == len(self.versions) or self.versions[at] != version:
            return None
        number = self.numbers[at]
        return _Claimed(number, self.counts[at], owner, number in self.directory)


class _Claimed:
    """A header kept by ``Listed``: what ``Header`` gives, its rows looked up by their owner."""

    __slots__ = ("directory", "listed", "number", "owner")

    def __init__(
        self,
        number: int,
        listed: int,
        owner: Callable[[str], Callable[[int], int | None]],
        directory: bool,
    ) -> None:
        self.number = number
        self.listed = listed
        self.owner = owner
        self.directory = directory

    def lists(self, stream: str, version: int) -> bool:
        if stream == _DIRECTORY:
            return self.directory
        return self.owner(stream)(version) == self.number


_LOW, _HIGH = -(1 << 63), (1 << 63) - 1


class Rulings:
    """Rows taken as whole rulings in the order recorded, as ``engine.reads.models`` takes them: a
    ruling is whole once it holds a header and as many rows besides as that header lists.

    One row too many (a stray row among them) and it can never be whole: the read models stop
    there (``overfull``). As many rows as listed but not those listed (``misplaced``: rows
    moved in the order recorded) and the read models take them for that ruling's."""

    def __init__(self) -> None:
        self.overfull = False
        self.misplaced: list[tuple[Row, Any]] = []  # rows of the ruling just taken it does not
        # list, with its number
        self.count = 0
        self.header: Header | Any = None  # the first header among the rows
        self.places: list[Row] = []  # the rows besides it
        self.first: Row | None = None

    def row(self, row: Row, header: Header | None) -> bool:
        """One more row (``header``: what it says, when it is a header); whether the ruling is
        whole with it."""
        if self.first is None:
            self.first = row
        self.count += 1
        if header is not None and self.header is None:
            self.header = header
        else:
            self.places.append(row)
            if len(self.places) > LARGEST:
                self.overfull = True  # more rows than any ruling writes (or a header lists)
                return False
        taken = self.header
        if taken is None or self.count <= taken.listed:
            return False
        if self.count > taken.listed + 1:
            self.overfull = True
            return False
        lists = taken.lists
        misplaced = [(r, taken.number) for r in self.places if not lists(r[1], r[2])]
        self.misplaced = misplaced
        self.count, self.header, self.places, self.first = 0, None, [], None
        return True


def header_of(record: Recorded) -> Header | None:
    event = record.event
    if not isinstance(event, RulingMade):
        return None
    return _made(event.number, tuple((s.stream.hex, s.first, s.last) for s in event.touched))


def header_raw(state: Any, hexes: dict[str, str]) -> Header | None:
    """What a header says, read from its stored bytes (a row the walk does not decode)."""
    event: Any = (_body(state) or {}).get("event")
    try:
        spans = []
        for span in event["touched"]:
            named = span["stream"]
            stream = hexes.get(named) or hexes.setdefault(named, UUID(named).hex)
            spans.append((stream, int(span["first"]), int(span["last"])))
        return _made(event.get("number"), tuple(spans))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None  # its stream's replay names it: it does not decode


def _body(state: Any) -> dict[str, Any] | None:
    try:
        body: dict[str, Any] = loads(state)
    except (ValueError, UnicodeDecodeError):
        return None
    return body
