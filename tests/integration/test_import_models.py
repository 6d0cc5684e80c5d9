"""An import leaves the campaign ready to read: its read models built (the documents a rebuild
from the log gives) and a snapshot at each stream's head; a refused file leaves neither."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.audience import GMS
from engine import Engine
from engine.reads.recaps import models
from engine.transfer import models_child, scratch
from tests.integration.test_transfer import played
from tests.postgres import fresh_schema


def documents(engine: Engine) -> dict[str, list[tuple[str, str]]]:
    """Every read model's documents as the store keeps them, by model, in key order."""
    views = engine.read_models.views
    found: dict[str, list[tuple[str, str]]] = {}
    for name in models():
        rows, after = [], ""
        while page := views.listed(name, after, 500):
            rows += page
            after = page[-1][0]
        found[name] = [(key, json.loads(body)) for key, body in rows]
    return found


def positions(engine: Engine) -> dict[str, tuple[int, int] | None]:
    return {name: engine.read_models.views.tracking(name) for name in models()}


@pytest.fixture(params=["here", "child"])
def computed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Where an import computes its read models: in its own process, or (a large file) in a
    child process reading the scratch store as its pages are written (made small here, so
    that the child is told of several pages)."""
    if request.param == "child":
        monkeypatch.setattr(models_child, "CHILD_FROM", 0)
        monkeypatch.setattr(scratch, "PAGE", 7)
    return str(request.param)


@pytest.fixture
def lines(frozen: None) -> list[str]:
    with Engine() as engine:
        return played(engine)


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path, frozen: None) -> Iterator[Engine]:
    if request.param == "postgresql":
        with fresh_schema() as url, Engine(url) as engine:
            yield engine
    else:
        db = ":memory:" if request.param == "memory" else str(tmp_path / "copy.db")
        with Engine(db) as engine:
            yield engine


@pytest.mark.parametrize("other", [False, True])
def test_read_models_are_built_by_the_import_as_a_rebuild_gives_them(
    target: Engine, lines: list[str], other: bool, computed: str
) -> None:
    """Right after the import, before any read: every read model stands at the log's end and
    holds what rebuilding it from the whole log gives. ``other``: into a store that holds
    another campaign whose read models were never read."""
    if other:
        target.create_campaign("Other", "code-green", gm="Sam")
    target.import_campaign(lines)
    end = target.store.recorder.max_notification_id()
    built = documents(target)
    assert {name: (end, model.version) for name, model in models().items()} == positions(target)
    for name in models():
        target.rebuild(name)
    assert documents(target) == built
    assert any(built[name] for name in ("recaps", "index", "dice"))


def test_every_stream_is_left_a_snapshot_at_its_head(target: Engine, lines: list[str]) -> None:
    target.import_campaign(lines)
    campaign = target.campaign("Lab")
    for stream in [campaign.id, *(entry.character_id for entry in campaign.roster)]:
        snapshot = target.streams._snapshot(stream, None)  # trusted: its link holds
        assert snapshot is not None
        assert target.streams.last_version(stream) == snapshot.originator_version


def test_a_refused_file_leaves_no_read_model_and_no_snapshot(
    tmp_path: Path, lines: list[str], computed: str
) -> None:
    """The last line's link broken: refused after every line was read and computed."""
    last = json.loads(lines[-1])
    last["event"]["chain"] = "0" * 64
    db = tmp_path / "copy.db"
    with Engine(str(db)) as copy, pytest.raises(Exception, match="nothing was imported"):
        copy.import_campaign([*lines[:-1], json.dumps(last)])
    with sqlite3.connect(db) as raw:
        tables = {name for (name,) in raw.execute("SELECT name FROM sqlite_master")}
        counted = {
            table: raw.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("stored_events", "snapshots", "readmodel_documents", "readmodel_tracking")
            if table in tables
        }
    assert set(counted.values()) <= {0}


def test_a_child_that_fails_leaves_the_models_to_catch_up_by_themselves(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child process cannot run (here: it is not Python): the import holds all the same,
    no read model is adopted, and each catches up on its next read to what a rebuild gives."""
    monkeypatch.setattr(models_child, "CHILD_FROM", 0)
    monkeypatch.setattr(models_child.sys, "executable", "/bin/false")
    with Engine(str(tmp_path / "copy.db")) as copy:
        copy.import_campaign(lines)
        end = copy.store.recorder.max_notification_id()
        assert all(at is None or at[0] < end for at in positions(copy).values())
        copy.recap("Lab", None, audience=GMS)
        for model in models().values():
            copy.read_models.catch_up(model)
        caught = documents(copy)
        for name in models():
            copy.rebuild(name)
        assert documents(copy) == caught


def test_a_large_file_computes_its_models_in_a_child_on_a_machine_of_two_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert models_child.wanted(models_child.CHILD_FROM)
    assert not models_child.wanted(models_child.CHILD_FROM - 1)
    monkeypatch.setattr(models_child.os, "cpu_count", lambda: 1)
    assert not models_child.wanted(10 * models_child.CHILD_FROM)


def test_a_child_that_cannot_start_leaves_the_models_to_the_import_itself(
    tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No Python to start a child with: the import computes its read models itself, and they
    stand at the log's end as a rebuild gives them."""
    monkeypatch.setattr(models_child, "CHILD_FROM", 0)
    monkeypatch.setattr(models_child.sys, "executable", str(tmp_path / "no-python"))
    with Engine(str(tmp_path / "copy.db")) as copy:
        copy.import_campaign(lines)
        end = copy.store.recorder.max_notification_id()
        assert {name: (end, model.version) for name, model in models().items()} == positions(copy)
        built = documents(copy)
        for name in models():
            copy.rebuild(name)
        assert documents(copy) == built
