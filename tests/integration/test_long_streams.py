"""A history longer than a page is loaded page by page, to the same state as in one read."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.audience import GMS
from engine import Engine
from engine.store import streams
from engine.transfer import export_import as transfer
from engine.write import ledger
from tests.integration.scenes import TEST, evolver_for, play_scene, replay_from_scratch, stream_ids


def loaded(engine: Engine) -> dict[UUID, tuple[Any, int]]:
    """Every stream of the campaign as ``Streams.load`` returns it: state and version."""
    out = {}
    for stream in stream_ids(engine):
        result = engine.streams.load(stream, evolver_for(engine, stream))
        out[stream] = (result.state, result.version)
    return out


@pytest.mark.parametrize("page", [1, 2])
@pytest.mark.parametrize("interval", [3, 100], ids=["snapshots-every-3", "no-snapshot-reached"])
def test_small_pages_load_what_one_read_loads(
    any_engine: Engine, monkeypatch: pytest.MonkeyPatch, interval: int, page: int
) -> None:
    """Across undos that reach back past snapshots, small pages give every stream the state and
    version of a single read, and the state of a replay from scratch."""
    monkeypatch.setattr(ledger, "SNAPSHOT_INTERVAL", interval)
    play_scene(any_engine)
    any_engine.undo("Lab", reason="the scene goes on")
    any_engine.undo("Lab", TEST, with_dependents=True, reason="no test after all")
    expected = loaded(any_engine)

    monkeypatch.setattr(streams, "PAGE", page)
    actual = loaded(any_engine)

    assert expected == actual
    assert {s: replay_from_scratch(any_engine, s) for s in expected} == {
        s: state for s, (state, _) in actual.items()
    }


def test_a_page_boundary_at_the_last_event_keeps_the_version(
    any_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the history fills whole pages exactly, the loaded version is still the last one."""
    play_scene(any_engine)
    campaign = any_engine.campaign("Lab").id
    version = any_engine.streams.last_version(campaign)
    monkeypatch.setattr(streams, "PAGE", 1)

    assert version == any_engine.streams.load(campaign, evolver_for(any_engine, campaign)).version


# --- A stale snapshot is renewed by the load that paid for it -----------------------------------


def counting(evolve: Any) -> tuple[Any, list[int]]:
    """``evolve`` that counts the events it folds."""
    count = [0]

    def wrapped(event: Any, state: Any) -> Any:
        count[0] += 1
        return evolve(event, state)

    return wrapped, count


@pytest.mark.parametrize("page", [1, 1000], ids=["paged", "one-read"])
def test_a_load_far_past_its_snapshot_leaves_one_at_the_head(
    any_engine: Engine, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    """A stream with no snapshot (imported by a version that wrote none: the import's own are
    left out here): the first load of each stream folds its whole history and leaves a snapshot
    at its head, so the next load folds nothing, to the same state."""
    monkeypatch.setattr(transfer, "_keep_heads", lambda *_: None)
    monkeypatch.setattr(streams, "STALE", 2)
    monkeypatch.setattr(streams, "PAGE", page)
    with Engine() as source:
        play_scene(source)
        any_engine.import_campaign(list(source.export("Lab", audience=GMS)))
        ids = stream_ids(source)[1:]  # the campaign and its characters (the directory: 1 event)
    for stream in ids:
        evolve, folded = counting(evolver_for(any_engine, stream))
        first = any_engine.streams.load(stream, evolve)
        assert folded[0] == first.version > 2
        evolve, folded = counting(evolver_for(any_engine, stream))
        assert first == any_engine.streams.load(stream, evolve)
        assert folded[0] == 0


def test_a_load_back_in_time_leaves_no_snapshot(
    any_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a load of the head renews the snapshot: a load as of an earlier version does not."""
    monkeypatch.setattr(ledger, "SNAPSHOT_INTERVAL", 1000)
    play_scene(any_engine)  # no snapshot written
    monkeypatch.setattr(streams, "STALE", 2)
    campaign = any_engine.campaign("Lab").id
    evolve = evolver_for(any_engine, campaign)
    head = any_engine.streams.last_version(campaign)
    any_engine.streams.load(campaign, evolve, lte=head - 1)
    again, folded = counting(evolve)
    any_engine.streams.load(campaign, again, lte=head - 1)
    assert folded[0] == head - 1
