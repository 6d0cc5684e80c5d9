"""The store contract: the same behaviour on memory, a SQLite file and PostgreSQL.

PostgreSQL runs on a schema of its own per test; without a server the PostgreSQL cases skip
with the reason (and fail under CAMPAIGN_REQUIRE_POSTGRES=1, as in CI)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from domain.audience import GMS
from domain.commands import Change, View
from domain.dice import DiceSource, Provenance
from domain.errors import DomainError
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets.code_green.commands import Adapt, DeclareTest, RollTest
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.write import ledger
from projections.describe import describe
from projections.dice_stats import tally
from tests.conftest import event_count, place, scene_with_s1
from tests.postgres import fresh_schema
from tests.stores import no_wait, replays_from_scratch, whole_rulings

STORES = ["memory", "sqlite", "postgres"]


@pytest.fixture(params=STORES)
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store of each kind."""
    if request.param == "memory":
        yield ":memory:"
    elif request.param == "sqlite":
        yield str(tmp_path / "campaign.db")
    else:
        with fresh_schema() as url:
            yield url


@pytest.fixture(params=STORES[1:])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store that several engines (processes) can open."""
    if request.param == "sqlite":
        yield str(tmp_path / "campaign.db")
    else:
        with fresh_schema() as url:
            yield url


@pytest.fixture
def store(spec: str) -> Iterator[Engine]:
    with Engine(spec, backoff=no_wait) as engine:
        yield engine


def played(engine: Engine) -> None:
    """Rulings 1-9 of 'Lab': a scene, alice placed, a test rolled 2,5, an adaptation, a note."""
    scene_with_s1(engine)
    place(engine, "31415", "R1C1", "R2C2", "R3C3")
    engine.execute("Lab", DeclareTest(character="31415", form="Legs", function="Invulnerable"))
    engine.execute("Lab", RollTest(), dice=DiceSpec(faces=(2, 5)))
    engine.execute("Lab", Adapt(character="31415", source="R1C1", destination="R1C2"))
    engine.execute("Lab", AddNote(text="the guard was asleep"), actor="alice")


def lines(engine: Engine) -> list[str]:
    """The log as the text projection reads it (less the session's random seed hash)."""
    return [
        text
        for entry in engine.log("Lab", audience=GMS)
        for record in entry.events
        if (text := describe(record.event)) is not None and "seed hash" not in text
    ]


def test_rulings_read_back_as_recorded(store: Engine) -> None:
    """Numbers, commands, actors, dice and the sheet are what was recorded."""
    played(store)

    log = [
        (e.ruling.number, e.ruling.command, e.header.actor) for e in store.log("Lab", audience=GMS)
    ]
    alice = store.character("Lab", "alice", audience=GMS)

    assert (9, "note", "alice") == log[-1]
    assert list(range(1, 10)) == [n for n, _, _ in log]
    assert ((2, 5), Provenance.PHYSICAL) == (
        tuple(d.face for d in store.log("Lab", audience=GMS)[6].ruling.dice),
        store.log("Lab", audience=GMS)[6].ruling.provenance,
    )
    assert (1, False) == (alice.tests, alice.adaptation_pending)
    assert whole_rulings(store, "Lab")


def test_projections_read_the_same_on_every_store(store: Engine) -> None:
    """The text log and the dice statistics equal those of the same play in memory."""
    played(store)
    with Engine() as reference:
        played(reference)
        expected = (lines(reference), _stats(reference))

    assert expected == (lines(store), _stats(store))


def _stats(engine: Engine) -> list[Any]:
    return tally(
        (die, e.ruling.provenance) for e in engine.log("Lab", audience=GMS) for die in e.ruling.dice
    )


def test_a_refused_command_appends_nothing(store: Engine) -> None:
    """A refusal is a DomainError and the event count stays."""
    played(store)
    before = event_count(store)

    with pytest.raises(DomainError) as refused:
        store.execute("Lab", RollTest(), dice=DiceSpec(faces=(7, 1)))

    assert "NO_OPEN_TEST" == refused.value.code
    assert before == event_count(store)


def test_undo_replays_without_the_ruling(store: Engine) -> None:
    """Undoing the adaptation puts the token back and the log keeps both rulings."""
    played(store)

    store.undo("Lab", 8, reason="wrong square", with_dependents=True)
    alice = store.character("Lab", "alice", audience=GMS)

    assert frozenset({8}) == store.campaign("Lab").retracted
    assert alice.adaptation_pending
    assert replays_from_scratch(store, "Lab")
    assert store.verify("Lab").intact


def test_snapshots_load_what_a_full_replay_gives(store: Engine) -> None:
    """A snapshot is kept every SNAPSHOT_INTERVAL versions; loading from the latest equals
    replaying every event."""
    store.create_campaign("Lab", "code-green")
    for index in range(60):
        store.execute("Lab", AddNote(text=f"note {index}"))
    campaign = store.campaign("Lab")

    assert store.store.snapshots is not None
    versions = store.streams.last_version(campaign.id)
    kept = len(list(store.store.snapshots.get(campaign.id)))
    assert (versions // ledger.SNAPSHOT_INTERVAL, True) == (kept, kept > 1)
    assert 61 == campaign.rulings
    assert replays_from_scratch(store, "Lab")


def test_committed_dice_are_kept_until_the_session_ends(store: Engine) -> None:
    """Digital rolls of a session come from its secret seed; ending it reveals the seed and
    verify recomputes every roll."""
    scene_with_s1(store)
    place(store, "31415", "R1C1", "R2C2", "R3C3")
    store.execute("Lab", DeclareTest(character="31415", form="Legs", function="Invulnerable"))
    rolled = store.execute("Lab", RollTest())
    store.execute("Lab", Adapt(character="31415", source="R1C1", destination="R1C2"))
    store.execute("Lab", EndScene())
    store.execute("Lab", EndSession())

    report = store.verify("Lab")

    assert Provenance.COMMITTED == rolled.provenance
    assert [(1, 1, True, ())] == [
        (d.session, d.rulings, d.revealed, d.problems) for d in report.dice
    ]
    assert report.intact


def test_another_engine_sees_every_ruling(shared: str) -> None:
    """A store opened again (another process, another machine) holds what was recorded."""
    with Engine(shared) as first:
        played(first)
        expected = (lines(first), first.character("Lab", "alice", audience=GMS))

    with Engine(shared) as second:
        assert expected == (lines(second), second.character("Lab", "alice", audience=GMS))


def test_the_session_seed_is_shared_by_engines_of_one_store(shared: str) -> None:
    """A session started by one engine rolls committed dice in another."""
    with Engine(shared) as first:
        scene_with_s1(first)
        place(first, "31415", "R1C1", "R2C2", "R3C3")
        first.execute("Lab", DeclareTest(character="31415", form="Legs", function="Invulnerable"))

    with Engine(shared) as second:
        rolled = second.execute("Lab", RollTest())

    assert Provenance.COMMITTED == rolled.provenance


def test_a_write_between_load_and_save_is_retried(
    shared: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other engine's ruling lands first; this one loses the race, re-decides from fresh
    state, and takes the next number."""
    retries: list[int] = []
    intruder = Engine(shared, lock_writes=False)  # it writes while alice holds the lock
    with Engine(shared, backoff=retries.append) as first, intruder as second:
        played(first)
        attempts = _interleave(
            monkeypatch, lambda: second.execute("Lab", AddNote(text="bob was here"), actor="bob")
        )

        result = first.execute("Lab", AddNote(text="alice's turn"), actor="alice")

        log = [(e.ruling.number, e.header.actor) for e in second.log("Lab", audience=GMS)]
        assert (2, [1]) == (len(attempts), retries)
        assert 11 == result.number
        assert [(10, "bob"), (11, "alice")] == log[-2:]
        assert whole_rulings(second, "Lab")


def _interleave(monkeypatch: pytest.MonkeyPatch, write: Callable[[], object]) -> list[object]:
    """Run ``write`` inside alice's first decision (between her load and her save)."""
    original = AddNote.decide
    attempts: list[object] = []

    def decide(self: AddNote, view: View, dice: DiceSource) -> Sequence[Change]:
        if self.text == "alice's turn":
            attempts.append(self)
            if len(attempts) == 1:
                write()
        return original(self, view, dice)

    monkeypatch.setattr(AddNote, "decide", decide)
    return attempts


def test_campaigns_in_one_store_stay_apart(store: Engine) -> None:
    """Two campaigns of one store each see only their own rulings."""
    played(store)
    store.create_campaign("Ward", "sims", gm="Lotus")
    store.execute("Ward", StartSession())
    store.execute("Ward", StartScene(stage="The ward"))

    assert ["Lab", "Ward"] == [c.name for c in store.directory().campaigns]
    assert (9, 3) == (store.campaign("Lab").rulings, store.campaign("Ward").rulings)
