"""A store written by version 0.1.0 (``tests/fixtures/store-0.1.0.db``) opens with the newest
code: the sheets rebuild, the chains verify, and an upcaster brings a changed event up to date."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, ClassVar

import eventsourcing.utils
import pytest
from attrs import frozen
from eventsourcing.utils import get_topic

from domain.audience import GMS
from domain.events import NoteAdded
from domain.lifecycle import AddNote
from engine import Engine
from tests.stores import no_wait, replays_from_scratch

FIXTURE = Path(__file__).parents[1] / "fixtures" / "store-0.1.0.db"
CAMPAIGNS = ["Night Shift", "Rain City", "Docklands", "Bar Fight"]


@pytest.fixture
def old_store(tmp_path: Path) -> str:
    """A copy of the fixture (opening a store may write beside it)."""
    copy = tmp_path / "campaign.db"
    shutil.copy(FIXTURE, copy)
    return str(copy)


def test_the_old_store_lists_its_campaigns_and_verifies(old_store: str) -> None:
    """Four campaigns, one per system; every chain and seal holds and every stream replays."""
    with Engine(old_store, backoff=no_wait) as engine:
        assert CAMPAIGNS == [c.name for c in engine.directory().campaigns]
        assert [True] * 4 == [engine.verify(name).intact for name in CAMPAIGNS]
        assert [True] * 4 == [replays_from_scratch(engine, name) for name in CAMPAIGNS]


def test_the_old_store_rebuilds_the_sheets(old_store: str) -> None:
    """Each system's sheet comes back as 0.1.0 recorded it."""
    with Engine(old_store, backoff=no_wait) as engine:
        alice = engine.character("Night Shift", "alice", audience=GMS)
        hawk = engine.character("Rain City", "The Hawk", audience=GMS)
        tanner = engine.character("Docklands", "Tanner", audience=GMS)
        kristov = engine.character("Bar Fight", "Kristov", audience=GMS)
        docklands = engine.campaign("Docklands")
    assert ("31415", 1, False) == (alice.name, alice.tests, alice.placed)
    assert (3, 5, 2, 5) == (hawk.motivation, hawk.reward_points, hawk.exposure, hawk.popularity)
    assert ["physical-description"] == [r.detail.value for r in hawk.revealed]
    assert (80, ["Katana", "Kevlar jacket", "Lazarus Patches"]) == (
        tanner.cash,
        [item.name for item in tanner.items],
    )
    assert frozenset({5}) == docklands.retracted  # the wrong note, undone
    assert [("Dirty Fighter", "Good"), ("Brawler", "Good"), ("Rockstar", "Average")] == [
        (q.name, q.base.value) for q in kristov.qualities
    ]


@frozen(kw_only=True)
class NoteAddedV2(NoteAdded):
    """``NoteAdded`` as a later version might record it: with the note's author."""

    class_version: ClassVar[int] = 2
    author: str

    @staticmethod
    def upcast_v1_v2(payload: dict[str, Any]) -> None:
        payload["author"] = "unknown (recorded before notes had authors)"


def test_an_upcaster_brings_old_notes_up_to_the_new_version(
    old_store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With NoteAdded changed to version 2, the old notes load upcast, the campaign replays,
    the stored bytes still verify, and new rulings append after them."""
    monkeypatch.setitem(eventsourcing.utils._topic_cache, get_topic(NoteAdded), NoteAddedV2)
    with Engine(old_store, backoff=no_wait) as engine:
        notes = [
            event.event
            for entry in engine.log("Night Shift", audience=GMS)
            for event in entry.events
            if isinstance(event.event, NoteAdded)
        ]
        engine.execute("Night Shift", AddNote(text="read back under the new schema"))
        assert [("the guard was asleep", "unknown (recorded before notes had authors)")] == [
            (note.text, note.author) for note in notes if isinstance(note, NoteAddedV2)
        ]
        assert 12 == engine.campaign("Night Shift").rulings
        assert engine.verify("Night Shift").intact
        assert replays_from_scratch(engine, "Night Shift")


def test_the_old_stores_rulings_can_be_amended_and_undone(old_store: str) -> None:
    """Corrections work on rulings 0.1.0 recorded: an amended price, an undone solve (the hero
    as before it), an undone note under a sealed session (its scene end and session end decided
    again and standing); every chain still holds and every stream replays."""
    with Engine(old_store, backoff=no_wait) as engine:
        engine.amend("Docklands", 4, {"delta": "-60"}, reason="the medkit cost 60")
        before_solve = engine.character_at("Rain City", "The Hawk", ruling=3, audience=GMS)
        engine.undo("Rain City", 4, reason="no park that night", redecide=True)
        engine.undo("Night Shift", 9, reason="a note for another table")

        assert 60 == engine.character("Docklands", "Tanner", audience=GMS).cash
        assert before_solve == engine.character("Rain City", "The Hawk", audience=GMS)
        assert frozenset({9}) == engine.campaign("Night Shift").retracted
        assert [True] * 4 == [engine.verify(name).intact for name in CAMPAIGNS]
        assert [True] * 4 == [replays_from_scratch(engine, name) for name in CAMPAIGNS]
