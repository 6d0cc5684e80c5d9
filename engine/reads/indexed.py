"""Reads that cost what they show: a session's log, a character's history and dice counts,
found through the ruling index and the dice read models (``projections.ruling_index``,
``projections.dice_model``) instead of the whole campaign stream.

The log and the history are the full-scan readers themselves (``engine.store.log.read_log``,
``engine.reads.timeline.history``) run over a ``Subset`` of the store: the records of the rulings
asked for and of the rulings that undid or amended them, each read by its stream versions a
page at a time. Every record those readers look up is there, so what they give is what they
give over the whole store. The models catch up before each read: never stale.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from domain.audience import Audience
from domain.events import AMEND, RulingMade
from domain.visibility import hidden_from, reads_all
from engine.reads import timeline
from engine.reads.models import BATCH, ReadModels, ReadModelsUnsupported
from engine.store.log import LoggedRuling, read_log
from engine.store.records import DIRECTORY_ID, Recorded
from engine.store.streams import Streams
from projections.dice_model import ALL, DiceModel, add, dice_key, face_counts, gm_note, merged
from projections.dice_stats import FaceCounts
from projections.ruling_index import (
    IndexModel,
    entry_of,
    last_listed,
    listed,
    session_key,
    stream_key,
)

if TYPE_CHECKING:
    from domain.campaign import CampaignState
    from projections.documents import ReadModel

INDEX = IndexModel()
DICE = DiceModel()
PAGE = 500  # rulings: the whole log is read and shown this many at a time
GAP = 4  # versions between two wanted ranges of a stream read through rather than asked again

Read = Callable[[str], Any]


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

    def log(self, campaign_id: UUID, session: int) -> list[LoggedRuling]:
        """Session ``session``'s rulings, as ``read_log(..., session=session)`` gives them."""
        read = self._fresh(INDEX)
        numbers = list(listed(read, session_key(campaign_id, session)))
        return read_log(self.subset(read, campaign_id, numbers), campaign_id, session=session)

    def log_pages(self, campaign_id: UUID, last: int) -> Iterator[list[LoggedRuling]]:
        """Rulings 1 to ``last`` in pages of ``PAGE``, each as ``read_log(..., rulings=...)``
        gives them: the whole log without holding it (a page's records and its corrections')."""
        read = self._fresh(INDEX)
        page = PAGE
        for first in range(1, last + 1, page):
            yield self._log_of(read, campaign_id, range(first, min(first + page, last + 1)))

    def log_of(self, campaign_id: UUID, numbers: Collection[int]) -> list[LoggedRuling]:
        """The rulings ``numbers``, as ``read_log(..., rulings=numbers)`` gives them."""
        return self._log_of(self._fresh(INDEX), campaign_id, numbers)

    def _log_of(
        self, read: Read, campaign_id: UUID, numbers: Collection[int]
    ) -> list[LoggedRuling]:
        subset = self.subset(read, campaign_id, numbers)
        return read_log(subset, campaign_id, rulings=set(numbers))

    def session_end(self, campaign_id: UUID, session: int) -> int | None:
        """The last ruling recorded in session ``session`` (None: none was)."""
        return last_listed(self._fresh(INDEX), session_key(campaign_id, session))

    def history(self, campaign: CampaignState, ref: str) -> list[timeline.Change]:
        """A character's history, as ``engine.reads.timeline.history`` gives it."""
        read = self._fresh(INDEX)
        stream = campaign.find(ref).character_id
        numbers = list(listed(read, stream_key(campaign.id, stream)))
        return timeline.history(self.subset(read, campaign.id, numbers), campaign, ref)

    def subset(self, read: Read, campaign_id: UUID, numbers: Iterable[int]) -> Subset:
        """The records of rulings ``numbers`` and of those that corrected them since."""
        pages: dict[str, Any] = {}

        def cached(key: str) -> Any:
            if key not in pages:
                pages[key] = read(key)
            return pages[key]

        entries = {n: entry_of(cached, campaign_id, n) for n in numbers}
        for correction in {b for e in list(entries.values()) if e for b in e["by"]}:
            if correction not in entries:
                entries[correction] = entry_of(cached, campaign_id, correction)
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
            index = self._fresh(INDEX)
            if session is not None:
                hidden &= set(listed(index, session_key(campaign.id, session)))
            if stream is not None:
                hidden &= set(listed(index, stream_key(campaign.id, stream)))
            for header in self._headers(index, campaign.id, hidden):
                made = header.event
                assert isinstance(made, RulingMade)
                if made.command != AMEND and not gm_note(made):
                    add(counts, made.dice, made.provenance, -1)
        return face_counts(counts)

    def _headers(self, read: Read, campaign_id: UUID, numbers: set[int]) -> list[Recorded]:
        entries = [entry_of(read, campaign_id, n) for n in sorted(numbers)]
        spans = [(e["v"], e["v"]) for e in entries if e is not None]
        found = self._read({campaign_id: spans}, numbers).get(campaign_id, {})
        return [r for r in found.values() if isinstance(r.event, RulingMade)]


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
