"""The store's rows in the order they were recorded (its notification log), as every read model
reads them, walked once by ``verify`` after the streams, a page at a time:

- each row is decoded as a read decodes it; one that does not is named with its stream and
  version when it lies on a stream ``verify`` does not walk (a stream of no campaign, another
  campaign's): the walks' replays name their own. A read model's catch-up reads every row of the
  store, so such a row stops every recap, timeline and indexed read of every campaign;
- the rows are taken as whole rulings one after another, as ``engine.reads.models`` takes them (a
  ruling's rows and its header, which lists them): rows that do not make one are named, since a
  read model never gets past them (it waits for the end of a ruling that never comes) or never
  reads them;
- each whole ruling of the campaign is handed to the read models being computed again
  (``engine.audit.models``), which are compared with the stored ones at the end.

What is held is a page of rows, the ruling being taken (a count, or its records while read
models are computed again) and what the read models computed again hold (in a scratch file).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder

from engine.audit import rows as audit_rows
from engine.audit.chain import as_int, why
from engine.audit.decoding import Named
from engine.audit.report import Finding
from engine.audit.rulings import (
    LARGEST,
    MADE_TOPICS,
    Header,
    Row,
    Rulings,
    header_of,
    header_raw,
)
from engine.store.recorders import stream_id
from engine.store.records import Recorded

if TYPE_CHECKING:
    from engine.audit.ledger import RulingLedger
    from engine.audit.models import Recompute
    from engine.store.campaign_store import CampaignStore


@frozen
class Logged:
    """What the walk of the log found, and the read models it compared with the stored ones."""

    findings: tuple[Finding, ...]
    models: tuple[str, ...]


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
        ledger: RulingLedger | None = None,
    ) -> None:
        self.store = store
        self.campaign_id = campaign_id
        self.walked = frozenset(stream.hex for stream in walked)
        self.recompute = recompute
        self.rulings = Rulings()
        self.records: list[Recorded] = []  # the ruling being taken, for the read models
        self.unreadable = Named()
        self.stray = Named()
        self.misread = False  # a ruling was taken with rows its header does not list
        self.hexes: dict[str, str] = {}  # a header's stream as written, as hex
        self.ledger = ledger
        self.campaign_hex = campaign_id.hex
        self.owners: dict[str, Callable[[int], int | None]] = {}

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
        if _stream(row[1]) is None:  # a stored stream id that is no UUID: no read takes it
            self._no_uuid(row)
            return
        record, modelled = self._read(row)
        header = header_of(record) if record is not None else self._header_raw(row)
        if modelled and record is not None:
            self._take(row, record)
        if self.rulings.row(row, header):
            self._ruling_taken(row, modelled)

    def _no_uuid(self, row: Row) -> None:
        """Name a row whose stored stream id is no UUID, and stop the read models there."""
        problem = (
            f"version {row[2]} of stream id {row[1]!r}, which is no UUID, does not decode "
            "as a read decodes it: every read model's catch-up stops at it"
        )
        self.unreadable.add(Finding("unreadable", problem, None, row[2]))
        if self.recompute is not None and self.recompute.wants(row[0]):
            self.recompute.stop(row[0], f"stream {row[1]} version {row[2]} does not decode")

    def _read(self, row: Row) -> tuple[Recorded | None, bool]:
        """The row decoded, when the read models computed again take it or it lies off the
        streams walked (None: neither, or it does not decode), and whether the read models
        computed again take it."""
        recompute = self.recompute
        modelled = recompute is not None and recompute.wants(row[0])
        if not modelled and row[1] in self.walked:
            return None, False
        record = self._decoded(row)
        if record is None and recompute is not None and modelled:
            recompute.stop(row[0], f"stream {row[1]} version {row[2]} does not decode")
            return None, False
        return record, modelled

    def _header_raw(self, row: Row) -> Header | None:
        """The header a row not decoded holds, if it is one: the ledger read the campaign's
        headers, those of other campaigns are read here from their stored bytes."""
        if row[3] not in MADE_TOPICS:
            return None
        kept = self.ledger
        listed = (
            kept.listed.at(row[2], self._owner)
            if kept is not None and row[1] == self.campaign_hex
            else None
        )
        return cast("Header | None", listed) or header_raw(row[4], self.hexes)

    def _take(self, row: Row, record: Recorded) -> None:
        """Keep a record of the ruling being taken for the read models computed again."""
        self.records.append(record)
        if len(self.records) > LARGEST and self.recompute is not None:
            self.recompute.stop(row[0], f"a ruling there holds more than {LARGEST} rows")
            self.records = []

    def _ruling_taken(self, row: Row, modelled: bool) -> None:
        """A whole ruling was taken at ``row``: handed to the read models computed again, and
        rows its header does not list named (once)."""
        if modelled and self.records and self.recompute is not None:
            self.recompute.ruling(row[0], self.records)
        self.records = []
        if self.rulings.misplaced and not self.misread:
            self.misread = True  # every ruling after it is read a row out: not named again
            for place, number in self.rulings.misplaced:
                self._misplaced(place, number)

    def _owner(self, stream: str) -> Callable[[int], int | None]:
        """The ruling whose header claims a version of ``stream`` (hex), as the ledger read it."""
        owner = self.owners.get(stream)
        if owner is None:
            assert self.ledger is not None
            owner = self.owners[stream] = self.ledger.owner(UUID(stream))
        return owner

    def _decoded(self, row: Row) -> Recorded | None:
        """The row as a read decodes it; one that does not, off the streams walked, is named."""
        _, stream, version, topic, state, read = row
        try:
            if read is None:
                read = StoredEvent(_uuid(stream), version, topic, state)
            return cast("Recorded", self.store.mapper.to_domain_event(read))
        except Exception as error:  # whatever a damaged or forged row makes the decoder raise
            if stream not in self.walked:
                named = "" if _stream(stream) else f" of stream id {stream!r}, which is no UUID,"
                problem = (
                    f"version {version}{named} does not decode as a read decodes it "
                    f"({why(error)}): every read model's catch-up stops at it"
                )
                self.unreadable.add(Finding("unreadable", problem, _stream(stream), version))
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


def _stream(hexed: str) -> UUID | None:
    """A finding's stream: None for a stored id that is no UUID (the problem then says it)."""
    try:
        return UUID(hexed)
    except ValueError:
        return None
