"""Reads that cost what they show: a session's log, a character's history and dice counts,
found through the ruling index and the dice read models (``projections.ruling_index``,
``projections.dice_model``) instead of the whole campaign stream.

The log and the history are the full-scan readers themselves (``engine.store.log.read_log``,
``engine.reads.timeline.history``) run over a ``Subset`` of the store: the records of the rulings
asked for and of the rulings that undid or amended them, each read by its stream versions a
page at a time. Every record those readers look up is there, so what they give is what they
give over the whole store. The models catch up before each read: never stale.

The index is a cache the log is the truth of. Each read takes its documents checked
(``engine.reads.index_documents``) and holds what they gave to the log it read: every ruling
listed is found where its entry says, of the session or stream listed, and nothing the index
left out belongs there (the rulings next to a session's, the versions of a character's stream).
A read whose documents are damaged, or disagree, reads the log itself instead (as a store that
keeps no index does) and gives the same; `campaign verify` names the damaged document, and
`campaign rebuild --projection index` writes the index again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from domain.audience import Audience
from domain.events import AMEND, RulingMade
from domain.visibility import hidden_from, reads_all
from engine.reads import timeline
from engine.reads.index_documents import Guarded, IndexDamaged, checked, listed
from engine.reads.models import BATCH, ReadModels, ReadModelsUnsupported
from engine.store.campaign_store import StoredLogDamaged
from engine.store.log import LoggedRuling, headers, read_log
from engine.store.records import DIRECTORY_ID, Recorded
from engine.store.streams import Streams
from projections.dice_model import ALL, DiceModel, add, dice_key, face_counts, gm_note, merged
from projections.dice_stats import FaceCounts
from projections.ruling_index import IndexModel, entry_of, session_key, stream_key

if TYPE_CHECKING:
    from domain.campaign import CampaignState
    from projections.documents import ReadModel

INDEX = IndexModel()
GUARDED = Guarded(INDEX)  # the index caught up: a document it cannot apply to is IndexDamaged
DICE = DiceModel()
PAGE = 500  # rulings: the whole log is read and shown this many at a time
GAP = 4  # versions between two wanted ranges of a stream read through rather than asked again

Read = Callable[[str], Any]
T = TypeVar("T")

# What a read through a damaged index meets: a document that does not read as the index's, or
# one that disagrees with the log (an entry pointing at rows that are not the ruling's).
DAMAGED = (IndexDamaged, StoredLogDamaged)


class Subset(Streams):
    """The store as the log's readers see it, holding the records of some rulings only."""

    def __init__(self, streams: Streams, found: dict[UUID, dict[int, Recorded]]) -> None:
        super().__init__(streams.store)
        self._found = found

    def records(
        self, stream: UUID, *, gt: int | None = None, lte: int | None = None
    ) -> list[Recorded]:
        held = self._found.get(stream, {})
        return [
            held[v] for v in sorted(held) if (gt is None or v > gt) and (lte is None or v <= lte)
        ]


class Indexed:
    """The indexed reads of one store (see the module docstring)."""

    def __init__(self, read_models: ReadModels, streams: Streams) -> None:
        self._models = read_models
        self._streams = streams

    def _fresh(self, model: ReadModel) -> Read:
        self._models.catch_up(model)
        views = self._models.views
        return lambda key: views.document(model.name, key)

    def _index(self) -> Read:
        """The ruling index caught up, its documents read checked (``IndexDamaged``), each
        read once for the read asking."""
        read = checked(self._fresh(GUARDED))
        pages: dict[str, Any] = {}

        def cached(key: str) -> Any:
            if key not in pages:
                pages[key] = read(key)
            return pages[key]

        return cached

    def _or_the_log(self, through_index: Callable[[], T], from_log: Callable[[], T]) -> T:
        """What the index gives, or, where it is damaged or disagrees, what the log gives."""
        try:
            return through_index()
        except DAMAGED:
            return from_log()

    def log(self, campaign_id: UUID, session: int) -> list[LoggedRuling]:
        """Session ``session``'s rulings, as ``read_log(..., session=session)`` gives them."""

        def through_index() -> list[LoggedRuling]:
            read = self._index()
            key = session_key(campaign_id, session)
            numbers = list(listed(read, key))
            if not numbers:  # no such session, or its list lost: the log says which
                raise IndexDamaged(f"{key} lists no ruling")
            subset = self.subset(read, campaign_id, numbers)
            found = read_log(subset, campaign_id, session=session)
            _all_found(found, numbers, key)
            _none_left_out(read, campaign_id, session, numbers)
            return found

        return self._or_the_log(
            through_index, lambda: read_log(self._streams, campaign_id, session=session)
        )

    def log_pages(self, campaign_id: UUID, last: int) -> Iterator[list[LoggedRuling]]:
        """Rulings 1 to ``last`` in pages of ``PAGE``, each as ``read_log(..., rulings=...)``
        gives them: the whole log without holding it (a page's records and its corrections')."""
        page = PAGE
        for first in range(1, last + 1, page):
            yield self.log_of(campaign_id, range(first, min(first + page, last + 1)))

    def log_of(self, campaign_id: UUID, numbers: Collection[int]) -> list[LoggedRuling]:
        """The rulings ``numbers``, as ``read_log(..., rulings=numbers)`` gives them (each of
        them a ruling of the campaign: one the index has no entry for is read from the log)."""

        def through_index() -> list[LoggedRuling]:
            found = self._log_of(self._index(), campaign_id, numbers)
            wanted = sorted(set(numbers))
            if len(found) != len(wanted):  # unless those not found were never made
                latest = self._latest(campaign_id)
                wanted = [n for n in wanted if 1 <= n <= latest]
            _all_found(found, wanted, "the ruling entries")
            return found

        return self._or_the_log(
            through_index, lambda: read_log(self._streams, campaign_id, rulings=set(numbers))
        )

    def _latest(self, campaign_id: UUID) -> int:
        """The number of the campaign's latest ruling, from the log: its header is the last
        row of the campaign stream."""
        newest = list(self._streams.store.events.get(campaign_id, desc=True, limit=1))
        return cast("Recorded", newest[0]).ruling if newest else 0

    def _log_of(
        self, read: Read, campaign_id: UUID, numbers: Collection[int]
    ) -> list[LoggedRuling]:
        subset = self.subset(read, campaign_id, numbers)
        return read_log(subset, campaign_id, rulings=set(numbers))

    def session_end(self, campaign_id: UUID, session: int) -> int | None:
        """The last ruling recorded in session ``session`` (None: none was)."""

        def through_index() -> int | None:
            read = self._index()
            key = session_key(campaign_id, session)
            numbers = list(listed(read, key))
            if not numbers:  # no such session, or its list lost: the log says which
                raise IndexDamaged(f"{key} lists no ruling")
            last = numbers[-1]
            found = self._headers(read, campaign_id, {last})
            if [(h.ruling, h.session) for h in found] != [(last, session)]:
                raise IndexDamaged(f"{key} ends at ruling {last}, which the log does not")
            _none_left_out(read, campaign_id, session, [last], range(last + 1, last + 2))
            return last

        def from_log() -> int | None:
            made = headers(self._streams.records(campaign_id))
            return max((h.ruling for h in made if h.session == session), default=None)

        return self._or_the_log(through_index, from_log)

    def history(self, campaign: CampaignState, ref: str) -> list[timeline.Change]:
        """A character's history, as ``engine.reads.timeline.history`` gives it."""
        stream = campaign.find(ref).character_id

        def through_index() -> list[timeline.Change]:
            read = self._index()
            key = stream_key(campaign.id, stream)
            numbers = list(listed(read, key))
            subset = self.subset(read, campaign.id, numbers)
            self._whole_stream(subset, stream, numbers, key)
            made = {h.ruling for h in headers(subset.records(campaign.id))}
            if not made >= set(numbers):
                raise IndexDamaged("the ruling entries do not find every listed ruling's header")
            return timeline.history(subset, campaign, ref)

        return self._or_the_log(
            through_index, lambda: timeline.history(self._streams, campaign, ref)
        )

    def _whole_stream(self, subset: Subset, stream: UUID, numbers: list[int], key: str) -> None:
        """The rulings listed for ``stream`` wrote every version it holds, and no other ruling
        did: read through the index, it is the stream the log holds."""
        records = subset.records(stream)
        versions = [r.originator_version for r in records]
        newest = list(self._streams.store.recorder.select_events(stream, desc=True, limit=1))
        held = newest[0].originator_version if newest else 0
        if versions != list(range(1, held + 1)) or {r.ruling for r in records} != set(numbers):
            raise IndexDamaged(f"{key} does not list the rulings of the stream's {held} versions")

    def subset(self, read: Read, campaign_id: UUID, numbers: Iterable[int]) -> Subset:
        """The records of rulings ``numbers`` and of those that corrected them since (``read``:
        the index's documents, each read once: ``_index``)."""
        entries = {n: entry_of(read, campaign_id, n) for n in numbers}
        for correction in {b for e in list(entries.values()) if e for b in e["by"]}:
            if correction not in entries:
                entries[correction] = entry_of(read, campaign_id, correction)
        ranges: dict[UUID, list[tuple[int, int]]] = {}
        for entry in entries.values():
            if entry is None:
                continue
            ranges.setdefault(campaign_id, []).append((entry["v"], entry["v"]))
            for stream, first, last in entry["t"]:
                ranges.setdefault(UUID(stream), []).append((first, last))
        ranges.pop(DIRECTORY_ID, None)  # the store's directory: the log's readers skip it
        wanted = set(entries)
        return Subset(self._streams, self._read(ranges, wanted))

    def _read(
        self, ranges: dict[UUID, list[tuple[int, int]]], wanted: set[int]
    ) -> dict[UUID, dict[int, Recorded]]:
        """Each stream's records in ``ranges`` (close ones read as one) of rulings ``wanted``."""
        found: dict[UUID, dict[int, Recorded]] = {}
        for stream, spans in ranges.items():
            held = found.setdefault(stream, {})
            for first, last in coalesced(spans):
                for record in self._pages(stream, first, last):
                    if record.ruling in wanted:
                        held[record.originator_version] = record
        return found

    def _pages(self, stream: UUID, first: int, last: int) -> Iterable[Recorded]:
        gt = first - 1
        while gt < last:
            page = cast(
                "list[Recorded]",
                list(self._streams.store.events.get(stream, gt=gt, lte=last, limit=BATCH)),
            )
            yield from page
            if len(page) < BATCH:
                return
            gt = page[-1].originator_version

    def dice(
        self,
        campaign: CampaignState,
        *,
        session: int | None,
        stream: UUID | None,
        audience: Audience,
    ) -> list[FaceCounts]:
        """Face counts of the rulings of ``session`` (default: all) that touched ``stream``
        (default: any), without the rulings hidden from ``audience`` or the GM-only notes."""
        read = self._fresh(DICE)
        key = dice_key(campaign.id, ALL if session is None else session, stream or ALL)
        doc = read(key) or {"counts": {}, "gm": {}}
        if reads_all(campaign, audience):
            return face_counts(merged(doc["counts"], doc["gm"]))
        counts = merged(doc["counts"])
        hidden = set(hidden_from(campaign, audience))
        if hidden:
            found = self._or_the_log(
                lambda: self._hidden_headers(campaign.id, hidden),
                lambda: [
                    h for h in headers(self._streams.records(campaign.id)) if h.ruling in hidden
                ],
            )
            for header in _of(found, session, stream):
                made = header.event
                assert isinstance(made, RulingMade)
                if made.command != AMEND and not gm_note(made):
                    add(counts, made.dice, made.provenance, -1)
        return face_counts(counts)

    def _hidden_headers(self, campaign_id: UUID, hidden: set[int]) -> list[Recorded]:
        """The headers of the ``hidden`` rulings, found through their entries in the index."""
        found = self._headers(self._index(), campaign_id, hidden)
        if sorted(h.ruling for h in found) != sorted(hidden):
            raise IndexDamaged("the ruling entries do not find every hidden ruling's header")
        return found

    def _headers(self, read: Read, campaign_id: UUID, numbers: set[int]) -> list[Recorded]:
        entries = [entry_of(read, campaign_id, n) for n in sorted(numbers)]
        spans = [(e["v"], e["v"]) for e in entries if e is not None]
        found = self._read({campaign_id: spans}, numbers).get(campaign_id, {})
        return [r for r in found.values() if isinstance(r.event, RulingMade)]


def _of(found: list[Recorded], session: int | None, stream: UUID | None) -> list[Recorded]:
    """The rulings' headers among ``found`` of ``session`` that touched ``stream`` (each: any),
    as their headers say."""
    return [
        h
        for h in found
        if (session is None or h.session == session)
        and isinstance(made := h.event, RulingMade)
        and (stream is None or any(span.stream == stream for span in made.touched))
    ]


def _all_found(found: list[LoggedRuling], numbers: Iterable[int], where: str) -> None:
    """Every ruling the index listed was found, where its entry says (and no other)."""
    if [e.ruling.number for e in found] != list(numbers):
        raise IndexDamaged(f"{where}: the rulings listed are not those found in the log")


def _none_left_out(
    read: Read,
    campaign_id: UUID,
    session: int,
    numbers: list[int],
    around: Iterable[int] | None = None,
) -> None:
    """No ruling ``around`` the listed ``numbers`` (default: next to or between them: the
    rulings of a session are together in the log) has an entry in ``session`` while the list
    leaves it out."""
    listed_here = set(numbers)
    if around is None:
        around = range(max(1, numbers[0] - 1), numbers[-1] + 2)
    for number in around:
        if number in listed_here:
            continue
        entry = entry_of(read, campaign_id, number)
        if entry is not None and entry["s"] == session:
            key = session_key(campaign_id, session)
            raise IndexDamaged(f"{key} leaves out ruling {number}, of that session")


def coalesced(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Version ranges in order, those at most ``GAP`` apart joined."""
    joined: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        if joined and first <= joined[-1][1] + GAP + 1:
            joined[-1] = (joined[-1][0], max(joined[-1][1], last))
        else:
            joined.append((first, last))
    return joined


def indexed(read_models: ReadModels, streams: Streams) -> Indexed | None:
    """The indexed reads, or None where the store keeps no read models (a store opened
    read-only, or of a kind that keeps none): then the full scans answer."""
    try:
        read_models.views  # noqa: B018 (opening them is the test)
    except (ReadModelsUnsupported, sqlite3.Error):
        return None
    return Indexed(read_models, streams)
