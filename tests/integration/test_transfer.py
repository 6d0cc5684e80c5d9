"""Export and import: a verified round trip into any store, and tampered files refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.errors import DomainError
from domain.lifecycle import EndScene, EndSession
from domain.rulesets.code_green.commands import Adapt, DeclareTest
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count, place, scene_with_s1


def played(engine: Engine) -> list[str]:
    """A sealed session (rulings 1-9) exported as lines."""
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    engine.execute(
        "Lab",
        DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True),
        dice=DiceSpec(faces=(2, 5)),
    )
    engine.execute("Lab", Adapt(character=who, source="R1C1", destination="R1C2"))
    engine.execute("Lab", EndScene())
    engine.execute("Lab", EndSession())
    return list(engine.export("Lab", audience=GMS))


@pytest.fixture
def lines(frozen: None) -> list[str]:
    with Engine() as engine:
        return played(engine)


def refused(target: Engine, lines: list[str]) -> DomainError:
    before = event_count(target)
    with pytest.raises(DomainError) as error:
        target.import_campaign(lines)
    assert before == event_count(target)
    return error.value


def test_a_round_trip_gives_the_same_digest_and_state(any_engine: Engine, tmp_path: Path) -> None:
    """Memory -> file store (and back): same verify digest, same sheets, same log."""
    lines = played(any_engine)
    with Engine(str(tmp_path / "copy.db")) as copy:
        imported = copy.import_campaign(lines)
        assert any_engine.verify("Lab").digest == imported.digest == copy.verify("Lab").digest
        assert copy.verify("Lab").intact
        assert any_engine.character("Lab", "alice", audience=GMS) == copy.character(
            "Lab", "alice", audience=GMS
        )
        assert [r.ruling for r in any_engine.log("Lab", audience=GMS)] == [
            r.ruling for r in copy.log("Lab", audience=GMS)
        ]
        assert lines == list(copy.export("Lab", audience=GMS))


@pytest.mark.parametrize("other", [False, True])
def test_an_imported_campaign_reads_as_its_original(
    tmp_path: Path, frozen: None, other: bool
) -> None:
    """The import writes the campaign's directory entry before its rows, as `init` records it
    with its first ruling: the read models take every ruling of the copy whole (they count a
    ruling's rows in the order recorded), so its recap is the original's, and verify finds its
    read models as the log gives them: every one, built by the import itself. ``other``: into
    a store holding another campaign, whose directory entry stands first (the header names where
    it stood in the original's)."""
    with Engine(str(tmp_path / "original.db")) as original:
        lines = played(original)
        recap = original.recap("Lab", 1, audience=GMS)
    with Engine(str(tmp_path / "copy.db")) as copy:
        if other:
            copy.create_campaign("Other", "code-green", gm="Sam")
        copy.import_campaign(lines)
        assert recap == copy.recap("Lab", 1, audience=GMS)
        report = copy.verify("Lab")
    every = ("recaps", "exposure", "index", "dice", "search")
    assert (True, (), every) == (report.intact, report.findings, report.models)


def test_importing_twice_is_refused(engine: Engine, lines: list[str]) -> None:
    """The same campaign cannot be imported into a store that has it."""
    engine.import_campaign(lines)
    assert "CAMPAIGN_EXISTS" == refused(engine, lines).code


def _edit(lines: list[str], index: int, change: dict[str, object]) -> list[str]:
    data = json.loads(lines[index])
    data["event"]["event"].update(change)
    return [*lines[:index], json.dumps(data), *lines[index + 1 :]]


def _index_of(lines: list[str], topic: str) -> int:
    return next(
        i for i, line in enumerate(lines) if i and json.loads(line)["topic"].endswith(topic)
    )


@pytest.mark.parametrize(
    ("damage", "line_is", "field"),
    [
        pytest.param(lambda ls: [*ls[:3], "{not json", *ls[4:]], 4, "(line)", id="not-json"),
        pytest.param(
            lambda ls: [ls[0].replace("campaign-log/1", "campaign-log/9"), *ls[1:]],
            1,
            "format",
            id="unknown-format",
        ),
        pytest.param(
            lambda ls: [*ls[:2], ls[2].replace('"topic": "', '"topic": "nowhere:'), *ls[3:]],
            3,
            "topic",
            id="unknown-topic",
        ),
        pytest.param(lambda ls: [*ls[:5], ls[4], *ls[5:]], 6, "version", id="duplicated-line"),
        pytest.param(lambda ls: ls[:-1], 1, "digest", id="cut-short"),
    ],
)
def test_malformed_files_are_refused_with_line_and_field(
    engine: Engine, lines: list[str], damage: object, line_is: int, field: str
) -> None:
    """Each broken file names the line and field at fault; nothing is imported."""
    error = refused(engine, damage(lines))  # type: ignore[operator]
    assert ("IMPORT_REFUSED", line_is, field) == (
        error.code,
        error.data["line"],
        error.data["field"],
    )


def test_an_edited_roll_is_refused_at_its_line(engine: Engine, lines: list[str]) -> None:
    """A changed result breaks the chain exactly at the edited event's line."""
    index = _index_of(lines, ":TestRolled")
    error = refused(engine, _edit(lines, index, {"result": 6}))
    assert (index + 1, "event") == (error.data["line"], error.data["field"])


def test_a_removed_event_is_refused(engine: Engine, lines: list[str]) -> None:
    """Dropping an event from the middle leaves a gap the chain walk finds."""
    index = _index_of(lines, ":Adapted")
    error = refused(engine, [*lines[:index], *lines[index + 1 :]])
    assert "event" == error.data["field"]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_changed_number_in_any_event_is_refused(lines: list[str], data: st.DataObject) -> None:
    """Changing one whole-number field of one stored event is always caught."""
    candidates = [
        (i, key)
        for i, line in enumerate(lines[1:], start=1)
        for key, value in json.loads(line)["event"]["event"].items()
        if isinstance(value, int) and not isinstance(value, bool)
    ]
    index, key = data.draw(st.sampled_from(candidates))
    value = json.loads(lines[index])["event"]["event"][key]
    with Engine() as target:
        error = refused(target, _edit(lines, index, {key: value + data.draw(st.integers(1, 5))}))
    assert "IMPORT_REFUSED" == error.code


@pytest.mark.parametrize("collecting", [True, False])
def test_an_import_leaves_the_garbage_collector_as_it_found_it(
    engine: Engine, lines: list[str], collecting: bool
) -> None:
    """The collector is paused while an import holds its rows, and restored after it, whether
    the import lands or is refused."""
    import gc

    was = gc.isenabled()
    try:
        (gc.enable if collecting else gc.disable)()
        engine.import_campaign(lines)
        assert gc.isenabled() is collecting
        refused(engine, lines)
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()


def test_rows_moved_out_of_their_ruling_are_refused(engine: Engine, lines: list[str]) -> None:
    """A ruling's header moved after the next ruling's first row (of another stream, so every
    chain still holds): the rows no longer make whole rulings as the reads take them."""
    rows = [json.loads(line) for line in lines]
    at = next(
        i
        for i in range(2, len(rows) - 1)
        if rows[i]["topic"].endswith(":RulingMade") and rows[i + 1]["stream"] != rows[i]["stream"]
    )
    moved = [*lines[:at], lines[at + 1], lines[at], *lines[at + 2 :]]
    error = refused(engine, moved)
    assert "than its header lists" in error.reason
    assert f"line {at + 2}:" in error.reason
