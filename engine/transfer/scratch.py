"""Where an import keeps the rows of the file it checks: a SQLite store of its own in a scratch
folder, written a page at a time as the lines are read, so that the checks read it back a page at
a time (``engine.audit.rows.StoreRows``) and nothing holds the whole campaign. The rows are copied
into the real store only once everything held (``pages``), and the scratch store is removed
whatever happens.

A row's line in the file is found again from its place in the scratch store: the n-th row read
is its n-th notification, and the file's blank lines only move the lines after them."""

from __future__ import annotations

import shutil
import tempfile
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import cast
from uuid import UUID

from eventsourcing.persistence import Notification, StoredEvent

from engine.audit.rows import PAGE, Rows, StoreRows
from engine.store.campaign_store import CampaignStore, environment_for
from engine.store.recorders import BulkSQLiteRecorder, stream_id


class Scratch:
    """A scratch store for one import's rows (a context manager: removed on leaving)."""

    def __init__(self, page: int = 0) -> None:
        self.page = page or PAGE
        self.folder = Path(tempfile.mkdtemp(prefix="campaign-import-"))
        self.path = self.folder / "scratch.db"
        env = environment_for(str(self.path))
        env["PERSISTENCE_MODULE"] = "engine.store.recorders:ScratchSQLiteFactory"  # never kept
        self.store = CampaignStore(env=env)
        self.recorder = cast("BulkSQLiteRecorder", self.store.recorder)
        self.table = self.recorder.events_table_name
        self.written: Callable[[int], None] | None = None  # told how many rows are written
        self.rows = StoreRows(self.recorder, self.page)
        self.streams: dict[UUID, None] = {}  # in the order the file first names them
        self.count = 0
        self._held: list[StoredEvent] = []  # the page not written yet
        self._firsts = array("q")  # the notification where the lines' offset changes
        self._offsets = array("q")  # ... and the offset (line - notification) from there

    def __enter__(self) -> Scratch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def add(self, line: int, row: StoredEvent) -> None:
        self.count += 1
        if not self._offsets or self._offsets[-1] != line - self.count:
            self._firsts.append(self.count)
            self._offsets.append(line - self.count)
        self.streams.setdefault(stream_id(row.originator_id), None)
        self._held.append(row)
        if len(self._held) >= self.page:
            self.flush()

    def flush(self) -> None:
        if self._held:
            self.recorder.insert_events(self._held)
            self._held = []
            if self.written is not None:
                self.written(self.count)

    def read_back(self) -> Rows:
        """The rows read so far, as they are read back while more are being read (what is
        held is written first)."""
        return _ReadBack(self)

    def seen(self, stream: UUID, version: int) -> bool:
        """Whether a row read already is ``stream``'s at ``version``."""
        if any(r.originator_version == version and r.originator_id == stream for r in self._held):
            return True
        return bool(self.recorder.select_events(stream, gt=version - 1, lte=version, limit=1))

    def line(self, stream: UUID, version: int, default: int) -> int:
        """The file's line holding ``stream``'s row at ``version`` (``default``: none does)."""
        self.flush()
        table = self.recorder.events_table_name
        with self.recorder.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT rowid FROM {table} WHERE originator_id=? AND originator_version=?",
                (stream.hex, version),
            )
            found = c.fetchone()
        if found is None:
            return default
        number = int(found[0])
        return number + self._offsets[bisect_right(self._firsts, number) - 1]

    def pages(self) -> Iterator[Sequence[StoredEvent]]:
        """Every row in the order read, a page at a time (read here rather than by the
        recorder's ``select_notifications``: each stream's id parsed once, not once a row)."""
        self.flush()
        table = self.recorder.events_table_name
        statement = (
            "SELECT rowid, originator_id, originator_version, topic, state "
            f"FROM {table} WHERE rowid>=? ORDER BY rowid LIMIT ?"
        )
        ids: dict[str, UUID] = {}
        start = 1
        while True:
            with self.recorder.datastore.transaction(commit=False) as c:
                c.execute(statement, (start, self.page))
                found = c.fetchall()
            page = [
                Notification(
                    id=row[0],
                    originator_id=ids.get(row[1]) or ids.setdefault(row[1], UUID(row[1])),
                    originator_version=row[2],
                    topic=row[3],
                    state=row[4],
                )
                for row in found
            ]
            if page:
                yield page
            if len(page) < self.page:
                return
            start = page[-1].id + 1


class _ReadBack:
    """A scratch store's rows, each read after the rows held are written (``Scratch.read_back``)."""

    def __init__(self, scratch: Scratch) -> None:
        self.scratch = scratch

    def pages(self, stream: UUID, gt: int = 0) -> Iterator[Sequence[StoredEvent]]:
        self.scratch.flush()
        return self.scratch.rows.pages(stream, gt)

    def end(self, stream: UUID) -> int:
        self.scratch.flush()
        return self.scratch.rows.end(stream)

    def picked(
        self, stream: UUID, topics: Sequence[str], gt: int = 0, lte: int | None = None
    ) -> Iterator[StoredEvent]:
        self.scratch.flush()
        return self.scratch.rows.picked(stream, topics, gt, lte)
