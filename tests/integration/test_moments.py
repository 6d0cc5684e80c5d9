"""Time travel to any moment a front end can hand over (``ruling_at(time=...)``): years 1 to 9999,
with or without an offset, in any local time zone. Each is answered with the last ruling at or
before it, or refused ``NO_SUCH_POINT`` when it comes before the first; never a traceback. A
moment without an offset is read in local time, even within a day of the calendar's ends, where
the library cannot convert it (year 1 local time east of UTC would be year 0 in UTC)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.lifecycle import AddNote
from engine import Engine
from engine.reads.timeline import NoSuchPoint
from tests.conftest import FROZEN_AT, local_time_zone

# Zones far from UTC either way, and whose year-1 offset (local mean time) is not whole minutes.
ZONES = ["UTC", "Asia/Tokyo", "America/Los_Angeles", "Pacific/Kiritimati", "Etc/GMT+12"]
EDGES = [
    datetime(1, 1, 1),
    datetime(1, 1, 1, 23, 59, 59),
    datetime(9999, 12, 31),
    datetime(9999, 12, 31, 23, 59, 59, 999999),
    datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=23, minutes=59))),
    datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone(-timedelta(hours=23, minutes=59))),
]
LAST = 4  # the rulings of the campaign below: created, then three notes a day apart


@pytest.fixture(params=ZONES)
def local_zone(request: pytest.FixtureRequest) -> Iterator[str]:
    """The process's local time zone for one test, restored after it."""
    with local_time_zone(request.param):
        yield request.param


@pytest.fixture(scope="module")
def noted() -> Iterator[Engine]:
    """A campaign whose rulings were made on four days from ``FROZEN_AT``."""
    with Engine() as engine:
        with freeze_time(FROZEN_AT):
            engine.create_campaign("Lab", "code-green", gm="Rosa")
        for day in (1, 2, 3):
            with freeze_time(FROZEN_AT + timedelta(days=day)):
                engine.execute("Lab", AddNote(text=f"day {day}"))
        yield engine


def answer(engine: Engine, moment: datetime) -> int | None:
    """The ruling in force at ``moment``; None when the log has none that early."""
    try:
        return engine.ruling_at("Lab", time=moment)
    except NoSuchPoint:
        return None


@pytest.mark.parametrize("moment", EDGES, ids=lambda m: m.isoformat())
def test_the_calendars_ends_are_answered_in_every_zone(
    noted: Engine, local_zone: str, moment: datetime
) -> None:
    expected = None if moment.year == 1 else LAST
    assert expected == answer(noted, moment), local_zone


def test_the_calendars_ends_are_answered_under_a_frozen_clock(
    noted: Engine, local_zone: str
) -> None:
    """freezegun's datetime converts local time its own way (dateutil's zone): the same answers."""
    with freeze_time(FROZEN_AT + timedelta(days=9)):
        assert [None, None, LAST, LAST] == [answer(noted, m) for m in EDGES[:4]]


def test_a_moment_without_an_offset_is_local_time(noted: Engine, local_zone: str) -> None:
    """The first note, as the clock on the wall showed it, and a second before it."""
    first_note = (FROZEN_AT + timedelta(days=1)).astimezone().replace(tzinfo=None)
    assert 2 == answer(noted, first_note)
    assert 1 == answer(noted, first_note - timedelta(seconds=1))


moments = st.datetimes(
    timezones=st.none()
    | st.timedeltas(-timedelta(hours=23, minutes=59), timedelta(hours=23, minutes=59)).map(timezone)
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moment=moments)
def test_any_moment_is_answered(noted: Engine, moment: datetime) -> None:
    """Any moment gives a ruling of the log or ``NO_SUCH_POINT``: with an offset, exactly the
    last ruling made at or before it."""
    found = answer(noted, moment)
    assert found is None or 1 <= found <= LAST
    if moment.tzinfo is not None:
        made = [FROZEN_AT + timedelta(days=day) for day in range(LAST)]
        assert (sum(t <= moment for t in made) or None) == found
