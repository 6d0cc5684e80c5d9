"""Amending a ruling: corrected parameters, the same dice, consequences replaced in place."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.errors import DomainError
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.code_green.commands import Adapt, CreateCharacter, DeclareTest, PlaceTokens
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.store import streams
from engine.write import ledger
from tests.conftest import S1_FORM, S1_FUNCTION, TABLE, event_count

PLACE, TEST, ADAPT = 5, 6, 7


def counter_ids() -> Callable[[], UUID]:
    numbers: Iterator[int] = itertools.count(1)
    return lambda: UUID(int=next(numbers))


def table(engine: Engine, form: str, function: str, faces: tuple[int, ...]) -> None:
    """Rulings 1-7: campaign, session, scene, alice (S1), tokens R1C1 R2C2 R3C3, a rolled test
    with the given pair, and an adaptation R3C3 -> R3C1 that any of the pairs leaves legal."""
    engine.create_campaign("Lab", "code-green", members=TABLE)
    engine.execute("Lab", StartSession())
    engine.execute("Lab", StartScene(stage="The lab wakes up"))
    create = CreateCharacter(player="alice", form=S1_FORM, function=S1_FUNCTION)
    engine.execute("Lab", create, dice=DiceSpec(faces=(3, 1, 4, 1, 5)))
    engine.execute("Lab", PlaceTokens(character="alice", squares=("R1C1", "R2C2", "R3C3")))
    engine.execute(
        "Lab",
        DeclareTest(character="alice", form=form, function=function, roll=True),
        dice=DiceSpec(faces=faces),
    )
    engine.execute("Lab", Adapt(character="alice", source="R3C3", destination="R3C1"))


def pool(form: str, function: str) -> int:
    row, column = S1_FORM.index(form) + 1, S1_FUNCTION.index(function) + 1
    tokens = {(1, 1), (2, 2), (3, 3)}
    return sum(1 for r, c in tokens if r == row or c == column)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    original=st.tuples(st.sampled_from(S1_FORM), st.sampled_from(S1_FUNCTION)),
    corrected=st.tuples(st.sampled_from(S1_FORM), st.sampled_from(S1_FUNCTION)),
    faces=st.lists(st.integers(1, 6), min_size=2, max_size=2),
)
def test_an_amended_history_equals_the_history_written_right(
    frozen: None, original: tuple[str, str], corrected: tuple[str, str], faces: list[int]
) -> None:
    """Amend, then load == load of the history written correctly in the first place (same dice)."""
    rolled, needed = pool(*original), pool(*corrected)
    extra = DiceSpec(faces=tuple(faces[rolled:needed])) if needed > rolled else None
    with Engine(new_id=counter_ids()) as amended, Engine(new_id=counter_ids()) as direct:
        table(amended, *original, faces=tuple(faces[:rolled]))
        change = {"form": corrected[0], "function": corrected[1]}
        result = amended.amend("Lab", TEST, change, reason="the other pair", dice=extra)
        used = tuple(d.face for d in result.dice)
        table(direct, *corrected, faces=used)

        assert tuple(faces[:needed]) == used
        assert direct.character("Lab", "alice", audience=GMS) == amended.character(
            "Lab", "alice", audience=GMS
        )
        assert direct.campaign("Lab").roster == amended.campaign("Lab").roster


def test_the_recorded_dice_are_kept(engine: Engine) -> None:
    """The correction reads the faces that were rolled; no die is rolled again."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    result = engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail")
    assert (2, 5) == tuple(d.face for d in result.dice)
    assert (
        "Tail"
        == engine.character_at("Lab", "alice", ruling=TEST, corrected=True, audience=GMS).test.form
    )


def test_a_die_never_rolled_comes_from_the_dice_given(engine: Engine) -> None:
    """A bigger pool takes the recorded faces first, then a face entered for the amendment."""
    table(engine, "Legs", "Cryptic", faces=(4,))  # only R1C1 counts: pool 1
    before = event_count(engine)
    change = {"function": "Invulnerable"}  # R1C1 and R2C2 count: pool 2
    with pytest.raises(DomainError) as refused:
        engine.amend("Lab", TEST, change, reason="x", dice=DiceSpec(faces=()))
    assert "NOT_ENOUGH_DICE" == refused.value.code
    assert before == event_count(engine)

    result = engine.amend("Lab", TEST, change, reason="invulnerable", dice=DiceSpec(faces=(6,)))

    assert (4, 6) == tuple(d.face for d in result.dice)
    rolled = engine.log("Lab", audience=GMS)[TEST - 1].amendments[0].events[-1].event
    assert 6 == rolled.result  # type: ignore[attr-defined]


def test_the_log_keeps_the_original_and_the_amendment(engine: Engine) -> None:
    """The original events stay; the amendment names its ruling, reason and new events."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail", actor="Rosa")
    logged = {entry.ruling.number: entry for entry in engine.log("Lab", audience=GMS)}
    test = logged[TEST]
    assert 2 == len(test.events)
    (amendment,) = test.amendments
    assert (8, "Rosa", "tail") == (amendment.by, amendment.actor, amendment.reason)
    assert "Tail" == amendment.events[0].event.form  # type: ignore[attr-defined]
    assert "amend" == logged[8].ruling.command


def test_time_travel_shows_the_past_as_recorded_and_as_corrected(engine: Engine) -> None:
    """After ruling 6, as recorded then: Legs; as corrected: Tail."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail")
    then = engine.character_at("Lab", "alice", ruling=TEST, audience=GMS)
    corrected = engine.character_at("Lab", "alice", ruling=TEST, corrected=True, audience=GMS)
    assert ("Legs", "Tail") == (then.test.form, corrected.test.form)


def test_later_rulings_that_no_longer_fit_are_named(engine: Engine) -> None:
    """A placement the later test and adaptation stood on conflicts; with_dependents undoes them."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    before = event_count(engine)
    change = {"squares": "R1C1,R2C2,R3C2"}
    with pytest.raises(DomainError) as refused:
        engine.amend("Lab", PLACE, change, reason="misplaced")
    # R3C2 lies in Invulnerable's column: the test's pool and the adaptation both change.
    assert ("AMENDMENT_CONFLICTS", "6, 7") == (refused.value.code, refused.value.data["dependents"])
    assert before == event_count(engine)

    engine.amend("Lab", PLACE, change, reason="misplaced", with_dependents=True)

    alice = engine.character("Lab", "alice", audience=GMS)
    assert ({"R1C1", "R2C2", "R3C2"}, 0) == (set(alice.tokens), alice.tests)
    assert frozenset({TEST, ADAPT}) == engine.campaign("Lab").retracted


@pytest.mark.parametrize(
    ("ruling", "changes", "code"),
    [
        pytest.param(1, {}, "CANNOT_AMEND", id="creation"),
        pytest.param(99, {}, "UNKNOWN_RULING", id="unknown"),
        pytest.param(TEST, {"colour": "red"}, "UNKNOWN_PARAMETER", id="unknown-parameter"),
        pytest.param(TEST, {"roll": "maybe"}, "INVALID_PARAMETER", id="bad-value"),
        pytest.param(TEST, {"function": "Toxic"}, "TRAIT_NOT_ON_SHEET", id="rules-still-apply"),
    ],
)
def test_bad_amendments_are_refused_and_append_nothing(
    engine: Engine, ruling: int, changes: dict[str, str], code: str
) -> None:
    """Each refusal has its code and records nothing."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    before = event_count(engine)
    with pytest.raises(DomainError) as refused:
        engine.amend("Lab", ruling, changes, reason="because")
    assert code == refused.value.code
    assert before == event_count(engine)


def test_amendments_and_undos_of_each_other_are_refused(engine: Engine) -> None:
    """An amendment is corrected by amending the ruling again; an undone ruling is not amended."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail")
    with pytest.raises(DomainError) as undo_amend:
        engine.undo("Lab", 8, reason="no")
    with pytest.raises(DomainError) as amend_amend:
        engine.amend("Lab", 8, {}, reason="no")
    engine.undo("Lab", ADAPT, reason="no adapt")
    with pytest.raises(DomainError) as amend_undone:
        engine.amend("Lab", ADAPT, {}, reason="no")
    assert ["CANNOT_UNDO", "CANNOT_AMEND", "CANNOT_AMEND"] == [
        e.value.code for e in (undo_amend, amend_amend, amend_undone)
    ]


def test_amending_twice_keeps_the_last_and_undo_removes_both(engine: Engine) -> None:
    """The latest amendment is in force; undoing the ruling voids it and its amendments."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail")
    engine.amend("Lab", TEST, {"form": "Teeth", "function": "Phasing"}, reason="teeth")
    assert (
        "Teeth"
        == engine.character_at("Lab", "alice", ruling=TEST, corrected=True, audience=GMS).test.form
    )
    engine.undo("Lab", ADAPT, reason="no adapt")
    engine.undo("Lab", TEST, reason="no test at all")
    alice = engine.character("Lab", "alice", audience=GMS)
    assert (0, None) == (alice.tests, alice.test)


def test_an_amendment_reaching_behind_a_snapshot_replays_the_stream(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot taken after the amended ruling is not trusted: the stream is replayed whole."""
    monkeypatch.setattr("engine.write.ledger.SNAPSHOT_INTERVAL", 3)
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail")
    assert (
        "Tail"
        == engine.character_at("Lab", "alice", ruling=TEST, corrected=True, audience=GMS).test.form
    )
    alice = engine.character("Lab", "alice", audience=GMS)
    assert (1, None) == (alice.tests, alice.test)
    assert {"R1C1", "R2C2", "R3C1"} == set(alice.tokens)


def _stored(engine: Engine) -> list[tuple[object, ...]]:
    rows = engine.store.recorder.select_notifications(start=1, limit=10_000)
    return [(n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in rows]


def test_undo_and_amend_only_append(engine: Engine) -> None:
    """Every stored row before an undo or an amendment is still there, byte for byte."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    before = _stored(engine)
    engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail")
    middle = _stored(engine)
    engine.undo("Lab", reason="no adaptation")
    after = _stored(engine)
    assert before == middle[: len(before)]
    assert middle == after[: len(middle)]
    assert len(before) < len(middle) < len(after)


def test_the_two_views_differ_exactly_where_a_later_correction_reaches(engine: Engine) -> None:
    """Before the amended ruling the views agree; after it they differ while the correction shows
    in the state (the open test), and agree again once the adaptation closed it, and after."""
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail")  # 8
    differs = [
        engine.character_at("Lab", "alice", ruling=n, audience=GMS)
        != engine.character_at("Lab", "alice", ruling=n, corrected=True, audience=GMS)
        for n in range(4, 9)
    ]
    assert [False, False, True, False, False] == differs


def test_loads_after_an_amendment_start_from_a_snapshot(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An amendment places events before the latest snapshot, so the next load folds the whole
    stream once and leaves a snapshot at its head: the loads after it start from that one."""
    monkeypatch.setattr(ledger, "SNAPSHOT_INTERVAL", 1000)  # only loads write snapshots
    monkeypatch.setattr(streams, "STALE", 2)
    table(engine, "Legs", "Invulnerable", faces=(2, 5))
    engine.amend("Lab", TEST, {"form": "Tail", "function": "Cryptic"}, reason="tail")
    alice = engine.campaign("Lab").find("alice").character_id
    folded = [0]

    def counting(event: object, state: object) -> object:
        folded[0] += 1
        return engine.ruleset(engine.campaign("Lab")).evolve_character(event, state)

    loaded = engine.streams.load(alice, counting)
    assert 0 == folded[0]
    assert (
        engine.character_at("Lab", "alice", ruling=ADAPT, corrected=True, audience=GMS)
        == loaded.state
    )
