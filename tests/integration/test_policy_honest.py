"""An honest log stays intact under verify's check of who could act (issue 43 item 2), however
the table changed under it: any mix of members seated and unseated (as players, observers or
GMs), their posts, notes, disputes and edits of their own words, and the GM's undos (plain,
with dependents, re-decided: a seat undone takes back what its member did) and resolutions,
each command the engine refuses appending nothing. Every ruling the program recorded is one
the table as it stood then allowed, so verify names none; with the states kept for folding and
the records held between them cut to a few, so that the walk lets go of records and folds again
from far back."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.events import Outcome, Role
from domain.lifecycle import AddNote
from domain.posts import WritePost
from domain.table import AddMember, DisputeRuling, RemoveMember
from engine import Engine
from engine.audit import replay
from tests.stores import no_wait

NAME = "Lab"
GM = "Rosa"
PEOPLE = ("ana", "bea", "Sam")

seat = st.tuples(st.just("seat"), st.sampled_from(PEOPLE), st.sampled_from(list(Role)))
unseat = st.tuples(st.just("unseat"), st.sampled_from(PEOPLE))
post = st.tuples(st.just("post"), st.sampled_from((GM, *PEOPLE)))
note = st.tuples(st.just("note"), st.sampled_from((GM, *PEOPLE)), st.booleans())
dispute = st.tuples(st.just("dispute"), st.sampled_from(PEOPLE), st.integers(0, 3))
own = st.tuples(st.just("own words"), st.sampled_from(PEOPLE))
undo = st.tuples(
    st.just("undo"),
    st.sampled_from((GM, *PEOPLE)),
    st.integers(0, 3),
    st.sampled_from(("plain", "with_dependents", "redecide")),
)
resolve = st.tuples(
    st.just("resolve"), st.sampled_from((GM, *PEOPLE)), st.sampled_from(list(Outcome))
)
STEPS = st.lists(st.one_of(seat, unseat, post, note, dispute, own, undo, resolve), max_size=40)


def step(engine: Engine, move: tuple[Any, ...], posts: dict[str, int]) -> None:
    """One move of the table, as its member makes it (the engine may refuse it)."""
    kind, who = move[0], move[1]
    rulings = engine.campaign(NAME).rulings
    if kind == "seat":
        engine.execute(NAME, AddMember(member=who, role=move[2]))
    elif kind == "unseat":
        engine.execute(NAME, RemoveMember(member=who))
    elif kind == "post":
        made = engine.execute(NAME, WritePost(text=f"{who} says", by=who, ooc=True), actor=who)
        posts[who] = made.number
    elif kind == "note":
        engine.execute(NAME, AddNote(text="noted", gm_only=move[2]), actor=who)
    elif kind == "dispute":
        ruling = max(1, rulings - move[2])
        engine.execute(NAME, DisputeRuling(ruling=ruling, reason="no", by=who), actor=who)
    elif kind == "own words" and who in posts:
        engine.amend(NAME, posts[who], {"text": "edited"}, reason="typo", actor=who)
    elif kind == "undo":
        how = {move[3]: True} if move[3] != "plain" else {}
        engine.undo(NAME, max(2, rulings - move[2]), reason="no", actor=who, **how)
    elif kind == "resolve":
        open_ = engine.campaign(NAME).open_disputes()
        if open_:
            engine.resolve(NAME, open_[0].number, move[2], reason="so", actor=who)


@example(  # an unseat undone after a later ruling was checked: bea's seat stands again
    moves=[
        ("seat", "bea", Role.PLAYER),
        ("post", "ana"),
        ("unseat", "bea"),
        ("post", "ana"),
        ("undo", GM, 1, "plain"),
        ("post", "bea"),
    ]
)
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(moves=STEPS)
def test_an_honest_table_verifies_intact_whatever_it_did(moves: list[tuple[Any, ...]]) -> None:
    """Whatever the members did (each move refused or recorded), verify finds nothing: every
    ruling recorded was allowed its actor on the table as it stood, its corrections applied
    up to it."""
    with pytest.MonkeyPatch.context() as patch, Engine(backoff=no_wait) as engine:
        patch.setattr(replay, "CHECKPOINT", 3)  # let go of held records, keep few states
        patch.setattr(replay, "KEEP", 2)
        engine.create_campaign(NAME, "sprawl-goons", gm=GM, members={"ana": Role.PLAYER})
        posts: dict[str, int] = {}
        refused = 0
        for move in moves:
            try:
                step(engine, move, posts)
            except DomainError:
                refused += 1
        report = engine.verify(NAME)
    assert ([], True) == ([f.problem for f in report.findings], report.intact)
