"""Loading a stream: snapshot (when still valid) + later events, with the corrections applied.

A ``RulingRetracted`` on a stream lists the versions it voids; replay skips them. A
``RulingAmended`` voids a ruling's versions too and carries the events that replace them; replay
applies those at the ruling's place (before the first record of a later ruling). A snapshot taken
at version S reflects every correction up to S; when a later one reaches back before S, the
stream is replayed whole. A history longer than a page is read and folded page by page.
"""

from __future__ import annotations

import contextlib
import threading
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, cast
from uuid import UUID

from attrs import field, frozen
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from domain.errors import DomainError, HistoryConflict, ReplayMismatch
from domain.events import Event, RulingAmended, RulingRetracted
from domain.plain import Plain
from engine.store.campaign_store import CampaignStore
from engine.store.chain import stored_link
from engine.store.recorders import TopicFilter
from engine.store.records import Recorded, Snapshot

Evolve = Callable[[Event, Any], Any]
PAGE = 1000  # a longer history is read page by page (Streams._load_paged)
# A load of a stream's head that folded this many events past its latest snapshot (after an
# import, which writes none, or an undo reaching back before it) leaves a snapshot at the head.
STALE = 100
CORRECTIONS = (RulingRetracted, RulingAmended)
CORRECTION_TOPICS = tuple(get_topic(kind) for kind in CORRECTIONS)


@frozen
class Loaded(Plain):
    """A stream's state and the last version stored in it (0 when the stream is empty)."""

    state: Any
    version: int


@frozen
class Corrections(Plain):
    """What later rulings changed about earlier ones, as replay applies it: versions that no
    longer count (undone or amended) and, per amended ruling, the events that replace them."""

    voided: frozenset[int] = frozenset()
    replacements: Mapping[int, tuple[Event, ...]] = field(factory=dict)

    def before(self, ruling: int) -> Corrections:
        """Only what concerns rulings before ``ruling`` (for re-deciding that ruling)."""
        kept = {r: events for r, events in self.replacements.items() if r < ruling}
        return Corrections(voided=self.voided, replacements=kept)

    def with_replacement(
        self, ruling: int, versions: Iterable[int], events: tuple[Event, ...]
    ) -> Corrections:
        replacements = {**self.replacements, ruling: events}
        return Corrections(voided=self.voided | set(versions), replacements=replacements)


def corrections(records: Iterable[Recorded]) -> Corrections:
    """Read the retractions and amendments among a stream's records (the latest amendment of a
    ruling wins; an undone ruling keeps no replacement)."""
    voided: set[int] = set()
    retracted: set[int] = set()
    replacements: dict[int, tuple[Event, ...]] = {}
    for record in records:
        event = record.event
        if isinstance(event, RulingRetracted):
            voided.update(event.versions)
            retracted.add(event.ruling)
        elif isinstance(event, RulingAmended):
            voided.update(event.versions)
            replacements[event.ruling] = event.events
    kept = {r: events for r, events in replacements.items() if r not in retracted}
    return Corrections(voided=frozenset(voided), replacements=kept)


@frozen
class Replaced(Plain):
    """Where a replacement event stands in replay: at its amended ruling's place."""

    ruling: int
    event: Event


def fold(
    records: Iterable[Recorded],
    evolve: Evolve,
    state: Any = None,
    fixes: Corrections = Corrections(),
    skip: set[int] | frozenset[int] = frozenset(),
) -> Any:
    """Apply the records in order, skipping voided versions and putting each amended ruling's
    replacement events where the ruling stood; a misfit raises HistoryConflict."""
    pending = sorted(fixes.replacements.items())

    def apply(record: Recorded | Replaced, state: Any) -> Any:
        try:
            return evolve(record.event, state)
        except (DomainError, ReplayMismatch) as problem:
            raise HistoryConflict(record, str(problem)) from problem

    for record in records:
        while pending and pending[0][0] < record.ruling:
            ruling, events = pending.pop(0)
            for event in events:
                state = apply(Replaced(ruling, event), state)
        version = record.originator_version
        if version in fixes.voided or version in skip or isinstance(record.event, RulingAmended):
            continue
        state = apply(record, state)
    for ruling, events in pending:
        for event in events:
            state = apply(Replaced(ruling, event), state)
    return state


@frozen
class Head(Plain):
    """A stream's state at the version it was last loaded at, with that event's stored bytes
    (its chain link among them)."""

    version: int
    stored: bytes
    state: Any

    @property
    def link(self) -> str:
        return stored_link(self.stored)


class Heads:
    """The latest state of each stream this process loaded (at most ``size``, the least
    recently used forgotten first), of one engine (its store; a server's threads share it). A
    cached state is
    used only when its version is still the stream's head and the stored event there is still
    the very bytes it was folded from (one indexed read, nothing decoded); their chain link
    links every event before it, so the history it was folded from is the one stored. A head
    that moved by plain events is caught up from the cached version, as from a snapshot; one
    that moved by an undo or an amendment is loaded as without the cache. States are immutable:
    one is shared, never copied."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._heads: OrderedDict[tuple[UUID, Evolve], Head] = OrderedDict()

    def get(self, stream: UUID, evolve: Evolve) -> Head | None:
        with self._lock:
            head = self._heads.get((stream, evolve))
            if head is not None:
                self._heads.move_to_end((stream, evolve))
            return head

    def put(self, stream: UUID, evolve: Evolve, head: Head) -> None:
        with self._lock:
            self._heads[(stream, evolve)] = head
            self._heads.move_to_end((stream, evolve))
            while len(self._heads) > self.size:
                self._heads.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._heads.clear()


class Streams:
    """The streams of ``store``; ``heads``: the states of their heads kept between loads (an
    engine's own streams; none for a view of the store that holds some records only)."""

    def __init__(self, store: CampaignStore, heads: Heads | None = None) -> None:
        self.store = store
        self.heads = heads
        self._checked = threading.local()  # this thread's ``checked_once`` block: what it read

    @contextlib.contextmanager
    def checked_once(self) -> Iterator[None]:
        """A block of this thread (one request: its sign-in, then its command or read) in which
        a stream's head is read from the store at its first load only: a later load of it in
        the block is given the same head, checked then, while the process's kept head is still
        at that version. A save in the block reads every head again at the next load
        (``recheck``: an undo or an amendment leaves the kept head where it was), and a save
        another thread of the process made moves the kept head past the version read; a write
        by another process is refused at the save (its version is taken), and the retry reads
        the store again (``recheck``). Blocks nest as one."""
        if self._block() is not None:
            yield
            return
        self._checked.heads = {}
        try:
            yield
        finally:
            self._checked.heads = None

    def recheck(self) -> None:
        """The heads this thread's block read are read from the store again at the next load
        (a save found a stream moved under it)."""
        checked = self._block()
        if checked is not None:
            checked.clear()

    def _block(self) -> dict[tuple[UUID, Evolve], int] | None:
        """The heads this thread's ``checked_once`` block read, by version (None: no block)."""
        checked: dict[tuple[UUID, Evolve], int] | None = getattr(self._checked, "heads", None)
        return checked

    def _mark_checked(self, stream: UUID, evolve: Evolve, version: int) -> None:
        checked = self._block()
        if checked is not None:
            checked[(stream, evolve)] = version

    def records(
        self, stream: UUID, *, gt: int | None = None, lte: int | None = None
    ) -> list[Recorded]:
        return cast("list[Recorded]", list(self.store.events.get(stream, gt=gt, lte=lte)))

    def _page(self, stream: UUID, gt: int, lte: int | None) -> list[Recorded]:
        return cast(
            "list[Recorded]", list(self.store.events.get(stream, gt=gt, lte=lte, limit=PAGE))
        )

    def _span(self, stream: UUID, gt: int, lte: int | None) -> int:
        """How many events follow version ``gt`` (up to ``lte``), read without decoding any."""
        last = self.store.recorder.select_events(stream, gt=gt, lte=lte, desc=True, limit=1)
        return last[0].originator_version - gt if last else 0

    def last(self, stream: UUID) -> Recorded | None:
        latest = self.records_desc(stream, limit=1)
        return latest[0] if latest else None

    def records_desc(self, stream: UUID, *, limit: int, lte: int | None = None) -> list[Recorded]:
        return cast(
            "list[Recorded]", list(self.store.events.get(stream, desc=True, limit=limit, lte=lte))
        )

    def last_version(self, stream: UUID) -> int:
        last = self.last(stream)
        return last.originator_version if last else 0

    def load(self, stream: UUID, evolve: Evolve, *, lte: int | None = None) -> Loaded:
        """The state after version ``lte`` (default: the end), as recorded up to then. The end
        is read from the process's cached head when the store's head is still it (``Heads``)."""
        if lte is not None or self.heads is None:
            return self._load(stream, evolve, None, lte)
        cached = self.heads.get(stream, evolve)
        checked = self._block()
        if cached is not None and checked and checked.get((stream, evolve)) == cached.version:
            return Loaded(state=cached.state, version=cached.version)  # read in this block
        if cached is not None:
            rows = self.store.recorder.select_events(stream, desc=True, limit=1)
            if rows and rows[0].originator_version == cached.version:
                if bytes(rows[0].state) == cached.stored:
                    self._mark_checked(stream, evolve, cached.version)
                    return Loaded(state=cached.state, version=cached.version)
            elif rows and self.link_at(stream, cached.version) == cached.link:
                behind = rows[0].originator_version - cached.version  # the head just read
                loaded = self._load(stream, evolve, cached, None, behind)  # caught up from it
                return self._cached(stream, evolve, loaded, rows[0])
        return self._cached(stream, evolve, self._load(stream, evolve, None, None), None)

    def keep(self, stream: UUID, evolve: Evolve, version: int, stored: bytes, state: Any) -> None:
        """The state a save just wrote: ``state`` at ``version``, whose stored bytes are
        ``stored`` (the row as inserted), kept as the stream's head as a load would keep it.
        The next load uses it only if the store's head is still that very row."""
        if self.heads is not None and version and state is not None:
            self.heads.put(stream, evolve, Head(version=version, stored=stored, state=state))

    def link_of(self, stream: UUID, version: int, evolve: Evolve) -> str:
        """The chain link of ``stream`` at ``version`` ("" before its first event): the kept
        head's when it is at ``version`` (its bytes were the stored head's at the load that
        gave ``version``), else one row read by its key."""
        if self.heads is not None:
            cached = self.heads.get(stream, evolve)
            if cached is not None and cached.version == version:
                return cached.link
        return self.link_at(stream, version) if version else ""

    def _cached(
        self, stream: UUID, evolve: Evolve, loaded: Loaded, read: StoredEvent | None
    ) -> Loaded:
        """``loaded`` kept as its stream's head, with the stored row at its version (``read``
        already when the load found it the head)."""
        if self.heads is None or not loaded.version or loaded.state is None:
            return loaded
        version = loaded.version
        if read is None or read.originator_version != version:
            rows = self.store.recorder.select_events(stream, gt=version - 1, lte=version, limit=1)
            read = rows[0] if rows else None
        if read is not None:
            head = Head(version=version, stored=bytes(read.state), state=loaded.state)
            self.heads.put(stream, evolve, head)
            self._mark_checked(stream, evolve, version)
        return loaded

    def _load(
        self,
        stream: UUID,
        evolve: Evolve,
        cached: Head | None,
        lte: int | None,
        behind: int | None = None,
    ) -> Loaded:
        """The state at ``lte`` (the end: None), from ``cached`` (a kept head ``behind`` events
        before the head, when the caller read it) or else from the latest trusted snapshot."""
        snapshot = self._snapshot(stream, lte) if cached is None else _as_snapshot(stream, cached)
        start = snapshot.originator_version if snapshot else 0
        long = (self._span(stream, start, lte) if behind is None else behind) > PAGE
        if cached is not None and long:
            return self._load(stream, evolve, None, lte)  # far behind: as if not cached
        if long:
            start, last, state = self._load_paged(stream, evolve, snapshot, lte)
        else:
            records = self.records(stream, gt=start, lte=lte)
            if cached is not None and any(isinstance(r.event, CORRECTIONS) for r in records):
                # an undo or amendment since: loaded as without the cache (its state may hold
                # replacements that a later undo takes back, which no version here says)
                return self._load(stream, evolve, None, lte)
            fixes = corrections(records)
            if snapshot is not None and self.reaches_back(stream, fixes, records, start):
                # rare (an undo of rulings before the snapshot): paged, from an earlier one
                earlier = self._snapshot_before(stream, fixes, records)
                start, last, state = self._load_paged(stream, evolve, earlier, lte)
            else:
                state = fold(records, evolve, snapshot.state if snapshot else None, fixes)
                last = records[-1] if records else None
        if last is None:
            return Loaded(state=state, version=start)
        if lte is None and last.originator_version - start >= STALE:
            self._keep(last, state)
        return Loaded(state=state, version=last.originator_version)

    def _snapshot(self, stream: UUID, lte: int | None) -> Snapshot | None:
        """The latest snapshot at or before ``lte``, when it can be trusted (else None: replay
        instead): of the current shape of its state class, intact (its own link holds), and
        taken from the history stored now (the event at its version has the link it names).
        One written before snapshots were linked is not trusted."""
        if self.store.snapshots is None:
            return None
        found = cast(
            "list[Snapshot]", list(self.store.snapshots.get(stream, desc=True, limit=1, lte=lte))
        )
        if not found or found[0].state is None or not found[0].chain:
            return None
        snapshot = found[0]
        if self.link_at(stream, snapshot.originator_version) != snapshot.chain:
            return None
        return snapshot

    def link_at(self, stream: UUID, version: int) -> str:
        """The chain link of the stored event at ``version`` ("" when there is none): one row
        read by its key, not decoded."""
        rows = self.store.recorder.select_events(stream, gt=version - 1, lte=version, limit=1)
        return stored_link(rows[0].state) if rows else ""

    def reaches_back(
        self, stream: UUID, fixes: Corrections, found: Sequence[Recorded], version: int
    ) -> bool:
        """Whether the corrections ``found`` (recorded after ``version``) change what the state
        at ``version`` was built from: they void a version at or before it, amend a ruling
        whose replacements stand before it, or undo a ruling whose amendment's replacements the
        state holds."""
        if fixes.voided and min(fixes.voided) <= version:
            return True
        taken = self._taken_back(stream, found)
        if taken is not None and taken <= version:
            return True
        unplaced = _unplaced(found)
        return unplaced is not None and self._ruling_at(stream, version) > unplaced

    def _snapshot_before(
        self, stream: UUID, fixes: Corrections, found: Sequence[Recorded]
    ) -> Snapshot | None:
        """The latest snapshot from before every correction ``found`` makes, or None (from the
        start). An amendment's replacements stand at its ruling's place: right after the
        versions it voids here or, when its ruling wrote nothing to this stream, after the last
        version written by that ruling or an earlier one (the versions' rulings only grow)."""
        bounds = [min(fixes.voided) - 1] if fixes.voided else []
        taken = self._taken_back(stream, found)
        if taken is not None:  # from before the amendment whose replacements are taken back
            bounds.append(taken - 1)
        snapshot = self._snapshot(stream, min(bounds)) if bounds else self._snapshot(stream, None)
        unplaced = _unplaced(found)
        while snapshot is not None and unplaced is not None:
            if self._ruling_at(stream, snapshot.originator_version) <= unplaced:
                break
            snapshot = self._snapshot(stream, snapshot.originator_version - 1)
        return snapshot

    def _taken_back(self, stream: UUID, found: Sequence[Recorded]) -> int | None:
        """The earliest version of an amendment recorded here of a ruling that ``found`` undoes
        without voiding a version of this stream (a re-decided ruling undone later: it wrote
        here only through that amendment's replacements, which go with it), or None. The
        corrections are read only when ``found`` holds such an undo (rare)."""
        taken = {
            r.event.ruling
            for r in found
            if isinstance(r.event, RulingRetracted) and not r.event.versions
        }
        if not taken:
            return None
        # An amendment of a ruling is a later ruling: recorded after the versions written by
        # earlier rulings (the versions' rulings only grow). Those are counted by a binary
        # search, one row read by its key a step, not by reading the stream from its start.
        versions = range(1, max(r.originator_version for r in found) + 1)
        start = bisect_left(versions, min(taken), key=lambda v: self._ruling_at(stream, v))
        amended = (r for r in self._corrections_after(stream, start, None) if r.event is not None)
        return min(
            (
                r.originator_version
                for r in amended
                if isinstance(r.event, RulingAmended) and r.event.ruling in taken
            ),
            default=None,
        )

    def _ruling_at(self, stream: UUID, version: int) -> int:
        """The ruling that wrote ``version`` of ``stream`` (one row read by its key)."""
        found = cast(
            "list[Recorded]", list(self.store.events.get(stream, gt=version - 1, lte=version))
        )
        return found[0].ruling if found else 0

    def _keep(self, last: Recorded, state: Any) -> None:
        """A snapshot of the head just folded (a cache: failing to write it changes nothing)."""
        if self.store.snapshots is None or state is None:
            return
        snapshot = Snapshot(
            originator_id=last.originator_id,
            originator_version=last.originator_version,
            timestamp=last.timestamp,
            state=state,
            chain=last.chain,
        )
        with contextlib.suppress(Exception):  # read-only store, or written by another process
            self.store.snapshots.put([snapshot])

    def _load_paged(
        self, stream: UUID, evolve: Evolve, snapshot: Snapshot | None, lte: int | None
    ) -> tuple[int, Recorded | None, Any]:
        """A long history, folded a page at a time so memory stays flat: a first pass decodes
        only the corrections (picked by topic from the raw rows), the second folds. Returns the
        version folded from, the last record folded and the state."""
        start = snapshot.originator_version if snapshot else 0
        found = self._corrections_after(stream, start, lte)
        fixes = corrections(found)
        while snapshot is not None and self.reaches_back(stream, fixes, found, start):
            snapshot = self._snapshot_before(stream, fixes, found)  # each one earlier
            start = snapshot.originator_version if snapshot else 0
            found = self._corrections_after(stream, start, lte)
            fixes = corrections(found)
        last: list[Recorded | None] = [None]

        def pages() -> Iterator[Recorded]:
            gt = start
            while True:
                page = self._page(stream, gt, lte)
                yield from page
                if page:
                    last[0] = page[-1]
                if len(page) < PAGE:
                    return
                gt = page[-1].originator_version

        state = fold(pages(), evolve, snapshot.state if snapshot else None, fixes)
        return start, last[0], state

    def _corrections_after(self, stream: UUID, start: int, lte: int | None) -> list[Recorded]:
        """The undos and amendments after version ``start``: picked by topic in the store's
        query where the recorder can, else from the raw rows a page at a time."""
        recorder = self.store.recorder
        decode = self.store.mapper.to_domain_event
        if isinstance(recorder, TopicFilter):
            rows = recorder.select_events(stream, gt=start, lte=lte, topics=CORRECTION_TOPICS)
            return [cast("Recorded", decode(row)) for row in rows]
        found: list[Recorded] = []
        gt = start
        while True:
            rows = recorder.select_events(stream, gt=gt, lte=lte, limit=PAGE)
            found += [cast("Recorded", decode(r)) for r in rows if r.topic in CORRECTION_TOPICS]
            if len(rows) < PAGE:
                return found
            gt = rows[-1].originator_version

    def replay(
        self,
        records: Sequence[Recorded],
        evolve: Evolve,
        *,
        later: Iterable[Recorded] = (),
        upto: int | None = None,
    ) -> Any:
        """Fold the given records from scratch; ``later`` adds undos and amendments recorded
        after them (the past as corrected since), for rulings up to ``upto``."""
        fixes = corrections([*records, *later])
        if upto is not None:
            fixes = fixes.before(upto + 1)
        return fold(records, evolve, None, fixes)


def _as_snapshot(stream: UUID, head: Head) -> Snapshot:
    """A cached head, loaded from as a snapshot is (its link checked by the caller)."""
    return Snapshot(
        originator_id=stream,
        originator_version=head.version,
        timestamp=datetime.now(UTC),  # a snapshot's moment, unused by a load
        state=head.state,
        chain=head.link,
    )


def _unplaced(found: Iterable[Recorded]) -> int | None:
    """The earliest ruling amended among ``found`` that wrote nothing to their stream (its
    replacements' place is marked by no version of it), or None."""
    rulings = [
        r.event.ruling for r in found if isinstance(r.event, RulingAmended) and not r.event.versions
    ]
    return min(rulings, default=None)
