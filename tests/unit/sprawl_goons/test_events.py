"""Sprawl Goons events in storage (events.py): each comes back equal and typed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.events import Event
from domain.rulesets.sprawl_goons import events as sg
from engine.store.mapper import EventMapper
from tests.unit.test_mapper import recorded, typed

EVENT_CLASSES = sorted(
    (
        v
        for v in vars(sg).values()
        if isinstance(v, type) and issubclass(v, Event) and v.__module__ == sg.__name__
    ),
    key=lambda cls: cls.__name__,
)


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_every_sprawl_goons_event_round_trips(cls: type[Event], data: st.DataObject) -> None:
    """Each event is stored and loaded back equal and typed."""
    record = data.draw(recorded(typed(cls)))
    mapper = EventMapper()
    loaded = mapper.to_domain_event(mapper.to_stored_event(record))
    assert record == loaded
