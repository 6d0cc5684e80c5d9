"""The log of one session (or of some rulings) is the whole log's entries of that session (of
those rulings): their events, undos and amendments (made in whatever session) included, after
any history."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.lifecycle import AddNote, EndSession, StartSession
from engine import Engine
from tests.integration.test_replay import moves, played


@settings(max_examples=40, deadline=None)
@given(history=moves)
def test_a_session_s_log_is_the_whole_log_s_entries_of_that_session(
    history: list[tuple[Any, ...]],
) -> None:
    with played(history) as engine:
        whole = engine.log("Lab", audience=GMS)
        for session in {entry.header.session for entry in whole} - {None}:
            expected = [entry for entry in whole if entry.header.session == session]
            assert expected == engine.log("Lab", session=session, audience=GMS)


@settings(max_examples=20, deadline=None)
@given(history=moves, pick=st.sets(st.integers(1, 40)))
def test_the_log_of_some_rulings_is_the_whole_log_s_entries_of_them(
    history: list[tuple[Any, ...]], pick: set[int]
) -> None:
    with played(history) as engine:
        expected = [
            entry for entry in engine.log("Lab", audience=GMS) if entry.ruling.number in pick
        ]
        assert expected == engine.log("Lab", rulings=pick, audience=GMS)


def test_amendments_shown_in_the_order_made_when_only_the_later_one_is_picked(
    engine: Engine,
) -> None:
    """A note amended by ruling 3 and again by ruling 4: the log of rulings 2 and 4 lists both
    amendments of 2 in the order they were made, as the whole log does (3 read, not shown)."""
    engine.create_campaign("Lab", "code-green")
    engine.execute("Lab", AddNote(text="the door is locked"))
    engine.amend("Lab", 2, {"text": "the door is barred"}, reason="misheard")
    engine.amend("Lab", 2, {"text": "the door is open"}, reason="misheard again")
    expected = [entry for entry in engine.log("Lab", audience=GMS) if entry.ruling.number in (2, 4)]
    assert [3, 4] == [a.by for a in expected[0].amendments]
    assert expected == engine.log("Lab", rulings={4, 2}, audience=GMS)


def test_the_latest_session_is_the_latest_any_ruling_was_recorded_in(engine: Engine) -> None:
    """A session whose start was undone is still the one `replay` shows by default: it is the
    latest session any ruling was recorded in."""
    engine.create_campaign("Lab", "code-green")
    engine.execute("Lab", StartSession())
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    engine.undo("Lab", reason="not tonight")
    latest = max(h.session for h in engine.headers("Lab", audience=GMS) if h.session)
    assert latest > engine.campaign("Lab").sessions
    chosen = engine.session_rulings("Lab", audience=GMS)
    assert chosen == engine.log("Lab", session=latest, audience=GMS)
    assert {entry.header.session for entry in chosen} == {latest}
