"""`campaign import` of files written to do harm: every one refused with exit 2 and one line,
nothing appended, no campaign added; and a fuzz of damaged exports that either import a campaign
that verifies and loads, or are refused with a DomainError, never anything else.

Most hostile files here are made self-consistent first, as a forger would (``rechained``: every
hash link and the header's digest recomputed), so each is refused by the rule it breaks, not by
its chain."""

from __future__ import annotations

import copy
import io
import json
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import StoredEvent
from freezegun import freeze_time
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cli.history import campaign_text
from cli.main import campaign as campaign_cli
from cli.systems import sheets
from domain import events as shared_events
from domain.audience import GMS
from domain.errors import DomainError, FutureEventVersion
from domain.events import Event
from domain.lifecycle import AddNote, EndScene, EndSession
from domain.rulesets import SYSTEMS
from domain.rulesets.code_green.commands import Adapt, DeclareTest
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.store.chain import genesis, link, seal
from engine.store.mapper import EventMapper, canonical_json, with_chain
from engine.transfer.export_import import (
    MAX_DEPTH,
    MAX_LINE,
    Imported,
    event_classes,
    file_lines,
)
from engine.transfer.format import too_deep as _too_deep
from engine.transfer.player_check import verify_export
from tests.conftest import FROZEN_AT, event_count, place, scene_with_s1

Items = list[Any]  # a file: the header and rows as JSON objects (or raw lines, str or bytes)


def _played(*, sealed: bool) -> list[str]:
    """Campaign 'Lab' (Code Green): a character, a test rolled and adapted, a note amended,
    another undone; its session ended and sealed, or still running (no seal: a forger
    recomputes links, not the seals a GM posted)."""
    with freeze_time(FROZEN_AT), Engine() as engine:
        who = scene_with_s1(engine)
        place(engine, who, "R1C1", "R2C2", "R3C3")
        test = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
        engine.execute("Lab", test, dice=DiceSpec(faces=(2, 5)))
        engine.execute("Lab", Adapt(character=who, source="R1C1", destination="R1C2"))
        engine.execute("Lab", AddNote(text="the guard was asleep"))
        engine.amend("Lab", 8, {"text": "the guard was awake"}, reason="misheard")
        engine.execute("Lab", AddNote(text="said twice"))
        engine.undo("Lab", reason="said twice")
        if sealed:
            engine.execute("Lab", EndScene())
            engine.execute("Lab", EndSession())
        return list(engine.export("Lab", audience=GMS))


RUNNING = _played(sealed=False)
SEALED = _played(sealed=True)


def items_of(lines: list[str]) -> Items:
    return [json.loads(line) for line in lines]


def lines_of(items: Items) -> list[str | bytes]:
    return [i if isinstance(i, str | bytes) else json.dumps(i) for i in items]


def rechained(items: Items) -> Items:
    """The file made self-consistent again: every link recomputed over each row's bytes, in
    each stream's version order, and the header's event count and digest."""
    header, rows = items[0], items[1:]
    heads: dict[UUID, tuple[int, str]] = {}
    for row in sorted(rows, key=lambda r: (r["stream"], r["version"])):
        stream = UUID(row["stream"])
        body = {key: value for key, value in row["event"].items() if key != "chain"}
        previous = heads[stream][1] if stream in heads else genesis(stream)
        chain = link(previous, str(stream), row["version"], row["topic"], canonical_json(body))
        row["event"] = {**body, "chain": chain}
        heads[stream] = (row["version"], chain)
    header["events"], header["digest"] = len(rows), seal(heads)
    return items


def at(items: Items, topic: str, nth: int = 0) -> int:
    """The index (line number less one) of the ``nth`` row of a topic ending ``topic``."""
    found = [i for i, item in enumerate(items) if i and item["topic"].endswith(":" + topic)]
    return found[nth]


def payload(items: Items, index: int) -> dict[str, Any]:
    event: dict[str, Any] = items[index]["event"]["event"]
    return event


# --- The hostile files ---------------------------------------------------------------------------


def retopic(topic: str) -> Callable[[Items], tuple[Items, int]]:
    def make(items: Items) -> tuple[Items, int]:
        index = at(items, "NoteAdded")
        items[index]["topic"] = topic
        return rechained(items), index + 1

    return make


def nested_topic(items: Items) -> tuple[Items, int]:
    """An amendment whose replacement event names a module to import."""
    index = at(items, "NoteAdded")
    items[index]["topic"] = "domain.events:RulingAmended"
    items[index]["event"]["event"] = {
        "ruling": 1,
        "reason": "x",
        "versions": [],
        "events": [{"topic": "this:s", "event": {}}],
        "redecided": False,
    }
    return rechained(items), index + 1


def command_topic(items: Items) -> tuple[Items, int]:
    """A ruling whose recorded command (which undo and amend decide again) names a module."""
    index = at(items, "RulingMade", -1)
    payload(items, index)["params"] = json.dumps({"topic": "this:s", "args": {}})
    return rechained(items), index + 1


def renamed(name: str, system: str) -> Callable[[Items], tuple[Items, int]]:
    def make(items: Items) -> tuple[Items, int]:
        items[0].update(name=name, system=system)
        payload(items, at(items, "CampaignCreated")).update(name=name, system=system)
        return rechained(items), 1

    return make


def header_only(items: Items) -> tuple[Items, int]:
    """A valid name in the header that is not the campaign's."""
    items[0]["name"] = "Somebody Else's"
    return rechained(items), 2


def future_version(items: Items) -> tuple[Items, int]:
    index = at(items, "NoteAdded")
    items[index]["event"]["class_version"] = 2
    return rechained(items), index + 1


def binary(items: Items) -> tuple[Items, int]:
    return [b"\x89PNG\r\n\x1a\n", b"\x00\x00\x00\rIHDR\x00\x00\x01\xff\xfe"], 1


def binary_line(items: Items) -> tuple[Items, int]:
    lines = lines_of(items)
    return [*lines[:2], b'{"stream": "\xff\xfe"}', *lines[3:]], 3


def deep(items: Items) -> tuple[Items, int]:
    """100,000 levels of nesting, in a row's event."""
    row = '{"stream": "%s", "version": 1, "topic": "x", "event": %s}'
    nested = "[" * 100_000 + "]" * 100_000
    return [*lines_of(items)[:1], row % (items[1]["stream"], nested)], 2


def deep_objects(items: Items) -> tuple[Items, int]:
    return [*lines_of(items)[:3], '{"a":' * 100_000 + "1" + "}" * 100_000], 4


def deep_params(items: Items) -> tuple[Items, int]:
    """The nesting hidden in a ruling's params, a JSON text inside the line."""
    index = at(items, "RulingMade", -1)
    payload(items, index)["params"] = "[" * 100_000 + "]" * 100_000
    return rechained(items), index + 1


def dice_without_session(items: Items) -> tuple[Items, int]:
    index = at(items, "DiceCommitted")
    del payload(items, index)["session"]
    return rechained(items), index + 1


def dice_session_as_text(items: Items) -> tuple[Items, int]:
    index = at(items, "DiceCommitted")
    payload(items, index)["session"] = "1"
    return rechained(items), index + 1


def oversized(items: Items) -> tuple[Items, int]:
    index = at(items, "NoteAdded")
    payload(items, index)["text"] = "x" * MAX_LINE
    return rechained(items), index + 1


def out_of_order(items: Items) -> tuple[Items, int]:
    """A history that does not replay: the session's start recorded as a scene's end."""
    index = at(items, "SessionStarted")
    items[index]["topic"] = "domain.events:SceneEnded"
    items[index]["event"]["event"].pop("physical_dice")  # a scene's end has no such field
    return rechained(items), index + 1


def stray_stream(items: Items) -> tuple[Items, int]:
    """A stream no ruling of the campaign wrote to (another campaign's, say)."""
    row = copy.deepcopy(items[at(items, "NoteAdded")])
    row.update(stream=str(uuid4()), version=1)
    return rechained([*items, row]), len(items) + 1


HOSTILE = [
    pytest.param(retopic("os:system"), "IMPORT_REFUSED", "'os:system'", id="os-system"),
    pytest.param(
        retopic("eventsourcing.utils:Environment"),
        "IMPORT_REFUSED",
        "'eventsourcing.utils:Environment'",
        id="eventsourcing-environment",
    ),
    pytest.param(retopic("this:s"), "IMPORT_REFUSED", "'this:s'", id="unimported-module"),
    pytest.param(nested_topic, "IMPORT_REFUSED", "'this:s'", id="nested-event-topic"),
    pytest.param(command_topic, "IMPORT_REFUSED", "'this:s'", id="command-topic"),
    pytest.param(renamed("x" * 360, "code-green"), "INVALID_CAMPAIGN_NAME", "", id="360-chars"),
    pytest.param(renamed("Lab", "dnd"), "UNKNOWN_SYSTEM", "'dnd'", id="system-dnd"),
    pytest.param(header_only, "IMPORT_REFUSED", "header", id="header-not-the-campaign"),
    pytest.param(future_version, "FUTURE_EVENT_VERSION", "class_version 2", id="future-version"),
    pytest.param(binary, "IMPORT_NOT_TEXT", "", id="binary-file"),
    pytest.param(binary_line, "IMPORT_NOT_TEXT", "", id="binary-line"),
    pytest.param(deep, "IMPORT_NESTED_TOO_DEEP", "64", id="100k-deep-arrays"),
    pytest.param(deep_objects, "IMPORT_NESTED_TOO_DEEP", "64", id="100k-deep-objects"),
    pytest.param(deep_params, "IMPORT_NESTED_TOO_DEEP", "64", id="100k-deep-params"),
    pytest.param(dice_without_session, "IMPORT_REFUSED", "DiceCommitted", id="dice-no-session"),
    pytest.param(dice_session_as_text, "IMPORT_REFUSED", "session", id="dice-session-text"),
    pytest.param(oversized, "IMPORT_LINE_TOO_LONG", "1048576", id="oversized-line"),
    pytest.param(out_of_order, "IMPORT_REFUSED", "does not replay", id="does-not-replay"),
    pytest.param(stray_stream, "IMPORT_REFUSED", "no ruling", id="stray-stream"),
]


def as_file(lines: list[str | bytes]) -> bytes:
    return b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines)


def state_of(engine: Engine) -> tuple[int, list[str]]:
    """What a refused import must leave alone: the events stored and the campaigns listed."""
    return event_count(engine), [c.name for c in engine.directory().campaigns]


@pytest.fixture
def target(frozen: None) -> Iterator[Engine]:
    """A store holding another campaign."""
    with Engine() as engine:
        engine.create_campaign("Other", "sims")
        yield engine


@pytest.mark.parametrize(("hostile", "code", "named"), HOSTILE)
def test_a_hostile_file_is_refused_by_the_engine(
    target: Engine, hostile: Callable[[Items], tuple[Items, int]], code: str, named: str
) -> None:
    """Refused with its own code, naming the line (and what is wrong); nothing is written and
    no module a topic names is imported."""
    items, line = hostile(items_of(RUNNING))
    before = state_of(target)
    with pytest.raises(DomainError) as refused:
        target.import_campaign(lines_of(items))
    error = refused.value
    assert (code, before) == (error.code, state_of(target))
    assert named in error.reason
    assert "\n" not in error.reason
    if code not in ("INVALID_CAMPAIGN_NAME", "UNKNOWN_SYSTEM"):  # init's own refusals
        assert error.data.get("line") == line or error.reason.startswith(f"line {line}:")
    assert "this" not in sys.modules


@pytest.mark.parametrize(("hostile", "code", "named"), HOSTILE)
def test_a_hostile_file_is_refused_by_campaign_import(
    tmp_path: Path,
    frozen: None,
    hostile: Callable[[Items], tuple[Items, int]],
    code: str,
    named: str,
) -> None:
    """`campaign import FILE`: exit 2, one line on stderr with the code, the store unchanged."""
    db, path = tmp_path / "club.db", tmp_path / "hostile.jsonl"
    with Engine(str(db)) as engine:
        engine.create_campaign("Other", "sims")
        before = state_of(engine)
    items, _ = hostile(items_of(RUNNING))
    path.write_bytes(as_file(lines_of(items)))
    result = CliRunner().invoke(campaign_cli, ["--db", str(db), "import", str(path)])
    assert 2 == result.exit_code, result.output
    assert [f"error: {code}"] == [line[: len(code) + 7] for line in result.stderr.splitlines()]
    with Engine(str(db)) as engine:
        assert before == state_of(engine)


def test_a_real_export_still_imports_through_the_cli(tmp_path: Path, frozen: None) -> None:
    """The same path, with the file as exported: imported, and it verifies."""
    db, path = tmp_path / "club.db", tmp_path / "lab.jsonl"
    path.write_bytes(as_file(list(SEALED)))
    result = CliRunner().invoke(campaign_cli, ["--db", str(db), "import", str(path)])
    assert 0 == result.exit_code, result.output
    with Engine(str(db)) as engine:
        assert engine.verify("Lab").intact


def test_a_line_is_never_read_past_its_bound(tmp_path: Path) -> None:
    """A file of one endless line is refused after reading MAX_LINE + 1 bytes of it."""
    path = tmp_path / "endless"
    path.write_bytes(b"x" * (3 * MAX_LINE))
    with path.open("rb") as handle:
        first = next(file_lines(handle))
        assert (MAX_LINE + 1, MAX_LINE + 1) == (len(first), handle.tell())


# --- A store written by a newer version --------------------------------------------------------


def _future_note(engine: Engine) -> StoredEvent:
    """A note as a later release (NoteAdded at class_version 2) appended it to 'Lab'."""
    campaign = engine.find_campaign("Lab").campaign_id
    last = engine.streams.last(campaign)
    assert last is not None
    body = {
        "at": FROZEN_AT.isoformat(),
        "ruling": engine.campaign("Lab").rulings + 1,
        "actor": "GM",
        "session": None,
        "scene": None,
        "event": {"text": "from the future", "gm_only": False, "author": "Rosa"},
        "class_version": 2,
    }
    version = last.originator_version + 1
    topic = "domain.events:NoteAdded"
    canonical = canonical_json(body)
    chain = link(last.chain, str(campaign), version, topic, canonical)
    return StoredEvent(campaign, version, topic, with_chain(canonical, chain))


def test_a_stored_row_from_a_newer_version_is_refused_on_loading(target: Engine) -> None:
    """Decoding it names the stream and version; a command on the campaign appends nothing."""
    target.create_campaign("Lab", "code-green")
    row = _future_note(target)
    target.store.recorder.insert_events([row])
    with pytest.raises(FutureEventVersion) as refused:
        EventMapper().to_domain_event(row)
    assert f"stream {row.originator_id} version {row.originator_version}" in refused.value.reason
    before = state_of(target)
    with pytest.raises(FutureEventVersion):
        target.execute("Lab", AddNote(text="after it"))
    with pytest.raises(FutureEventVersion):
        target.campaign("Lab")
    assert before == state_of(target)


@pytest.mark.parametrize("verb", ["note 'after it'", "show", "log"])
def test_a_stored_row_from_a_newer_version_is_refused_by_the_cli(
    tmp_path: Path, frozen: None, verb: str
) -> None:
    db = tmp_path / "club.db"
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "code-green")
        engine.store.recorder.insert_events([_future_note(engine)])
        before = state_of(engine)
    result = CliRunner().invoke(
        campaign_cli, ["--db", str(db), "--campaign", "Lab", *verb.replace("'", "").split(" ", 1)]
    )
    assert 2 == result.exit_code, result.output
    assert ["error: FUTURE_EVENT_VERSION"] == [ln[:27] for ln in result.stderr.splitlines()]
    with Engine(str(db)) as engine:
        assert before == state_of(engine)


# --- What the checks take ------------------------------------------------------------------------


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_topics_taken_are_the_event_classes_of_the_system(system: str) -> None:
    """Every Event subclass of domain.events and the system's events module, and nothing else."""
    import importlib

    own = importlib.import_module(f"domain.rulesets.{SYSTEMS[system]}.events")

    def subclasses(cls: type[Event]) -> Iterator[type[Event]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    homes = {shared_events.__name__, own.__name__}
    expected = {cls for cls in subclasses(Event) if cls.__module__ in homes}
    assert expected == set(event_classes(system).values())


FIXTURE = Path(__file__).parents[1] / "fixtures" / "store-0.1.0.db"


def test_every_campaign_of_an_old_store_still_imports(tmp_path: Path) -> None:
    """Exports of a store written by 0.1.0 (one campaign per system) pass every check."""
    shutil.copy(FIXTURE, tmp_path / "old.db")
    with Engine(str(tmp_path / "old.db")) as old, Engine() as target:
        for entry in old.directory().campaigns:
            imported = target.import_campaign(list(old.export(entry.name, audience=GMS)))
            assert target.verify(entry.name).intact, imported


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(st.characters(exclude_categories=()), max_size=8)
    | st.text(alphabet='[]{}"\\', max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values, levels=st.integers(0, 80), objects=st.booleans())
def test_the_nesting_scan_agrees_with_the_parser(value: Any, levels: int, objects: bool) -> None:
    """Brackets inside text (escaped quotes and backslashes too) do not count; nesting does."""
    for _ in range(levels):
        value = {'"[': value} if objects else [value, "]}"]
    raw = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    assert _too_deep(raw) == (_depth(value) > MAX_DEPTH)


# --- Fuzz: damaged exports are imported whole or refused ----------------------------------------

TOPICS = sorted({topic for system in SYSTEMS for topic in event_classes(system)})
HOSTILE_TOPICS = ["os:system", "eventsourcing.utils:Environment", "this:s", "Event"]
FIELDS = ["stream", "version", "topic", "event"]
BODY = ["at", "ruling", "actor", "session", "scene", "class_version", "chain", "event"]
fuzz_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=()), max_size=12)
    | st.sampled_from(["R1C1", "Legs", "physical", str(UUID(int=7)), "2026-11-29T19:30:00"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


@st.composite
def mutation(draw: st.DrawFn, size: int) -> Callable[[Items], Items]:
    """One change to a file (as items): of its bytes, its lines, or one value in a line."""
    at_ = draw(st.integers(0, size - 1))
    kind = draw(
        st.sampled_from(["flip", "cut", "swap", "drop", "repeat", "topic", "field", "body"])
    )
    if kind in ("flip", "cut"):
        where, bit = draw(st.integers(0, 400)), draw(st.integers(0, 7))

        def raw(items: Items) -> Items:
            i = at_ % len(items)
            line = lines_of(items[i : i + 1])[0]
            data = line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass")
            p = where % max(1, len(data))
            if kind == "cut":
                return [*items[:i], data[:p], *items[i + 1 :]]
            flipped = data[:p] + bytes([data[p] ^ (1 << bit)]) + data[p + 1 :] if data else data
            return [*items[:i], flipped, *items[i + 1 :]]

        return raw
    if kind in ("swap", "drop", "repeat"):
        to = draw(st.integers(0, size - 1))

        def lines(items: Items) -> Items:
            items = list(items)
            i, j = at_ % len(items), to % len(items)
            if kind == "swap":
                items[i], items[j] = items[j], items[i]
            elif kind == "drop":
                del items[i]
            else:
                items.insert(j, copy.deepcopy(items[i]))
            return items

        return lines
    key = draw(st.sampled_from(FIELDS if kind == "field" else BODY) | st.text(max_size=4))
    if kind == "topic":
        value: Any = draw(st.sampled_from(TOPICS + HOSTILE_TOPICS) | st.text(max_size=20))
    else:
        value = draw(fuzz_values)
    deeper = draw(st.booleans())  # a value of the event's own payload, not of its body

    def edit(items: Items) -> Items:
        items = copy.deepcopy(items)
        item = items[at_ % len(items)]
        if not isinstance(item, dict):
            return items
        if kind == "topic":
            item["topic"] = value
        elif kind == "field":
            item[key] = value
        elif isinstance(item.get("event"), dict):
            body = item["event"]
            inner = body.get("event")
            if deeper and isinstance(inner, dict) and inner:
                inner[sorted(inner)[len(key) % len(inner)]] = value
            else:
                body[key] = value
        return items

    return edit


def _rechained_if_possible(items: Items) -> Items:
    try:
        return rechained(copy.deepcopy(items))
    except Exception:  # not a file a forger could re-link (lines unreadable): as it is
        return items


def _attempt(engine: Engine, lines: list[str | bytes]) -> tuple[Imported | None, str]:
    """The campaign imported, or the one-line reason it was refused (a DomainError)."""
    try:
        imported = engine.import_campaign(lines)
    except DomainError as error:
        event(f"{error.code} {error.data.get('field', '')}")
        return None, error.reason
    event("imported")
    return imported, ""


def _loads(engine: Engine, name: str) -> None:
    """What `verify`, `show`, `character show` and `log` read."""
    report = engine.verify(name)
    assert report.intact, (report.breaks, report.findings)
    state = engine.campaign(name)
    campaign_text(state)
    for entry in state.roster:
        sheets(state.system).text(
            engine.character(name, str(entry.character_id), audience=GMS), state
        )
    engine.log(name, audience=GMS)


@settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_damaged_export_is_imported_whole_or_refused(frozen: None, data: st.DataObject) -> None:
    """Flipped bytes, cut, swapped, dropped or repeated lines, other topics, any JSON value in
    any field, re-linked or not: either the campaign imports, verifies and loads, or the file
    is refused with a DomainError and nothing is written."""
    base = data.draw(st.sampled_from([RUNNING, SEALED]), label="export")
    items = items_of(base)
    for change in data.draw(st.lists(mutation(len(SEALED)), min_size=1, max_size=3)):
        items = change(items)
    if data.draw(st.booleans(), label="re-linked"):
        items = _rechained_if_possible(items)
    with Engine() as target:
        target.create_campaign("Other", "sims")
        before = state_of(target)
        imported, refusal = _attempt(target, lines_of(items))
        if imported is not None:
            _loads(target, imported.name)
        else:
            assert "\n" not in refusal
            assert before == state_of(target)
    assert "this" not in sys.modules


# --- A player's `verify-dice` reads a file as the import does ------------------------------------


def _checked(data: bytes) -> str:
    """What ``verify_export`` (`verify-dice`'s reading) makes of a file: its campaign's name, or
    the code of the DomainError it refused it with. Anything else raised fails the test."""
    try:
        name, _ = verify_export(file_lines(io.BytesIO(data)))
    except DomainError as error:
        refused: DomainError = error
    else:
        event("read")
        return name
    assert "\n" not in refused.reason
    event(refused.code)
    return refused.code


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=600) | st.just(as_file(list(SEALED))).map(lambda d: d[:300]))
def test_verify_dice_reads_arbitrary_bytes_or_refuses_them(data: bytes) -> None:
    """Any bytes at all (and a real export cut short): a name or a DomainError."""
    _checked(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_verify_dice_reads_a_damaged_export_or_refuses_it(data: st.DataObject) -> None:
    """The import fuzz's damage (flipped bits, cut, swapped, dropped or repeated lines, other
    topics, any JSON value in any field, re-linked or not): a name or a DomainError."""
    items = items_of(data.draw(st.sampled_from([RUNNING, SEALED]), label="export"))
    for change in data.draw(st.lists(mutation(len(SEALED)), min_size=1, max_size=3)):
        items = change(items)
    if data.draw(st.booleans(), label="re-linked"):
        items = _rechained_if_possible(items)
    _checked(as_file(lines_of(items)))


NOT_UTF8 = [
    pytest.param(lambda d: d[:200] + b"\xff" + d[200:], 1, id="header"),
    pytest.param(lambda d: d.replace(b'"R1C2"', b'"R1C\xc32"', 1), None, id="row"),
    pytest.param(lambda d: b"\xed\xa0\x80" + d, 1, id="surrogate"),
]


@pytest.mark.parametrize(("damaged", "line"), NOT_UTF8)
def test_verify_dice_refuses_a_file_that_is_not_utf8_as_import_does(
    tmp_path: Path, damaged: Callable[[bytes], bytes], line: int | None
) -> None:
    """`campaign verify-dice FILE` with a byte that is not UTF-8 in it: exit 2 and the one line
    `campaign import` refuses the same file with (IMPORT_NOT_TEXT, naming the line)."""
    path = tmp_path / "night-shift.jsonl"
    path.write_bytes(damaged(as_file(list(SEALED))))
    runner = CliRunner()
    checked = runner.invoke(campaign_cli, ["verify-dice", str(path)])
    imported = runner.invoke(campaign_cli, ["--db", str(tmp_path / "club.db"), "import", str(path)])
    assert (2, "", 1) == (checked.exit_code, checked.stdout, len(checked.stderr.splitlines()))
    assert checked.stderr.startswith("error: IMPORT_NOT_TEXT: line ")
    if line is not None:
        assert checked.stderr.startswith(f"error: IMPORT_NOT_TEXT: line {line}:")
    assert imported.stderr == checked.stderr
