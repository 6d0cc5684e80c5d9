"""Rows taken as whole rulings in the order they were recorded, as ``engine.readmodels`` takes
them for the read models: a ruling's rows and its header, which lists them (``Rulings``, fed one
row at a time by ``engine.audit_log``; it holds the rows of the ruling being taken, no more than
``LARGEST``)."""

from __future__ import annotations

from typing import Any, NamedTuple
from uuid import UUID

from domain.events import RulingMade
from domain.rulesets.renamed import RENAMED
from engine.audit_chain import MADE
from engine.mapper import loads
from engine.records import DIRECTORY_ID as DIRECTORY
from engine.records import Recorded

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


class Rulings:
    """Rows taken as whole rulings in the order recorded, as ``engine.readmodels`` takes them: a
    ruling is whole once it holds a header and as many rows besides as that header lists.

    One row too many (a stray row among them) and it can never be whole: the read models stop
    there (``overfull``). As many rows as listed but not those listed (``misplaced``: rows
    moved in the order recorded) and the read models take them for that ruling's."""

    def __init__(self) -> None:
        self.overfull = False
        self.misplaced: list[tuple[Row, Any]] = []  # rows of the ruling just taken it does not
        # list, with its number
        self.count = 0
        self.header: Header | None = None  # the first header among the rows
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
