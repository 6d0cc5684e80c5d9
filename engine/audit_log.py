"""The store's rows in the order they were recorded (its notification log), as every read model
reads them, walked once by ``verify`` after the streams, a page at a time:

- each row is decoded as a read decodes it; one that does not is named with its stream and
  version when it lies on a stream ``verify`` does not walk (a stream of no campaign, another
  campaign's): the walks' replays name their own. A read model's catch-up reads every row of the
  store, so such a row stops every recap, timeline and indexed read of every campaign;
- the rows are taken as whole rulings one after another, as ``engine.readmodels`` takes them (a
  ruling's rows and its header, which lists them): rows that do not make one are named, since a
  read model never gets past them (it waits for the end of a ruling that never comes) or never
  reads them;
- each whole ruling of the campaign is handed to the read models being computed again
  (``engine.audit_models``), which are compared with the stored ones at the end.

What is held is a page of rows, the ruling being taken (a count, or its records while read
models are computed again) and what the read models computed again hold (in a scratch file).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder

from domain.events import RulingMade
from domain.rulesets.renamed import RENAMED
from engine import audit_rows
from engine.audit_chain import MADE, as_int, stored_body, why
from engine.audit_report import Finding
from engine.export_classes import event_classes
from engine.mapper import admitting, decoded, loads
from engine.recorders import stream_id
from engine.records import DIRECTORY_ID as DIRECTORY
from engine.records import Recorded

if TYPE_CHECKING:
    from engine.audit_models import Recompute
    from engine.store import CampaignStore

REGISTERED = "domain.events:CampaignRegistered"
NAMED = 50  # rows named one by one, of each kind; past that, how many more
LARGEST = 10_000  # rows of one ruling held for the read models (a ruling writes a few dozen)


@frozen
class Logged:
    """What the walk of the log found, and the read models it compared with the stored ones."""

    findings: tuple[Finding, ...]
    models: tuple[str, ...]


Row = tuple[int, str, int, str, Any, Any]  # id, stream (hex), version, topic, state, row read
_MADE_TOPICS = frozenset({MADE, *(old for old, new in RENAMED.items() if new == MADE)})


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


def _header(record: Recorded) -> Header | None:
    event = record.event
    if not isinstance(event, RulingMade):
        return None
    return _made(event.number, tuple((s.stream.hex, s.first, s.last) for s in event.touched))


def _header_raw(state: Any, hexes: dict[str, str]) -> Header | None:
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


class _Named:
    """Findings of one kind, the first ``NAMED`` of them one by one, then how many more."""

    def __init__(self) -> None:
        self.found: list[Finding] = []
        self.more = 0

    def add(self, finding: Finding) -> None:
        if len(self.found) < NAMED:
            self.found.append(finding)
        else:
            self.more += 1

    def all(self, kind: str, what: str) -> list[Finding]:
        if not self.more:
            return self.found
        return [*self.found, Finding(kind, f"and {self.more} more rows {what}")]


def _pages(store: CampaignStore, stop: int) -> Iterator[list[Row]]:
    """The store's rows up to notification ``stop`` in the order recorded, a page at a time:
    on SQLite read straight from its table (only what the walk uses), on another store as its
    notifications."""
    recorder: Any = store.recorder
    raw = isinstance(recorder, SQLiteApplicationRecorder)
    statement = (
        f"SELECT rowid, originator_id, originator_version, topic, state FROM "
        f"{recorder.events_table_name} WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?"
        if raw
        else ""
    )
    position = 0
    while position < stop:
        limit = audit_rows.PAGE
        if raw:
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(statement, (position, stop, limit))
                page = [
                    (r[0], r[1] if len(r[1]) == 32 else UUID(r[1]).hex, r[2], r[3], r[4], None)
                    for r in cursor.fetchall()
                ]
        else:
            notes = recorder.select_notifications(start=position + 1, limit=limit, stop=stop)
            page = [
                (n.id, stream_id(n.originator_id).hex, n.originator_version, n.topic, n.state, n)
                for n in notes
            ]
        if not page:
            return
        yield page
        position = page[-1][0]


class LogWalk:
    """The walk of the store's log (see the module docstring)."""

    def __init__(
        self,
        store: CampaignStore,
        campaign_id: UUID,
        walked: Collection[UUID],
        recompute: Recompute | None = None,
    ) -> None:
        self.store = store
        self.campaign_id = campaign_id
        self.walked = frozenset(stream.hex for stream in walked)
        self.recompute = recompute
        self.rulings = Rulings()
        self.records: list[Recorded] = []  # the ruling being taken, for the read models
        self.unreadable = _Named()
        self.stray = _Named()
        self.misread = False  # a ruling was taken with rows its header does not list
        self.hexes: dict[str, str] = {}  # a header's stream as written, as hex

    def run(self) -> Logged:
        try:
            return self._run()
        finally:
            if self.recompute is not None:
                self.recompute.close()

    def _run(self) -> Logged:
        stop = self.store.recorder.max_notification_id() or 0
        rows = (row for page in _pages(self.store, stop) for row in page)
        for row in rows:
            self._row(row)
            if self.rulings.overfull:
                self._overfull()
                break
        else:
            self._leftover()
        for row in rows:  # the rest, after rows that can never make a whole ruling
            if row[1] not in self.walked:
                self._decoded(row)
        named = {(f.stream, f.version) for f in self.unreadable.found}
        self.stray.found = [f for f in self.stray.found if (f.stream, f.version) not in named]
        found = [
            *self.unreadable.all("unreadable", "do not decode"),
            *self.stray.all("orphan", "make no whole ruling"),
        ]
        models: tuple[str, ...] = ()
        if self.recompute is not None:
            found += self.recompute.done()
            models = self.recompute.compared
        return Logged(tuple(found), models)

    def _row(self, row: Row) -> None:
        recompute = self.recompute
        modelled = recompute is not None and recompute.wants(row[0])
        record = None
        if modelled or row[1] not in self.walked:
            record = self._decoded(row)
            if record is None and recompute is not None and modelled:
                recompute.stop(row[0], f"stream {_uuid(row[1])} version {row[2]} does not decode")
                modelled = False
        if record is not None:
            header = _header(record)
        else:
            header = _header_raw(row[4], self.hexes) if row[3] in _MADE_TOPICS else None
        if modelled and record is not None:
            self.records.append(record)
            if len(self.records) > LARGEST and recompute is not None:
                recompute.stop(row[0], f"a ruling there holds more than {LARGEST} rows")
                self.records = []
        if self.rulings.row(row, header):
            if modelled and self.records and recompute is not None:
                recompute.ruling(row[0], self.records)
            self.records = []
            if self.rulings.misplaced and not self.misread:
                self.misread = True  # every ruling after it is read a row out: not named again
                for place, number in self.rulings.misplaced:
                    self._misplaced(place, number)

    def _decoded(self, row: Row) -> Recorded | None:
        """The row as a read decodes it; one that does not, off the streams walked, is named."""
        _, stream, version, topic, state, read = row
        try:
            if read is None:
                read = StoredEvent(_uuid(stream), version, topic, state)
            return cast("Recorded", self.store.mapper.to_domain_event(read))
        except Exception as error:  # whatever a damaged or forged row makes the decoder raise
            if stream not in self.walked:
                problem = (
                    f"version {version} does not decode as a read decodes it "
                    f"({why(error)}): every read model's catch-up stops at it"
                )
                self.unreadable.add(Finding("unreadable", problem, _uuid(stream), version))
            return None

    def _misplaced(self, row: Row, number: Any) -> None:
        problem = (
            f"version {row[2]} stands among ruling {number}'s rows in the order recorded, "
            "but its header does not list it: the read models take it for that ruling's (and "
            "may misread the rulings after it)"
        )
        self.stray.add(Finding("orphan", problem, _uuid(row[1]), row[2], as_int(number)))

    def _overfull(self) -> None:
        taken = self.rulings
        assert taken.first is not None
        first = taken.first
        header = taken.header
        told = (
            f"ruling {header.number}'s header lists {header.listed} rows, and more than that "
            "stand with it"
            if header is not None and header.listed < LARGEST
            else f"more than {LARGEST} rows stand together, more than any ruling writes"
        )
        problem = (
            f"the rows recorded from here on do not make whole rulings: {told}; every read "
            "model stops before them"
        )
        stream = _uuid(first[1])
        self.stray.add(Finding("orphan", problem, stream, first[2]))
        if self.recompute is not None:
            where = f"the rows from stream {stream} version {first[2]} on"
            self.recompute.stop(first[0], f"{where} make no whole rulings")

    def _leftover(self) -> None:
        taken = self.rulings
        if taken.first is None:
            return
        first = taken.first
        problem = (
            "the last row recorded makes no whole ruling: no read model reads it"
            if taken.count == 1
            else f"the last {taken.count} rows recorded, from here on, make no whole ruling: "
            "no read model reads them"
        )
        self.stray.add(Finding("orphan", problem, _uuid(first[1]), first[2]))


def _uuid(hexed: str) -> UUID:
    return UUID(hexed)


def registered(store: CampaignStore, name: str) -> UUID | None:
    """The campaign the store's directory registers under ``name``, read from the directory's
    stored bytes (for ``verify`` when a row of the directory does not decode)."""
    rows = audit_rows.StoreRows(store.recorder)
    for page in rows.pages(DIRECTORY):
        for row in page:
            event = (stored_body(row) or {}).get("event")
            if row.topic == REGISTERED and isinstance(event, dict) and event.get("name") == name:
                try:
                    return UUID(str(event.get("campaign_id")))
                except ValueError:
                    continue
    return None


def undecoded(campaign_id: UUID, rows: Mapping[UUID, Sequence[StoredEvent]]) -> list[Finding]:
    """The rows held in memory (an export's) that do not decode as an import decodes them: as
    one of the event types of the campaign's system or the shared ones (a topic is never
    resolved: resolving imports the module it names), each with its stream and version."""
    first = next(iter(rows.get(campaign_id, ())), None)
    system = (stored_body(first) or {}).get("event", {}).get("system") if first else None
    try:
        classes = event_classes(str(system))
    except (KeyError, ModuleNotFoundError):
        problem = f"the campaign's system {system!r} is not one this program knows"
        return [Finding("unreadable", problem, campaign_id, 1)]
    found = _Named()
    with admitting(classes):
        for stream, held in rows.items():
            for row in held:
                cls, body = classes.get(row.topic), stored_body(row)
                try:
                    if cls is None:
                        raise TypeError(f"{row.topic!r} is not an event of this program")
                    if not isinstance(body, dict):
                        raise TypeError("the stored bytes are not a JSON object")
                    decoded(stream, row.originator_version, cls, body)
                except Exception as error:  # whatever a forged row makes the decoder raise
                    version = row.originator_version
                    problem = f"version {version} does not decode ({why(error)})"
                    found.add(Finding("unreadable", problem, stream, version))
    return found.all("unreadable", "do not decode")
