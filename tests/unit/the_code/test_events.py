"""The Code's events in storage (events.py): each comes back equal and typed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.events import Event
from domain.rulesets.the_code import events as tc
from engine.store.mapper import EventMapper
from tests.unit.test_mapper import recorded, typed

TC_EVENTS = sorted(
    (
        value
        for value in vars(tc).values()
        if isinstance(value, type) and issubclass(value, Event) and value.__module__ == tc.__name__
    ),
    key=lambda cls: cls.__name__,
)


@pytest.mark.parametrize("cls", TC_EVENTS, ids=lambda cls: cls.__name__)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_every_event_round_trips_through_the_mapper(cls: type[Event], data: st.DataObject) -> None:
    """Each of The Code's events comes back from the store equal and typed."""
    record = data.draw(recorded(typed(cls)))
    mapper = EventMapper()
    assert record == mapper.to_domain_event(mapper.to_stored_event(record))
