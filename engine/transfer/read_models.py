"""The read models of an imported campaign, computed from the records the line checks decoded
(``engine.transfer.file``) while the lines are read, so that the first read after an import finds
them built, as after any other write.

The records are taken as the store will hold them, in the order written (the campaign's
directory entry first, then the file's rows) and as the read models read the log: whole rulings
(``engine.reads.models.complete``). Each model's documents go to a scratch SQLite file of the
import's (``engine.audit.models.ScratchModel``, a batch at a time: nothing holds the whole
campaign). Once the rows are written, each model whose position was the log's end just before
them takes the campaign's documents and moves past the rows in one transaction
(``ViewStore.adopt``); a model standing elsewhere (behind, in an older format, moved by another
process meanwhile) takes nothing and catches up by itself on its next read, as before. So does
every model when the records cannot be taken as rulings (a file whose first line is not its
campaign's creation), and a model a ruling does not apply to (its next read says why).

The campaign's documents are its own (every read model keys them by the campaign's id): built
from nothing here, they are what a catch-up over the imported rows writes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from domain.events import RulingMade
from engine.audit.models import ScratchModel
from engine.reads.models import SQLiteViews, ViewStore, complete
from engine.store.records import Recorded

if TYPE_CHECKING:
    from engine.reads.models import ReadModels
    from projections.documents import ReadModel

NOT_KEPT = ("PRAGMA synchronous=OFF", "PRAGMA journal_mode=MEMORY")
FLUSH = 10_000  # events whose documents are held before they are written to the scratch
PAGE = 100  # documents copied at once (some hold a page of a long session's rulings)
LOOSE = 10_000  # records held waiting for their ruling to be whole: past this, models are left


class ImportModels:
    """Every read model of the store, computed over one import's records (``add``)."""

    def __init__(self, folder: Path, models: Sequence[ReadModel]) -> None:
        self.scratch: SQLiteViews | None = SQLiteViews(str(folder / "models.db"))
        for pragma in NOT_KEPT:  # a file nobody keeps: its commits need not reach the disk
            self.scratch.connection.execute(pragma)
        self.computed = [ScratchModel(model, 0, self.scratch, FLUSH) for model in models]
        self.group: list[Recorded] = []
        self.count = 0  # records taken: the scratch's positions
        self.started = False
        self.registration: Recorded | None = None

    def start(self, registration: Recorded | None) -> None:
        """The campaign's directory entry, its first record; None: the models are left."""
        if registration is None:
            self.leave()
        else:
            self.started = True
            self.registration = registration
            self.add(registration)

    def add(self, record: Recorded) -> None:
        if not self.computed:
            return
        group = self.group
        group.append(record)
        self.count += 1
        if complete(group):
            header = next(r for r in group if isinstance(r.event, RulingMade))
            if not _listed(header, group[1:] if group[0] is self.registration else group):
                self.leave()  # not whole rulings: what a catch-up makes of them, it says itself
                return
            for model in self.computed:
                model.apply(self.count, header, group)
            self.group = []
        elif len(group) > LOOSE:
            self.leave()

    def leave(self) -> None:
        """Compute no read model: each catches up by itself."""
        self.computed = []
        self.group = []

    def caught_up(self, read_models: ReadModels) -> None:
        """Each model computed, caught up with the log as it stands before the import (what its
        next read would do): so it stands where the imported rows begin."""
        if self.group or not self.started:
            self.leave()  # the log would not end on a whole ruling: catching up says why
        for model in self.computed:
            if model.failed is None:
                read_models.catch_up(model.model)

    def adopt(self, views: ViewStore, first: int, last: int) -> list[str]:
        """Hand each model computed to ``views`` for the rows written at notification ids
        ``first`` to ``last``; returns the names of those taken."""
        if self.group or not self.started or first <= 0:
            return []  # the log does not end on a whole ruling: catching up says why
        taken = []
        for model in self.computed:
            if model.failed is not None:
                continue
            model.flush(self.count)
            name = model.model.name
            at = (first - 1, model.model.version)
            assert self.scratch is not None
            if views.adopt(name, at, last, documents(self.scratch, name)):
                taken.append(name)
        return taken

    def close(self) -> None:
        scratch, self.scratch = self.scratch, None
        if scratch is not None:
            scratch.close()


def _listed(header: Recorded, records: Sequence[Recorded]) -> bool:
    """Whether every record of a ruling taken whole is one its header lists (a file whose lines
    were moved can hold as many rows as the header lists, but others)."""
    made = header.event
    assert isinstance(made, RulingMade)
    spans = made.touched
    return all(
        record is header
        or any(
            s.stream == record.originator_id and s.first <= record.originator_version <= s.last
            for s in spans
        )
        for record in records
    )


def documents(scratch: SQLiteViews, name: str) -> Iterator[tuple[str, str]]:
    """A model's documents computed into ``scratch`` (JSON, by key), ``PAGE`` read at a time."""
    after = ""
    while True:
        page = scratch.listed(name, after, PAGE)
        yield from page
        if len(page) < PAGE:
            return
        after = page[-1][0]
