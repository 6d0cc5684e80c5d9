"""Replay determinism: loading, with or without snapshots, equals folding every event afresh."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.commands import Command
from domain.errors import DomainError
from domain.events import RulingAmended
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    DeclareTest,
    DisplaceToken,
    PlaceTokens,
    Recover,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.tables import Square
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.store import streams
from engine.store.records import DIRECTORY_ID, Snapshot
from engine.store.streams import corrections, fold
from engine.write import ledger
from tests.conftest import S1_FORM, S1_FUNCTION, event_count
from tests.integration.scenes import (
    ALICE,
    ASSIST,
    BOB,
    DISPLACE,
    ROLL,
    STRAIN,
    evolver_for,
    play_scene,
    play_until_rolled,
    replay_from_scratch,
    stream_ids,
)


def load(engine: Engine, stream: UUID, *, lte: int | None = None) -> Any:
    """The stream as the engine loads it (snapshot when valid, then later events)."""
    return engine.streams.load(stream, evolver_for(engine, stream), lte=lte)


def uncached(engine: Engine, stream: UUID) -> Any:
    """The stream's state now, loaded with no head kept between loads (snapshot when valid,
    then the stored events decoded and folded)."""
    return streams.Streams(engine.store).load(stream, evolver_for(engine, stream)).state


def head(engine: Engine, stream: UUID) -> Any:
    """The stream's state now as the engine's writes load it (the head it keeps, when the
    store's head is still its row)."""
    evolve = (
        ledger.evolve_directory
        if stream == DIRECTORY_ID
        else engine.evolver(engine.campaign("Lab"), stream)
    )
    return engine.streams.load(stream, evolve).state


def snapshots(engine: Engine, stream: UUID) -> list[Snapshot]:
    assert engine.store.snapshots is not None
    return list(engine.store.snapshots.get(stream))  # type: ignore[arg-type]


@pytest.fixture
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> int:
    """Snapshot every 3 versions instead of every 100."""
    monkeypatch.setattr(ledger, "SNAPSHOT_INTERVAL", 3)
    return 3


@pytest.fixture
def reads(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[tuple[UUID, int | None]]:
    """Every (stream, gt) the engine reads events with, in one read or a page at a time: gt is
    where a load started (0 for a first page from the start)."""
    calls: list[tuple[UUID, int | None]] = []
    original, original_page = engine.streams.records, engine.streams._page

    def spy(stream: UUID, *, gt: int | None = None, lte: int | None = None) -> Any:
        calls.append((stream, gt))
        return original(stream, gt=gt, lte=lte)

    def page_spy(stream: UUID, gt: int, lte: int | None) -> Any:
        calls.append((stream, gt))
        return original_page(stream, gt, lte)

    monkeypatch.setattr(engine.streams, "records", spy)
    monkeypatch.setattr(engine.streams, "_page", page_spy)
    return calls


def alice_id(engine: Engine) -> UUID:
    return engine.campaign("Lab").find(ALICE).character_id


# --- Loading equals a replay from scratch --------------------------------------------------


def test_loaded_state_equals_replay_from_scratch(any_engine: Engine) -> None:
    """Directory, campaign and characters load as a fold of all their events."""
    any_engine.create_campaign("Ward", "code-green")
    play_scene(any_engine)
    any_engine.undo("Lab", reason="not done")

    for stream in stream_ids(any_engine):
        assert replay_from_scratch(any_engine, stream) == load(any_engine, stream).state


def test_state_at_each_version_equals_replay_up_to_it(any_engine: Engine) -> None:
    """Loading up to version v equals folding the first v events (as recorded by then)."""
    play_scene(any_engine)
    any_engine.undo("Lab", ROLL, reason="wrong dice", with_dependents=True)

    for stream in stream_ids(any_engine):
        last = any_engine.streams.last_version(stream)
        for version in range(1, last + 1):
            expected = replay_from_scratch(any_engine, stream, lte=version)
            assert expected == load(any_engine, stream, lte=version).state


def test_ruling_result_states_equal_the_loaded_states(engine: Engine) -> None:
    """The states a ruling returns (evolved in memory) equal what loading gives afterwards."""
    play_until_rolled(engine)

    result = engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))

    assert result.campaign == engine.campaign("Lab")
    for stream, state in result.states.items():
        assert uncached(engine, stream) == state


def test_a_save_keeps_the_states_it_wrote_as_the_heads(any_engine: Engine) -> None:
    """After a ruling, the next load of each stream it wrote is the state the save evolved,
    read from the head the save kept (one row read, nothing decoded), and equal to the stored
    events folded afresh."""
    play_until_rolled(any_engine)
    result = any_engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))
    decoded = []
    original = any_engine.store.mapper.to_domain_event

    def spy(stored: Any) -> Any:
        decoded.append(stored)
        return original(stored)

    with patch.object(any_engine.store.mapper, "to_domain_event", spy):
        for stream, state in result.states.items():
            assert head(any_engine, stream) is state
    assert [] == decoded
    for stream, state in result.states.items():
        assert uncached(any_engine, stream) == state == replay_from_scratch(any_engine, stream)


def test_a_kept_head_is_not_used_once_another_writer_moved_the_stream(tmp_path: Any) -> None:
    """Two engines on one store: each load by the first after the second wrote folds what the
    second wrote (the kept head is the stream's head no longer), and its next ruling chains on
    the second's."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first:
        play_until_rolled(first)
        with Engine(db) as second:
            second.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))
            expected = {stream: uncached(second, stream) for stream in stream_ids(second)}
        for stream in stream_ids(first):
            assert expected[stream] == head(first, stream)
        first.execute("Lab", DisplaceToken(character=ALICE, destination="R1C3"))
        assert first.verify("Lab").intact
        for stream in stream_ids(first):
            assert uncached(first, stream) == head(first, stream)


def test_a_kept_head_another_writer_moved_past_is_caught_up_in_three_reads(tmp_path: Any) -> None:
    """A stream another engine wrote to since this one kept its head is caught up from that
    head in three reads of it: the head, the kept version's row (its chain link) and the events
    after it (how far behind it is comes from the head just read, not a read of its own)."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first:
        play_until_rolled(first)
        stream = alice_id(first)
        kept = head(first, stream)
        with Engine(db) as second:
            second.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))
        reads: list[dict[str, Any]] = []
        original = first.store.recorder.select_events

        def spy(originator_id: UUID, **kwargs: Any) -> Any:
            if originator_id == stream:
                reads.append(kwargs)
            return original(originator_id, **kwargs)

        with patch.object(first.store.recorder, "select_events", spy):
            caught_up = head(first, stream)
        assert caught_up != kept
        assert caught_up == uncached(first, stream)
        assert 3 == len(reads), reads
        assert (True, 1) == (reads[0].get("desc"), reads[0].get("limit"))  # the head


# --- Snapshots ------------------------------------------------------------------------------


def test_snapshots_are_taken_at_the_interval(engine: Engine, small_snapshots: int) -> None:
    """With an interval of 3, each stream is snapshotted whenever a ruling crosses a multiple."""
    play_until_rolled(engine)

    versions = [s.originator_version for s in snapshots(engine, alice_id(engine))]

    # alice: name and creation 1-2, placement 3-6, declaration 7, assist 8, roll 9
    assert [6, 9] == versions


def test_snapshots_hold_typed_state_equal_to_the_replay(
    any_engine: Engine, small_snapshots: int
) -> None:
    """Every snapshot is a typed state equal to the fold of the events up to its version."""
    play_scene(any_engine)

    taken = [s for stream in stream_ids(any_engine) for s in snapshots(any_engine, stream)]

    assert len(taken) >= 3
    for snapshot in taken:
        expected = replay_from_scratch(
            any_engine, snapshot.originator_id, lte=snapshot.originator_version
        )
        assert expected == snapshot.state


def test_loading_starts_from_the_latest_snapshot(
    engine: Engine, small_snapshots: int, reads: list[tuple[UUID, int | None]]
) -> None:
    """A load reads only the events after the latest snapshot, and equals a full replay."""
    play_until_rolled(engine)
    stream = alice_id(engine)
    reads.clear()

    loaded = load(engine, stream)
    started = [gt for read, gt in reads if read == stream]

    assert [9] == started
    assert isinstance(snapshots(engine, stream)[-1].state, CgCharacter)
    assert replay_from_scratch(engine, stream) == loaded.state


def test_undo_after_the_snapshot_keeps_using_it(
    engine: Engine, small_snapshots: int, reads: list[tuple[UUID, int | None]]
) -> None:
    """Undoing a ruling recorded after the latest snapshot still loads from that snapshot."""
    play_until_rolled(engine)
    engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))  # alice 10-11
    engine.execute("Lab", DisplaceToken(character=ALICE, destination="R1C3"))  # alice 12: snapshot
    engine.execute("Lab", Adapt(character=ALICE, source="R1C1", destination="R2C1"))  # alice 13
    engine.undo("Lab", reason="other token")  # alice 14 voids 13
    stream = alice_id(engine)
    reads.clear()

    loaded = load(engine, stream)
    started = [gt for read, gt in reads if read == stream]

    assert 12 == snapshots(engine, stream)[-1].originator_version
    assert [12] == started
    assert engine.character_at("Lab", ALICE, ruling=DISPLACE, audience=GMS) == loaded.state
    assert replay_from_scratch(engine, stream) == loaded.state


def test_undo_voiding_a_snapshotted_version_replays_from_an_earlier_snapshot(
    engine: Engine, small_snapshots: int, reads: list[tuple[UUID, int | None]]
) -> None:
    """Voiding a version at or before the latest snapshot replays from the latest snapshot
    before that version: corrected state."""
    play_until_rolled(engine)
    engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))  # alice 10-11
    engine.execute("Lab", DisplaceToken(character=ALICE, destination="R1C3"))  # alice 12: snapshot
    stream = alice_id(engine)
    stale = snapshots(engine, stream)[-1]
    earlier = max(v for v in (s.originator_version for s in snapshots(engine, stream)) if v < 12)

    result = engine.undo("Lab", reason="other square")  # alice 13 voids 12
    reads.clear()
    loaded = load(engine, stream)
    started = [gt for read, gt in reads if read == stream]

    corrected = engine.character_at("Lab", ALICE, ruling=STRAIN, audience=GMS)
    assert (12, None, Square.R2C2) == (
        stale.originator_version,
        stale.state.displacement,
        corrected.displacement,
    )
    assert 12 == snapshots(engine, stream)[-1].originator_version
    assert [12, earlier] == started
    assert corrected == loaded.state
    assert corrected == result.states[stream]
    assert replay_from_scratch(engine, stream) == loaded.state


def test_snapshot_after_an_undo_holds_the_corrected_state(
    engine: Engine, small_snapshots: int, reads: list[tuple[UUID, int | None]]
) -> None:
    """An undo that crosses the interval snapshots the corrected history, and loading uses it."""
    play_until_rolled(engine)
    engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))
    engine.execute("Lab", DisplaceToken(character=ALICE, destination="R1C3"))  # alice 12: snapshot
    engine.execute("Lab", Adapt(character=ALICE, source="R1C1", destination="R2C1"))
    stream = alice_id(engine)

    engine.undo("Lab", ROLL, reason="wrong dice", with_dependents=True)  # alice 14-17: snapshot
    latest = snapshots(engine, stream)[-1]
    reads.clear()
    loaded = load(engine, stream)
    started = [gt for read, gt in reads if read == stream]

    assert 17 == latest.originator_version
    assert engine.character_at("Lab", ALICE, ruling=ASSIST, audience=GMS) == latest.state
    assert replay_from_scratch(engine, stream) == latest.state
    assert [17] == started
    assert latest.state == loaded.state


def test_directory_is_snapshotted_and_loads_from_it(
    engine: Engine, small_snapshots: int, reads: list[tuple[UUID, int | None]]
) -> None:
    """The store's directory of campaigns is snapshotted like any stream and lists them all."""
    for name in ("Lab", "Ward", "Vault", "Annex"):
        engine.create_campaign(name, "code-green")
    assert engine.streams.heads is not None
    engine.streams.heads.clear()  # as in a new process: the load reads the store
    reads.clear()

    listed = [c.name for c in engine.directory().campaigns]

    assert [3] == [s.originator_version for s in snapshots(engine, DIRECTORY_ID)]
    assert [(DIRECTORY_ID, 3)] == [r for r in reads if r[0] == DIRECTORY_ID]
    assert ["Lab", "Ward", "Vault", "Annex"] == listed
    assert replay_from_scratch(engine, DIRECTORY_ID) == engine.directory()


def test_snapshots_survive_reopening_the_store(
    frozen: None, tmp_path: Any, small_snapshots: int
) -> None:
    """A SQLite store reopened by a new Engine reads its snapshots back typed."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first:
        play_scene(first)
        expected = {s: snapshots(first, s) for s in stream_ids(first)}

    with Engine(db) as second:
        actual = {s: snapshots(second, s) for s in stream_ids(second)}
        states = second.characters("Lab", audience=GMS)

    assert expected == actual
    assert [ALICE, BOB] == [c.name for c in states]


def test_a_ruling_at_the_interval_is_still_recorded_if_snapshotting_fails(
    engine: Engine, small_snapshots: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failing snapshot store does not turn a recorded ruling into a refusal."""
    play_until_rolled(engine)
    assert engine.store.snapshots is not None

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(engine.store.snapshots, "put", broken)
    result = engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))

    assert 11 == result.number
    assert result.states[alice_id(engine)] == engine.character("Lab", ALICE, audience=GMS)


# --- Property: any sequence of commands and undos replays the same --------------------------

squares = st.sampled_from([s.value for s in Square])
three_squares = st.permutations([s.value for s in Square]).map(lambda p: tuple(p[:3]))
who = st.sampled_from([ALICE, BOB])
maybe_square = st.none() | squares
seeded = st.builds(DiceSpec, seed=st.integers(0, 2**16))

commands: st.SearchStrategy[Command] = st.one_of(
    st.builds(
        PlaceTokens, character=who, squares=three_squares | st.just(("roll", "roll", "roll"))
    ),
    st.builds(
        DeclareTest,
        character=who,
        form=st.sampled_from(S1_FORM) | st.none(),
        function=st.sampled_from(S1_FUNCTION) | st.none(),
        roll=st.booleans(),
    ),
    st.builds(AssistTest, helper=who, square=squares, justification=st.just("it helps")),
    st.builds(RollTest, character=st.none() | who),
    st.builds(SufferStrain, character=who, destination=maybe_square),
    st.builds(DisplaceToken, character=who, destination=squares),
    st.builds(Adapt, character=who, source=maybe_square, destination=maybe_square),
    st.builds(Recover, character=who),
    st.sampled_from([EndScene(), StartScene(stage="the next room"), EndSession(), StartSession()]),
    st.builds(AddNote, text=st.sampled_from(["a note", " "])),
)
undos = st.tuples(st.just("undo"), st.none() | st.integers(2, 30), st.booleans())
# An amendment of one of the latest rulings: the parameter it corrects depends on the command
# (a test's form or function, where strain or a displacement or an adaptation lands).
amends = st.tuples(
    st.just("amend"),
    st.integers(0, 4),  # how far back from the latest ruling
    st.sampled_from(S1_FORM),
    st.sampled_from(S1_FUNCTION),
    squares,
    seeded,
    st.booleans(),
)
# About one move in eight is an undo and one in eight an amendment; the rest are commands with
# seeded digital dice.
moves = st.lists(
    st.integers(0, 7).flatmap(
        lambda n: undos if n == 0 else amends if n == 1 else st.tuples(commands, seeded)
    ),
    min_size=10,
    max_size=50,
)


def numbered_ids() -> Iterator[UUID]:
    return (UUID(int=n) for n in itertools.count(1))


@contextmanager
def played(history: list[tuple[Any, ...]]) -> Iterator[Engine]:
    """A campaign in memory (ids numbered from 1) played to its rolled test, then ``history``."""
    ids = numbered_ids()
    with Engine(new_id=ids.__next__) as engine:
        play_until_rolled(engine)
        for move in history:
            play(engine, move)
        yield engine


def play(engine: Engine, move: tuple[Any, ...]) -> None:
    """Run one move; a refusal must append nothing, a ruling must return the loaded states."""
    before = event_count(engine)
    try:
        if move[0] == "undo":
            result = engine.undo("Lab", move[1], reason="property", with_dependents=move[2])
        elif move[0] == "amend":
            _, back, form, function, square, dice, dependents = move
            made = engine.log("Lab", audience=GMS)[-1 - back].ruling
            changes = {
                "test": {"form": form, "function": function},
                "strain": {"destination": square},
                "displace": {"destination": square},
                "adapt": {"destination": square},
            }.get(made.command, {"form": form})
            result = engine.amend(
                "Lab", made.number, changes, reason="p", dice=dice, with_dependents=dependents
            )
        else:
            result = engine.execute("Lab", move[0], dice=move[1])
    except DomainError:
        assert before == event_count(engine)
        return
    assert result.campaign == engine.campaign("Lab")
    for stream, state in result.states.items():
        assert uncached(engine, stream) == state


@settings(max_examples=100, deadline=None)
@given(interval=st.integers(2, 5), stale=st.sampled_from([1, 3, 100]), history=moves)
def test_any_history_loads_as_its_replay(
    interval: int, stale: int, history: list[tuple[Any, ...]]
) -> None:
    """After any commands, undos and amendments, every stream, version and snapshot matches a
    replay from the start (the snapshots a save writes every ``interval`` versions, and those
    loads leave at the head after folding ``stale`` events past the latest one)."""
    with (
        patch.object(ledger, "SNAPSHOT_INTERVAL", interval),
        patch.object(streams, "STALE", stale),
        played(history) as e,
    ):
        for stream in stream_ids(e):
            last = e.streams.last_version(stream)
            for version in range(1, last + 1):
                assert replayed(e, stream, version) == load(e, stream, lte=version).state
            for snapshot in snapshots(e, stream):
                assert replayed(e, stream, snapshot.originator_version) == snapshot.state
            assert replayed(e, stream, last) == head(e, stream)


def replayed(engine: Engine, stream: UUID, version: int) -> Any:
    """The state after ``version`` from no snapshot: the independent replay (retractions only)
    while no amendment was recorded, else a fold of every record from the start."""
    records = engine.streams.records(stream, lte=version)
    if not any(isinstance(r.event, RulingAmended) for r in records):
        return replay_from_scratch(engine, stream, lte=version)
    return fold(records, evolver_for(engine, stream), None, corrections(records))
