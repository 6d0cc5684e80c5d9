"""Sims events and characters in storage (events.py, character.py): each comes back equal and
typed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.events import Event
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import Attack
from engine import Engine
from engine.store.mapper import EventMapper, SnapshotMapper
from engine.store.records import Snapshot
from tests.conftest import FROZEN_AT
from tests.golden.test_sims import run
from tests.unit.sims.conftest import who
from tests.unit.test_mapper import recorded, typed

SIMS_EVENTS = sorted(
    (
        value
        for value in vars(ev).values()
        if isinstance(value, type) and issubclass(value, Event) and value.__module__ == ev.__name__
    ),
    key=lambda cls: cls.__name__,
)


@pytest.mark.parametrize("cls", SIMS_EVENTS, ids=lambda cls: cls.__name__)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_every_sims_event_round_trips_through_the_mapper(
    cls: type[Event], data: st.DataObject
) -> None:
    """Every Sims event comes back from storage equal and typed (nested values included)."""
    record = data.draw(recorded(typed(cls)))
    mapper = EventMapper()
    assert record == mapper.to_domain_event(mapper.to_stored_event(record))


def test_a_character_with_a_tie_and_pending_ranks_snapshots(game: Engine) -> None:
    """A sheet holding a tied attack (a nested event) round-trips as a snapshot."""
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    state = who(game, "Neo")
    assert 1 == len(state.ties)
    snapshot = Snapshot(
        originator_id=state.id, originator_version=7, timestamp=FROZEN_AT, state=state
    )
    mapper = SnapshotMapper()
    assert snapshot == mapper.to_domain_event(mapper.to_stored_event(snapshot))
