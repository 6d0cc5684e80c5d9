"""Two engines on one store (a SQLite file, a PostgreSQL schema): a writer that loses the race
re-decides from fresh state. On PostgreSQL the loser saved on the connection it holds the
campaign's lock on: the refused insert is rolled back there, and the lock let go."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from domain import lifecycle
from domain.audience import GMS
from domain.commands import Change, View
from domain.dice import DiceSource, Die
from domain.errors import DomainError
from domain.lifecycle import AddNote
from domain.rulesets.code_green.commands import DeclareTest, RollTest
from engine import Engine, WouldWait, not_waiting
from engine.corrections import redecide
from engine.dice.sources import DiceSpec, SeededDice
from engine.write import ledger
from tests.conftest import TABLE, event_count, place, scene_with_s1
from tests.postgres import fresh_schema
from tests.stores import no_wait

Engines = tuple[Engine, Engine]


@pytest.fixture(params=["sqlite", "postgres"])
def engines(frozen: None, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Engines]:
    """Two engines (two connections) on one store; retries do not wait. The second one does
    not wait for the write lock, so it can write while the first holds it (a lost race)."""
    with contextlib.ExitStack() as stack:
        if request.param == "sqlite":
            db = str(tmp_path / "campaign.db")
        else:
            db = stack.enter_context(fresh_schema())
        first = stack.enter_context(Engine(db, backoff=no_wait))
        second = stack.enter_context(Engine(db, backoff=no_wait, lock_writes=False))
        yield first, second


def rows(engine: Engine) -> int:
    """The events the store holds, counted (a PostgreSQL insert refused for its version has
    used up notification ids all the same, so the largest id is not the count)."""
    return len(engine.store.recorder.select_notifications(start=1, limit=10**6))


def declared(engine: Engine) -> None:
    """Rulings 1-6 of 'Lab': a scene, one S1 character placed, a test declared (pool 2)."""
    scene_with_s1(engine)
    place(engine, "31415", "R1C1", "R2C2", "R3C3")
    engine.execute("Lab", DeclareTest(character="31415", form="Legs", function="Invulnerable"))


def interleave(
    monkeypatch: pytest.MonkeyPatch, command: type[Any], write: Callable[[], object]
) -> list[object]:
    """Make ``command.decide`` run ``write`` (the other engine) on its first call, between the
    load and the save. Returns the commands decided, one per attempt."""
    original = command.decide
    attempts: list[object] = []

    def decide(self: Any, view: View, dice: DiceSource) -> Sequence[Change]:
        attempts.append(self)
        if len(attempts) == 1:
            write()
        return original(self, view, dice)  # type: ignore[no-any-return]

    monkeypatch.setattr(command, "decide", decide)
    return attempts


def bobs_note(engine: Engine) -> Callable[[], object]:
    def write() -> object:
        return engine.execute("Lab", AddNote(text="bob was here"), actor="bob")

    return write


def summary(engine: Engine) -> list[tuple[int, str, str]]:
    return [
        (e.ruling.number, e.ruling.command, e.header.actor) for e in engine.log("Lab", audience=GMS)
    ]


def test_a_write_between_load_and_save_is_retried(
    engines: Engines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other engine's ruling lands first; this one retries and takes the next number."""
    first, second = engines
    attempts = interleave(monkeypatch, RollTest, bobs_note(second))
    declared(first)

    result = first.execute("Lab", RollTest(character="31415"), actor="alice")

    assert 2 == len(attempts)
    assert (8, 8) == (result.number, first.campaign("Lab").rulings)
    assert [(7, "note", "bob"), (8, "roll", "alice")] == summary(second)[-2:]


def test_a_lost_race_that_must_not_wait_is_handed_back_not_backed_off(
    engines: Engines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a ``not_waiting`` block (a server's event loop) the lost race is not retried after a
    backoff: ``WouldWait``, and nothing of it saved (the other engine's note alone)."""
    first, second = engines
    declared(first)
    waited: list[int] = []
    first.ledger.backoff = waited.append
    elsewhere = contextvars.Context()  # bob writes outside the block, as another process would
    interleave(monkeypatch, RollTest, partial(elsewhere.run, bobs_note(second)))
    with pytest.raises(WouldWait), not_waiting():
        first.execute("Lab", RollTest(character="31415"), actor="alice")
    assert [] == waited
    assert (7, (7, "note", "bob")) == (first.campaign("Lab").rulings, summary(first)[-1])


def test_a_retried_roll_records_the_entered_faces_once(
    engines: Engines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Physical faces are handed out afresh on each attempt: the ruling records them once."""
    first, second = engines
    declared(first)
    interleave(monkeypatch, RollTest, bobs_note(second))

    result = first.execute("Lab", RollTest(), dice=DiceSpec(faces=(2, 5)))
    rolled = [r.event for r in result.records if r.originator_id != result.campaign.id]

    assert (Die(6, 2), Die(6, 5)) == result.dice
    assert [(2, 5)] == [e.dice for e in rolled]  # type: ignore[attr-defined]
    assert first.character("Lab", "31415", audience=GMS).adaptation_pending


def test_a_retried_seeded_roll_rolls_as_if_undisturbed(
    engines: Engines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeded dice restart from their seed on the retry: the faces are the seed's first two."""
    first, second = engines
    declared(first)
    interleave(monkeypatch, RollTest, bobs_note(second))
    seeded = SeededDice(7)

    result = first.execute("Lab", RollTest(), dice=DiceSpec(seed=7))

    assert (Die(6, seeded.roll(6)), Die(6, seeded.roll(6))) == result.dice
    assert 7 == first.log("Lab", audience=GMS)[-1].ruling.seed


def test_a_command_that_always_conflicts_gives_up_with_concurrent_writes(
    engines: Engines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After MAX_ATTEMPTS lost races: CONCURRENT_WRITES, and only the other writer's rulings."""
    first, second = engines
    first.create_campaign("Lab", "code-green", members=TABLE)
    before = rows(first)
    original = AddNote.decide
    alices: list[AddNote] = []

    def decide(self: AddNote, view: View, dice: DiceSource) -> Sequence[Change]:
        if self.text == "alice's note":  # bob's own notes are decided undisturbed
            alices.append(self)
            second.execute("Lab", AddNote(text="bob was here"), actor="bob")
        return original(self, view, dice)

    monkeypatch.setattr(AddNote, "decide", decide)

    with pytest.raises(DomainError) as refused:
        first.execute("Lab", AddNote(text="alice's note"), actor="alice")

    log = summary(first)
    assert ("CONCURRENT_WRITES", {"attempts": ledger.MAX_ATTEMPTS}) == (
        refused.value.code,
        refused.value.data,
    )
    assert ledger.MAX_ATTEMPTS == len(alices)
    assert before + 2 * ledger.MAX_ATTEMPTS == rows(first)
    assert list(range(1, ledger.MAX_ATTEMPTS + 2)) == [n for n, _, _ in log]
    assert "alice" not in {actor for _, _, actor in log}


def test_writers_on_different_campaigns_do_not_conflict(
    engines: Engines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ruling in another campaign of the same store does not make this one retry."""
    first, second = engines
    declared(first)
    first.create_campaign("Ward", "code-green", members=TABLE)

    def write() -> object:
        return second.execute("Ward", AddNote(text="elsewhere"), actor="bob")

    attempts = interleave(monkeypatch, RollTest, write)

    first.execute("Lab", RollTest(), dice=DiceSpec(faces=(2, 5)))

    assert 1 == len(attempts)
    assert (2, 7) == (first.campaign("Ward").rulings, first.campaign("Lab").rulings)


def test_concurrent_campaign_creation_is_retried(
    frozen: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two campaigns created at once both land in the directory (the loser retries)."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first, Engine(db, lock_writes=False) as second:
        original = lifecycle.create_campaign  # the engine imports it when `init` runs
        calls: list[str] = []

        def create(*args: Any, **kwargs: Any) -> Any:
            calls.append(kwargs["name"])
            if calls == ["Lab"]:
                second.create_campaign("Ward", "code-green")
            return original(*args, **kwargs)

        monkeypatch.setattr(lifecycle, "create_campaign", create)

        result = first.create_campaign("Lab", "code-green")

        assert ["Lab", "Ward", "Lab"] == calls
        assert 1 == result.number
        assert ["Ward", "Lab"] == [c.name for c in second.directory().campaigns]


def test_racing_for_a_campaign_name_loses_with_campaign_exists(
    frozen: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If another writer takes the name first, the retry is refused and appends nothing."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first, Engine(db, lock_writes=False) as second:
        original = lifecycle.create_campaign  # the engine imports it when `init` runs
        calls: list[str] = []

        def create(*args: Any, **kwargs: Any) -> Any:
            calls.append(kwargs["gm"])
            if calls == ["Mo"]:
                second.create_campaign("Lab", "code-green", gm="Jo")
            return original(*args, **kwargs)

        monkeypatch.setattr(lifecycle, "create_campaign", create)

        with pytest.raises(DomainError) as refused:
            first.create_campaign("Lab", "code-green", gm="Mo")

        assert "CAMPAIGN_EXISTS" == refused.value.code
        assert 3 == event_count(first)
        assert "Jo" == first.campaign("Lab").gm


@pytest.mark.parametrize("asked", [2, None], ids=["by-number", "the-latest"])
def test_an_undo_racing_another_ruling_is_retried(
    engines: Engines, monkeypatch: pytest.MonkeyPatch, asked: int | None
) -> None:
    """An undo whose campaign changed before it saved waits as any command does, re-checks and
    records after the other ruling, and still undoes the ruling the GM meant (not one recorded
    meanwhile)."""
    first, second = engines
    first.create_campaign("Lab", "code-green", members=TABLE)
    first.execute("Lab", AddNote(text="mistake"))
    original = redecide.Redecider.walk
    calls: list[int] = []

    def walk(walker: Any, made: Any, target: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(target.number)
        if len(calls) == 1:
            second.execute("Lab", AddNote(text="bob was here"), actor="bob")
        return original(walker, made, target, *args, **kwargs)

    monkeypatch.setattr(redecide.Redecider, "walk", walk)
    waits: list[int] = []
    monkeypatch.setattr(first.ledger, "backoff", waits.append)

    result = first.undo("Lab", asked, reason="mistake")

    assert [2, 2] == calls
    assert [1] == waits  # the engine's one retry policy: its backoff before the retry
    assert 4 == result.number
    assert frozenset({2}) == first.campaign("Lab").retracted
    assert [(3, "note", "bob"), (4, "undo", "GM")] == summary(first)[-2:]
