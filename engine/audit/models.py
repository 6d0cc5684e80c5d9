"""The read models ``verify`` computes again from the log and compares with the stored ones: the
recaps, the Exposure timelines, the ruling index and the dice counts
(``engine.reads.recaps.MODELS``), each one the store keeps.

A stored read model is a cache that reads trust: they catch it up from where it stands and show
its documents. So each is computed again here, with its own code, from the campaign's whole
rulings up to the position it stands at (the walk of the log, ``engine.audit.log``, hands them
over in the order recorded), into a scratch SQLite file of its own (removed when closed; what is
held in memory is a batch of documents); then the campaign's stored documents and the computed
ones are read side by side in the order of their keys, a page at a time, and every document that
differs, is missing or should not be there is named (the first few of each model, then how many
more). A read model stored in an older format is not compared: the next read builds it again.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.events import RulingMade
from engine.audit import rows as audit_rows
from engine.audit.chain import why
from engine.audit.report import Finding
from engine.reads.models import BATCH, Cache, ReadModelsUnsupported, SQLiteViews, ViewStore
from engine.store.records import Recorded

if TYPE_CHECKING:
    from engine.reads.models import ReadModels
    from projections.documents import ReadModel

FLUSH = 4 * BATCH  # events whose documents are held before they are written to the scratch
SHOWN = 3  # documents named one by one for each read model; past that, how many more


class ScratchBatch(Cache):
    """A batch of a scratch read model's documents, which also remembers the keys the scratch
    has no document for (only this batch writes there: a key stays missing until put)."""

    def __init__(self, store: SQLiteViews, name: str, missing: set[str]) -> None:
        super().__init__(store, name)
        self.missing = missing

    def get(self, key: str) -> Any:
        if key in self.writes:
            return self.writes[key]
        if key in self.missing:
            return None
        found = super().get(key)
        if found is None:
            self.missing.add(key)
        return found

    def put(self, key: str, value: Any) -> None:
        self.missing.discard(key)
        self.writes[key] = value  # ``Cache.put``


class ScratchModel:
    """One stored read model being computed again: where it stands, its scratch documents."""

    def __init__(
        self, model: ReadModel, position: int, scratch: SQLiteViews, every: int = 0
    ) -> None:
        self.model = model
        self.every = every or FLUSH  # events whose documents are held before they are written
        self.position = position
        self.scratch = scratch
        self.missing: set[str] = set()
        self.cache = ScratchBatch(scratch, model.name, self.missing)
        self.held = 0  # events applied since the scratch was last written
        self.written = 0  # the position written to the scratch (its tracking)
        self.failed: tuple[int, str] | None = None  # the ruling that did not apply, and why
        scratch.reset(model.name, model.version)

    def apply(self, last_id: int, header: Recorded, records: Sequence[Recorded]) -> None:
        if self.failed is not None:
            return
        try:
            self.model.apply(self.cache, records)
        except Exception as error:  # what a read catching it up from here raises too
            self.failed = (header.ruling, why(error))
            return
        self.held += len(records)
        if self.held >= self.every:
            self.flush(last_id)

    def flush(self, last_id: int) -> None:
        if self.cache.writes:
            self.scratch.commit(self.model.name, self.written, last_id, self.cache.writes)
            self.written = last_id
        self.cache = ScratchBatch(self.scratch, self.model.name, self.missing)
        self.held = 0


class Recompute:
    """The campaign's part of each read model ``views`` keeps, computed again (see the module
    docstring). Handed whole rulings in the order recorded (``ruling``); ``stop`` where the log
    no longer reads as rulings; ``done`` compares."""

    def __init__(self, views: ViewStore, campaign_id: UUID, models: Sequence[ReadModel]) -> None:
        self.views = views
        self.campaign_id = campaign_id
        self.cid = str(campaign_id)
        self.kept: list[ScratchModel] = []
        self.scratch: SQLiteViews | None = None
        self.stopped: tuple[int, str] | None = None  # where the log stopped reading, and why
        for model in models:
            tracked = views.tracking(model.name)
            if tracked is None or tracked[1] != model.version:
                continue  # none kept, or kept in an older format: the next read builds it again
            if self.scratch is None:
                self.scratch = SQLiteViews("")  # a private file SQLite removes when closed
            self.kept.append(ScratchModel(model, tracked[0], self.scratch))
        self.reach = max((k.position for k in self.kept), default=0)

    @property
    def compared(self) -> tuple[str, ...]:
        return tuple(k.model.name for k in self.kept)

    def wants(self, note: int) -> bool:
        """Whether a stored read model stands at or past the row at ``note`` (and the log still
        reads as rulings): its ruling is to be computed again."""
        return self.stopped is None and note <= self.reach

    def stop(self, note: int, why: str) -> None:
        if self.stopped is None:
            self.stopped = (note, why)

    def ruling(self, last_id: int, records: Sequence[Recorded]) -> None:
        """One whole ruling, its last row at ``last_id``: computed into each read model standing
        at or past it, when it is the campaign's."""
        header = next(r for r in records if isinstance(r.event, RulingMade))  # as the models
        if header.originator_id != self.campaign_id:
            return
        for kept in self.kept:
            if last_id <= kept.position:
                kept.apply(last_id, header, records)

    def done(self) -> list[Finding]:
        """Each read model compared with what the log gives (then the scratch is removed)."""
        found: list[Finding] = []
        try:
            for kept in self.kept:
                if self.stopped is not None and self.stopped[0] <= kept.position:
                    problem = (
                        f"the {kept.model.name} read model was not compared: it stands past "
                        f"where the log stops reading as rulings ({self.stopped[1]})"
                    )
                    found.append(Finding("readmodel", problem, self.campaign_id))
                    continue
                if kept.failed is not None:
                    ruling, reason = kept.failed
                    problem = (
                        f"the {kept.model.name} read model cannot be computed from the log: "
                        f"ruling {ruling} does not apply to it ({reason})"
                    )
                    found.append(Finding("readmodel", problem, self.campaign_id, None, ruling))
                    continue
                kept.flush(kept.position)
                found += self._compared(kept)
        finally:
            self.close()
        return found

    def close(self) -> None:
        """Remove the scratch (once done, or when the walk of the log failed)."""
        scratch, self.scratch = self.scratch, None
        if scratch is not None:
            scratch.close()

    def _compared(self, kept: ScratchModel) -> list[Finding]:
        name = kept.model.name
        stored = self._documents(self.views, name)
        computed = self._documents(kept.scratch, name)
        found: list[Finding] = []
        more = 0
        for key, mine, theirs in _side_by_side(stored, computed):
            if mine == theirs:  # as written, both sorted by key: equal
                continue
            mine, theirs = _parsed(mine), _parsed(theirs)
            if mine == theirs:
                continue
            if len(found) >= SHOWN:
                more += 1
                continue
            stream, ruling, session = _place(name, key, self.cid)
            if theirs is _NONE:
                what = "is not one the log gives"
            elif mine is _NONE:
                what = "is missing: the log gives it"
            elif mine is _UNREADABLE:
                what = "is not JSON: no read can read it"
            else:
                differs, entry = _difference(mine, theirs)
                what = f"differs from what the log gives at {differs}"
                ruling = ruling if entry is None else entry
            problem = f"the {name} read model's document {key} {what}"
            found.append(Finding("readmodel", problem, stream, None, ruling, session))
        if more:
            problem = f"and {more} more documents of the {name} read model differ from the log"
            found.append(Finding("readmodel", problem, self.campaign_id))
        return found

    def _documents(self, views: ViewStore, name: str) -> Iterator[tuple[str, str]]:
        """The campaign's documents of one read model as stored, in the order of their keys, a
        page at a time (the keys of a campaign's documents name it second: ``session/<id>/2``)."""
        after = ""
        while True:
            page = views.listed(name, after, audit_rows.PAGE)
            for key, body in page:
                if key.split("/")[1:2] == [self.cid]:
                    yield key, body
            if len(page) < audit_rows.PAGE:
                return
            after = page[-1][0]


_NONE: Any = object()  # no such document
_UNREADABLE: Any = object()  # a stored document that is not JSON


def _parsed(body: Any) -> Any:
    if body is _NONE:
        return _NONE
    try:
        return json.loads(body)
    except ValueError:
        return _UNREADABLE


def _side_by_side(
    stored: Iterator[tuple[str, str]], computed: Iterator[tuple[str, str]]
) -> Iterator[tuple[str, Any, Any]]:
    """Two runs of documents in key order, merged: each key with the stored and the computed
    document (``_NONE`` where one has none)."""
    mine, theirs = next(stored, None), next(computed, None)
    while mine is not None or theirs is not None:
        if theirs is None or (mine is not None and mine[0] < theirs[0]):
            assert mine is not None
            yield mine[0], mine[1], _NONE
            mine = next(stored, None)
        elif mine is None or theirs[0] < mine[0]:
            yield theirs[0], _NONE, theirs[1]
            theirs = next(computed, None)
        else:
            yield mine[0], mine[1], theirs[1]
            mine, theirs = next(stored, None), next(computed, None)


def _difference(
    stored: Any, computed: Any, path: str = "", ruling: int | None = None
) -> tuple[str, int | None]:
    """Where two documents first differ (the path to it: never what either holds there, which
    may be a hidden ruling's), and the ruling whose entry holds it (when one does)."""
    if isinstance(stored, dict) and isinstance(computed, dict):
        number = computed.get("ruling")
        ruling = number if type(number) is int else ruling
        for key in sorted(set(stored) | set(computed), key=str):
            mine, theirs = stored.get(key, _NONE), computed.get(key, _NONE)
            if mine != theirs:
                return _difference(mine, theirs, f"{path}.{key}", ruling)
    if isinstance(stored, list) and isinstance(computed, list) and len(stored) == len(computed):
        for at, (mine, theirs) in enumerate(zip(stored, computed, strict=True)):
            if mine != theirs:
                return _difference(mine, theirs, f"{path}[{at}]", ruling)
    where = path.lstrip(".")
    if not where:
        return "the whole document", ruling
    if stored is _NONE or computed is _NONE:
        return f"{where} ({'missing' if stored is _NONE else 'not in what the log gives'})", ruling
    return where, ruling


def _place(model: str, key: str, cid: str) -> tuple[UUID | None, int | None, int | None]:
    """The stream, ruling and session a document's key names, as far as it names them (the
    index's ``ruling/<id>/<n>`` is a page of rulings, the others' a ruling)."""
    kind, _, rest = key.partition(f"/{cid}")
    parts = [part for part in rest.split("/") if part]
    stream: UUID | None = None
    ruling = session = None
    first = parts[0] if parts else ""
    if kind == "session" and first.isdigit():
        session = int(first)
    elif kind == "ruling" and first.isdigit() and len(parts) == 1 and model != "index":
        ruling = int(first)
    elif kind in ("hero", "stream") and first:
        stream = _uuid(first)
    elif kind == "dice" and parts:
        session = int(first) if first.isdigit() else None
        stream = _uuid(parts[1]) if len(parts) > 1 else None
    return stream, ruling, session


def _uuid(text: str) -> UUID | None:
    try:
        return UUID(text)
    except ValueError:
        return None


def recompute_of(read_models: ReadModels | None, campaign_id: UUID) -> Recompute | None:
    """The read models a store keeps, to be computed again for ``campaign_id`` (None: the store
    keeps none, or none can be opened: a store of a kind that keeps none)."""
    if read_models is None:
        return None
    try:
        views = read_models.views
    except (ReadModelsUnsupported, sqlite3.Error):
        return None
    from engine.reads.recaps import MODELS

    recompute = Recompute(views, campaign_id, list(MODELS.values()))
    return recompute if recompute.kept else None
