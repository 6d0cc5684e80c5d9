"""The commands that walk a whole campaign read and write it a page at a time: `verify`,
`export`, `import` and a read model's rebuild never ask the store for more rows at once than a
page, however long the campaign, and give what they gave reading it whole."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.sqlite import SQLiteApplicationRecorder

from bench import dataset
from domain.audience import GMS
from engine import Engine
from engine.audit import models as audit_models
from engine.audit import replay as audit_replay
from engine.audit import rows as audit_rows
from engine.audit.models import Recompute
from engine.reads import models as readmodels
from engine.reads.models import SQLiteViews
from engine.reads.recaps import MODELS, RECAPS
from engine.store.recorders import BulkSQLiteRecorder
from engine.transfer import scratch as import_scratch

RULINGS = 1500  # 3,000 events and more: many pages of 100


@pytest.fixture(scope="module")
def long_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Sprawl Goons campaign of a few thousand events, built as the bench builds them."""
    db = tmp_path_factory.mktemp("streaming") / "long.db"
    dataset.build(db, RULINGS)
    return db


class Reads:
    """How many rows each read of the store's events gave back, and the largest."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.written: list[int] = []

    @property
    def most(self) -> int:
        return max(self.sizes, default=0)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Reads:
    """Every SQLite read of events or notifications counted, and every page an import writes."""
    seen = Reads()
    select_events = BulkSQLiteRecorder.select_events
    select_notifications = SQLiteApplicationRecorder.select_notifications
    insert_pages = BulkSQLiteRecorder.insert_pages

    def events(self: Any, *args: Any, **kwargs: Any) -> Any:
        found = select_events(self, *args, **kwargs)
        seen.sizes.append(len(found))
        return found

    def notifications(self: Any, *args: Any, **kwargs: Any) -> Any:
        found = select_notifications(self, *args, **kwargs)
        seen.sizes.append(len(found))
        return found

    def pages(self: Any, given: Any) -> Any:
        def counted() -> Iterator[Any]:
            for page in given:
                seen.written.append(len(page))
                yield page

        return insert_pages(self, counted())

    monkeypatch.setattr(BulkSQLiteRecorder, "select_events", events)
    monkeypatch.setattr(SQLiteApplicationRecorder, "select_notifications", notifications)
    monkeypatch.setattr(BulkSQLiteRecorder, "insert_pages", pages)
    return seen


def small_pages(monkeypatch: pytest.MonkeyPatch, page: int = 100) -> None:
    monkeypatch.setattr(audit_rows, "PAGE", page)
    monkeypatch.setattr(import_scratch, "PAGE", page)
    monkeypatch.setattr(audit_replay, "CHECKPOINT", page)
    monkeypatch.setattr(audit_rows.StoreRows.__init__, "__defaults__", (page,))
    monkeypatch.setattr(import_scratch.Scratch.__init__, "__defaults__", (page,))


def test_verify_reads_a_page_at_a_time(
    long_store: Path, reads: Reads, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`verify` of a campaign 30 pages long reads no more than a page of rows at once, folds
    no more than a checkpoint's records at once, and reports what it reports reading in
    pages of a thousand."""
    with Engine(str(long_store)) as engine:
        whole = engine.verify(dataset.NAME)
        small_pages(monkeypatch)
        held: list[int] = []
        close = audit_replay.Folding.close

        def watched(self: audit_replay.Folding, target: int) -> Any:
            held.append(len(self.chunk))
            return close(self, target)

        monkeypatch.setattr(audit_replay.Folding, "close", watched)
        reads.sizes.clear()
        paged = engine.verify(dataset.NAME)

    assert whole == paged
    assert paged.intact
    assert paged.events > 30 * 100
    assert 100 == reads.most
    assert 0 < max(held) <= 100


def test_verify_computes_the_read_models_again_a_page_at_a_time(
    long_store: Path, reads: Reads, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With every read model kept, `verify` reads no more than a page of rows or of documents
    at once, hands the read models one ruling's records at a time, writes what it computes to
    its scratch a batch at a time, and reports what it reports reading in pages of a thousand."""
    db = tmp_path / "kept.db"
    with sqlite3.connect(long_store) as source, sqlite3.connect(db) as target:
        source.backup(target)
    listed: list[int] = []
    held: list[int] = []
    written: list[int] = []
    with Engine(str(db)) as engine:
        for model in MODELS:
            engine.catch_up(model)
        whole = engine.verify(dataset.NAME)
        small_pages(monkeypatch)
        monkeypatch.setattr(audit_models, "FLUSH", 100)
        documents, ruling, commit = SQLiteViews.listed, Recompute.ruling, SQLiteViews.commit

        def paged_documents(self: Any, name: str, after: str, limit: int) -> Any:
            found = documents(self, name, after, limit)
            listed.append(len(found))
            return found

        def one_ruling(self: Recompute, last_id: int, records: Any) -> None:
            held.append(len(records))
            ruling(self, last_id, records)

        def batch(self: Any, name: str, expected: int, position: int, writes: Any) -> bool:
            written.append(len(writes))  # verify commits to its scratch only
            return bool(commit(self, name, expected, position, writes))

        monkeypatch.setattr(SQLiteViews, "listed", paged_documents)
        monkeypatch.setattr(Recompute, "ruling", one_ruling)
        monkeypatch.setattr(SQLiteViews, "commit", batch)
        reads.sizes.clear()
        paged = engine.verify(dataset.NAME)

    assert whole == paged
    assert (True, tuple(MODELS)) == (paged.intact, paged.models)
    assert 100 == reads.most
    assert 100 == max(listed)
    assert (8, 2) == (
        max(held),
        held[-1],
    )  # the seed's rulings (a creation seats its player), then a header and a roll each
    assert len(written) > 4 * 30
    assert 0 < max(written) <= 100


def test_export_reads_a_page_at_a_time(
    long_store: Path, reads: Reads, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`export` writes the same lines reading no more than a page of rows at once."""
    with Engine(str(long_store)) as engine:
        whole = list(engine.export(dataset.NAME, audience=GMS))
        small_pages(monkeypatch)
        monkeypatch.setattr("engine.transfer.export_import.PAGE", 100)
        reads.sizes.clear()
        paged = list(engine.export(dataset.NAME, audience=GMS))

    assert whole == paged
    assert 100 == reads.most


def test_import_reads_and_writes_a_page_at_a_time(
    long_store: Path, reads: Reads, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`import` of a long export holds a page of its rows at a time: it reads the scratch
    store in pages, and SQLite copies the rows from there into the store (none passes through
    Python, where a PostgreSQL store takes them in pages), all in one transaction, to a copy
    that verifies with the same digest."""
    with Engine(str(long_store)) as engine:
        lines = list(engine.export(dataset.NAME, audience=GMS))
        digest = engine.verify(dataset.NAME).digest
    small_pages(monkeypatch)
    reads.sizes.clear()
    with Engine(str(tmp_path / "copy.db")) as copy:
        imported = copy.import_campaign(iter(lines))
        assert 100 == reads.most
        assert len(lines) - 1 == imported.events
        assert [] == reads.written
        assert digest == copy.verify(dataset.NAME).digest


def test_a_refused_import_leaves_no_scratch_behind(
    long_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file refused after its rows went to the scratch store leaves the store as it was and
    no scratch folder."""
    with Engine(str(long_store)) as engine:
        lines = list(engine.export(dataset.NAME, audience=GMS))
    lines[-1] = lines[-1].replace('"version":', '"version": 1, "x":', 1)
    folders: list[Path] = []
    made = import_scratch.tempfile.mkdtemp

    def mkdtemp(**kwargs: Any) -> str:
        folders.append(Path(made(**kwargs)))
        return str(folders[-1])

    monkeypatch.setattr(import_scratch.tempfile, "mkdtemp", mkdtemp)
    with Engine(str(tmp_path / "copy.db")) as copy:
        with pytest.raises(Exception, match="nothing was imported"):
            copy.import_campaign(lines)
        assert [] == copy.store.recorder.select_notifications(start=1, limit=10)
    assert folders
    assert not any(folder.exists() for folder in folders)


def test_rebuild_reads_a_batch_at_a_time(
    long_store: Path, reads: Reads, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read model's rebuild over the whole log reads no more notifications at once than a
    batch, and commits a batch's documents at a time."""
    commits: list[int] = []
    with Engine(str(long_store)) as engine:
        views = engine.read_models.views
        commit = type(views).commit

        def counted(self: Any, name: str, expected: int, position: int, writes: Any) -> bool:
            commits.append(position - expected)
            return bool(commit(self, name, expected, position, writes))

        monkeypatch.setattr(type(views), "commit", counted)
        reads.sizes.clear()
        processed = engine.read_models.rebuild(RECAPS)

    assert processed > 6 * readmodels.BATCH
    assert 0 < reads.most <= readmodels.BATCH
    assert len(commits) > 6
    assert max(commits) <= readmodels.BATCH + 2  # a batch ends with a whole ruling
