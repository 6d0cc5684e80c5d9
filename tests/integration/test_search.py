"""``search``: what was written into a campaign, found by its words through the store's full-text
index (a scan in memory, FTS5 in SQLite, text search on PostgreSQL), newest first, and read as
the reader's log reads it: a private message, a GM-only note or a hidden ruling never reaches
anyone its log would not show it to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.audience import GMS, Member, of_actor
from domain.errors import UnknownCampaign
from domain.events import NoteAdded, Role
from domain.lifecycle import AddNote
from domain.posts import WritePost
from domain.table import AddMember
from engine import Engine, converter
from engine.reads.search import (
    MAX_QUERY,
    SearchLimitOutOfBounds,
    SearchQueryEmpty,
    SearchQueryTooLong,
    terms_of,
)
from projections.search_model import words
from tests.conftest import event_count, scene_with_s1
from tests.golden.test_sims import NAME
from tests.golden.test_sims_rulings import GM, table
from tests.postgres import fresh_schema

STORES = ["memory", "sqlite", "postgres"]


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "memory":
        with Engine() as engine:
            yield engine
    elif request.param == "sqlite":
        with Engine(str(tmp_path / "campaign.db")) as engine:
            yield engine
    else:
        with fresh_schema() as url, Engine(url) as engine:
            yield engine


def found(
    engine: Engine, query: str, campaign: str = "Lab", reader: str | None = None, **options: Any
) -> list[str]:
    """The texts ``reader`` (the GMs without one) finds."""
    audience = of_actor(reader)
    return [f.text for f in engine.search(campaign, query, audience=audience, **options).found]


def notes(engine: Engine) -> None:
    """'Lab': three notes by alice and the GM, one of them the GMs' alone."""
    scene_with_s1(engine)
    engine.execute("Lab", AddNote(text="The guard was asleep at the gate"), actor="alice")
    engine.execute("Lab", AddNote(text="Gates of the lab: two, both locked"))
    engine.execute("Lab", AddNote(text="the guard is a mole", gm_only=True))


def test_every_word_must_appear_newest_first(store: Engine) -> None:
    notes(store)
    assert ["the guard is a mole", "The guard was asleep at the gate"] == found(store, "guard")
    assert ["The guard was asleep at the gate"] == found(store, "GATE guard")
    assert [] == found(store, "guard locked")


def test_a_word_ending_in_a_star_is_a_prefix(store: Engine) -> None:
    notes(store)
    assert ["Gates of the lab: two, both locked", "The guard was asleep at the gate"] == found(
        store, "gat*"
    )
    assert ["Gates of the lab: two, both locked"] == found(store, "gates")


def test_where_and_by_whom_it_was_written(store: Engine) -> None:
    notes(store)
    (hit,) = store.search("Lab", "asleep", audience=GMS).found
    assert (hit.ruling, hit.session, hit.scene, hit.actor, hit.kind, hit.status) == (
        5,
        1,
        1,
        "alice",
        "NoteAdded",
        "",
    )


def test_a_player_finds_what_their_log_shows_them(store: Engine) -> None:
    notes(store)
    assert ["The guard was asleep at the gate"] == found(store, "guard", reader="alice")
    assert [] == found(store, "mole", reader="alice")
    assert ["the guard is a mole"] == found(store, "mole", reader="GM")


def test_an_undone_note_is_found_marked_with_the_undos_reason(store: Engine) -> None:
    notes(store)
    store.undo("Lab", 5, reason="alice dreamt the guard")
    hits = store.search("Lab", "guard", audience=GMS).found
    assert [("RulingRetracted", ""), ("NoteAdded", ""), ("NoteAdded", "undone")] == [
        (h.kind, h.status) for h in hits
    ]


def test_an_amended_note_is_found_as_it_reads_now_and_as_it_read(store: Engine) -> None:
    notes(store)
    store.amend("Lab", 5, {"text": "The guard was awake at the gate"}, reason="typo: awake")
    hits = store.search("Lab", "gate guard", audience=GMS).found
    assert [(h.ruling, h.text, h.status) for h in hits if h.kind == "NoteAdded"] == [
        (8, "The guard was awake at the gate", ""),
        (5, "The guard was asleep at the gate", "amended"),
    ]
    assert ["typo: awake"] == found(store, "typo")


def test_one_session_at_a_time(store: Engine) -> None:
    from domain.lifecycle import EndScene, EndSession, StartSession

    notes(store)
    store.execute("Lab", EndScene())
    store.execute("Lab", EndSession())
    store.execute("Lab", StartSession())
    store.execute("Lab", AddNote(text="the guard came back"))
    assert ["the guard came back"] == found(store, "guard", session=2)
    assert 2 == len(found(store, "guard", session=1, reader="GM"))


def test_pages_of_results(store: Engine) -> None:
    scene_with_s1(store)
    for n in range(7):
        store.execute("Lab", AddNote(text=f"clue number {n}"))
    first = store.search("Lab", "clue", limit=3, audience=GMS)
    assert (["clue number 6", "clue number 5", "clue number 4"], True) == (
        [f.text for f in first.found],
        first.more,
    )
    rest = store.search("Lab", "clue", limit=10, before=first.found[-1].ruling, audience=GMS)
    assert [f"clue number {n}" for n in (3, 2, 1, 0)] == [f.text for f in rest.found]
    assert not rest.more


def test_only_its_own_campaign(store: Engine) -> None:
    notes(store)
    store.create_campaign("Other", "code-green")
    store.execute("Other", AddNote(text="the guard of another campaign"))
    assert ["the guard of another campaign"] == found(store, "guard", campaign="Other")
    assert 2 == len(found(store, "guard"))


def test_a_rebuilt_index_finds_the_same(store: Engine) -> None:
    notes(store)
    before = converter.unstructure(store.search("Lab", "guard", audience=GMS))
    store.rebuild("search")
    store.execute("Lab", AddNote(text="a new guard"))
    after = converter.unstructure(store.search("Lab", "guard", audience=GMS))
    assert ["a new guard", *[f["text"] for f in before["found"]]] == [
        f["text"] for f in after["found"]
    ]


def test_verify_compares_the_search_model_with_the_log(sqlite_engine: Engine) -> None:
    notes(sqlite_engine)
    found(sqlite_engine, "guard")  # the model caught up
    report = sqlite_engine.verify("Lab")
    assert report.intact
    assert "search" in converter.unstructure(report)["models"]


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("", SearchQueryEmpty),
        ("!!! ** --", SearchQueryEmpty),
        ("_", SearchQueryEmpty),
        ("x" * (MAX_QUERY + 1), SearchQueryTooLong),
        (" ".join(["w"] * 17), SearchQueryTooLong),
    ],
)
def test_a_query_without_words_or_too_long_is_refused(
    engine: Engine, query: str, error: type[Exception]
) -> None:
    notes(engine)
    before = event_count(engine)
    with pytest.raises(error):
        engine.search("Lab", query, audience=GMS)
    assert before == event_count(engine)


@pytest.mark.parametrize("limit", [0, -1, 101])
def test_a_limit_out_of_bounds_is_refused(engine: Engine, limit: int) -> None:
    notes(engine)
    with pytest.raises(SearchLimitOutOfBounds):
        engine.search("Lab", "guard", limit=limit, audience=GMS)


def test_a_private_message_is_found_by_its_audience_only(store: Engine) -> None:
    table(store)
    store.execute(NAME, AddMember(member="dora", role=Role.PLAYER))
    body = "Bring me the ledger of the Keymaker"
    store.execute(NAME, WritePost(text=body, to=("bob",), by=GM, character="Smith"))
    for reader, sees in [(GM, True), ("bob", True), ("alice", False), ("olly", False)]:
        assert ([body] if sees else []) == found(store, "keymaker", campaign=NAME, reader=reader)
    assert [body] == found(store, "ledger", campaign=NAME, character="Smith")
    assert [] == found(store, "ledger", campaign=NAME, character="Neo")


QUERIES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40) | st.lists(
    st.sampled_from(['"', "*", "(", ")", "NEAR", "AND", "OR", "NOT", "^", ":", "-"]), max_size=8
).map(" ".join)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=QUERIES)
def test_any_query_is_searched_or_refused_with_a_domain_code(
    sqlite_engine: Engine, query: str
) -> None:
    """FTS5's own syntax (quotes, NEAR, column filters, ^) never reaches it: every query is
    words, found as words, or refused."""
    try:
        sqlite_engine.find_campaign("Lab")
    except UnknownCampaign:
        notes(sqlite_engine)
    try:
        terms = terms_of(query)
    except (SearchQueryEmpty, SearchQueryTooLong):
        with pytest.raises((SearchQueryEmpty, SearchQueryTooLong)):
            sqlite_engine.search("Lab", query, audience=GMS)
        return
    result = sqlite_engine.search("Lab", query, audience=Member("GM"))
    for hit in result.found:
        written = words(hit.text)
        assert all(t.found_in(written) for t in terms)


VOCABULARY = ["guard", "gate", "mole", "lab", "owl", "ledger"]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    texts=st.lists(
        st.tuples(
            st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=4).map(" ".join),
            st.booleans(),
        ),
        min_size=1,
        max_size=12,
    ),
    asked=st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=2),
    reader=st.sampled_from(["GM", "alice"]),
)
def test_the_index_finds_what_a_scan_of_the_readers_log_finds(
    tmp_path_factory: pytest.TempPathFactory,
    texts: list[tuple[str, bool]],
    asked: list[str],
    reader: str,
) -> None:
    with Engine(str(tmp_path_factory.mktemp("search") / "c.db")) as engine:
        scene_with_s1(engine)
        for text, gm_only in texts:
            engine.execute("Lab", AddNote(text=text, gm_only=gm_only))
        expected = [
            (entry.ruling.number, r.event.text)
            for entry in reversed(engine.log("Lab", audience=of_actor(reader)))
            for r in entry.events
            if isinstance(r.event, NoteAdded) and set(asked) <= set(words(r.event.text))
        ]
        got = engine.search("Lab", " ".join(asked), audience=of_actor(reader), limit=100).found
        assert expected == [(f.ruling, f.text) for f in got]


def test_posts_and_narration_are_found_as_their_readers_may_read_them(store: Engine) -> None:
    from domain.lifecycle import AddNote as _Note
    from domain.posts import WritePost

    scene_with_s1(store)
    store.execute("Lab", AddMember(member="bo", role=Role.PLAYER))
    store.execute("Lab", WritePost(text="The vents *hiss* open", by="GM"))
    store.execute(
        "Lab",
        WritePost(text="31415 squeezes into the vent", by="alice", character="31415"),
        actor="alice",
    )
    store.execute("Lab", WritePost(text="psst, the vent leads out", by="GM", to=("bo",)))
    store.execute("Lab", _Note(text="noted"), say="the vent rattles behind them")
    hits = store.search("Lab", "vent*", audience=GMS).found
    assert [
        ("Narration", "the vent rattles behind them"),
        ("PostWritten", "psst, the vent leads out"),
        ("PostWritten", "31415 squeezes into the vent"),
        ("PostWritten", "The vents *hiss* open"),
    ] == [(h.kind, h.text) for h in hits]
    assert ["31415 squeezes into the vent"] == found(store, "vent", character="31415")
    assert "psst, the vent leads out" not in found(store, "vent", reader="alice")
    assert "psst, the vent leads out" in found(store, "vent", reader="bo")
