"""The cattrs mappers: every event and snapshot round-trips typed, in canonical bytes, and old
event versions are upcast on loading."""

from __future__ import annotations

import json
import types
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints
from uuid import UUID

import attrs
import pytest
from attrs import frozen
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic
from hypothesis import given, settings
from hypothesis import strategies as st

import domain.events
import domain.rulesets.code_green.events
import domain.rulesets.sims.events
import domain.rulesets.sprawl_goons.events
import domain.rulesets.the_code.events
from domain.campaign import CampaignState, Directory
from domain.events import Event
from domain.rulesets.code_green.character import CgCharacter
from engine import Engine
from engine.store.mapper import EventMapper, SnapshotMapper, canonical_json
from engine.store.records import Recorded, Snapshot

EVENT_MODULES = (
    domain.events,
    domain.rulesets.code_green.events,
    domain.rulesets.sims.events,
    domain.rulesets.sprawl_goons.events,
    domain.rulesets.the_code.events,
)
EVENT_CLASSES = sorted(
    (
        value
        for module in EVENT_MODULES
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Event)
        and value is not Event
        and value.__module__ == module.__name__
    ),
    key=lambda cls: cls.__name__,
)


LEAF_EVENTS = [cls for cls in EVENT_CLASSES if cls.__name__ != "RulingAmended"]


def typed(tp: Any) -> st.SearchStrategy[Any]:
    """A strategy for an annotated type: attrs classes field by field (their annotations are
    strings, so they are resolved here), tuples, frozensets, unions, and plain types. The base
    ``Event`` (an amendment's replacement events) stands for any concrete event."""
    if tp is Event:
        return st.sampled_from(LEAF_EVENTS).flatmap(typed)
    if isinstance(tp, type) and attrs.has(tp):
        hints = get_type_hints(tp)
        fields = {a.alias: typed(hints[a.name]) for a in attrs.fields(tp) if a.init}
        return st.builds(tp, **fields)
    origin, args = get_origin(tp), get_args(tp)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(typed(args[0]), max_size=4).map(tuple)
    if origin is frozenset:
        return st.frozensets(typed(args[0]), max_size=4)
    if origin in (Union, types.UnionType):
        return st.one_of(*(typed(arg) for arg in args))
    if tp is type(None):
        return st.none()
    if tp is str:
        return st.text(max_size=12)
    return st.from_type(tp)


timestamps = st.datetimes(
    timezones=st.sampled_from(
        [UTC, timezone(timedelta(hours=-5)), timezone(timedelta(hours=5, minutes=30))]
    )
)


def recorded(event: st.SearchStrategy[Event]) -> st.SearchStrategy[Recorded]:
    return st.builds(
        Recorded,
        originator_id=st.uuids(),
        originator_version=st.integers(1, 2**40),
        timestamp=timestamps,
        ruling=st.integers(1, 2**31),
        actor=st.text(max_size=12),
        session=st.none() | st.integers(1, 999),
        scene=st.none() | st.integers(1, 999),
        event=event,
    )


any_record = recorded(st.sampled_from(EVENT_CLASSES).flatmap(typed))


def is_canonical(state: bytes) -> bool:
    return canonical_json(json.loads(state)) == state


# --- Events ---------------------------------------------------------------------------------


def test_every_event_class_is_covered() -> None:
    """The round-trip tests cover every Event subclass the domain defines."""

    def walk(cls: type) -> set[str]:
        return {f"{s.__module__}:{s.__qualname__}" for s in cls.__subclasses__()} | {
            name for s in cls.__subclasses__() for name in walk(s)
        }

    ours = {name for name in walk(Event) if name.split(":")[0].startswith("domain.")}

    assert ours == {get_topic(cls) for cls in EVENT_CLASSES}
    assert {domain.events.RulingMade, domain.rulesets.code_green.events.Adapted} < set(
        EVENT_CLASSES
    )


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_event_round_trips_through_the_mapper(cls: type[Event], data: st.DataObject) -> None:
    """to_stored_event then to_domain_event gives back an equal Recorded, event typed."""
    record = data.draw(recorded(typed(cls)))
    mapper = EventMapper()

    stored = mapper.to_stored_event(record)
    loaded = mapper.to_domain_event(stored)

    assert record == loaded
    assert cls is type(loaded.event)
    assert (get_topic(cls), record.originator_id, record.originator_version) == (
        stored.topic,
        stored.originator_id,
        stored.originator_version,
    )


@settings(max_examples=200, deadline=None)
@given(record=any_record)
def test_stored_bytes_are_canonical(record: Recorded) -> None:
    """The same event gives the same bytes: from a copy, and after a round trip; keys sorted."""
    mapper = EventMapper()
    copy = attrs.evolve(record, event=attrs.evolve(record.event))

    stored = mapper.to_stored_event(record)

    assert stored.state == mapper.to_stored_event(copy).state
    assert stored.state == mapper.to_stored_event(mapper.to_domain_event(stored)).state
    assert is_canonical(stored.state)


def test_stored_event_body_holds_the_envelope_and_the_payload() -> None:
    """The body is the envelope (at, ruling, actor, session, scene) and the event's fields."""
    record = Recorded(
        originator_id=UUID(int=7),
        originator_version=3,
        timestamp=datetime(2026, 11, 29, 19, 30, tzinfo=UTC),
        ruling=4,
        actor="GM",
        session=1,
        scene=None,
        event=domain.events.SceneStarted(number=2, stage="The lab"),
    )

    stored = EventMapper().to_stored_event(record)

    assert (
        b'{"actor":"GM","at":"2026-11-29T19:30:00+00:00","event":{"number":2,"stage":"The lab"},'
        b'"ruling":4,"scene":null,"session":1}'
    ) == stored.state
    assert "domain.events:SceneStarted" == stored.topic


def test_non_ascii_text_is_stored_as_utf8() -> None:
    """Text is kept as UTF-8, not escaped, and comes back equal."""
    record = Recorded(
        originator_id=UUID(int=1),
        originator_version=1,
        timestamp=datetime(2026, 11, 29, tzinfo=UTC),
        ruling=1,
        actor="Zoë",
        session=None,
        scene=None,
        event=domain.events.NoteAdded(text="Ærø — 11–14 ✓"),
    )
    mapper = EventMapper()

    stored = mapper.to_stored_event(record)

    assert "Ærø — 11–14 ✓".encode() in stored.state
    assert record == mapper.to_domain_event(stored)


# --- Snapshots ------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [CgCharacter, CampaignState, Directory], ids=lambda c: c.__name__)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_snapshots_round_trip_typed(cls: type[Any], data: st.DataObject) -> None:
    """A snapshot of a character, a campaign or the directory comes back equal and typed."""
    snapshot = Snapshot(
        originator_id=data.draw(st.uuids()),
        originator_version=data.draw(st.integers(1, 2**40)),
        timestamp=data.draw(timestamps),
        state=data.draw(typed(cls)),
    )
    mapper = SnapshotMapper()

    stored = mapper.to_stored_event(snapshot)
    loaded = mapper.to_domain_event(stored)

    assert snapshot == loaded
    assert cls is type(loaded.state)
    assert get_topic(cls) == stored.topic


@settings(max_examples=50, deadline=None)
@given(state=typed(CgCharacter))
def test_equal_snapshots_have_equal_bytes(state: CgCharacter) -> None:
    """Sets (tokens, marks) are written sorted: equal states give the same stored bytes."""
    rebuilt = attrs.evolve(
        state,
        tokens=frozenset(sorted(state.tokens, reverse=True)),
        marks=frozenset(sorted(state.marks, reverse=True)),
    )
    at = datetime(2026, 11, 29, tzinfo=UTC)
    mapper = SnapshotMapper()

    def stored(s: CgCharacter) -> bytes:
        snapshot = Snapshot(originator_id=s.id, originator_version=1, timestamp=at, state=s)
        return mapper.to_stored_event(snapshot).state

    assert stored(state) == stored(rebuilt)
    written = json.loads(stored(state))["state"]
    assert sorted(t.value for t in state.tokens) == written["tokens"]


# --- Upcasting ------------------------------------------------------------------------------


@frozen(kw_only=True)
class RuleQuoted(Event):
    """Test only: the GM quoted a rule. v1 had ``text`` ("p. 12: ..."); v2 split off ``page``."""

    class_version: ClassVar[int] = 2

    rule: str
    page: int

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        page, _, rule = state.pop("text").partition(": ")
        state["rule"] = rule
        state["page"] = int(page.removeprefix("p. "))


@frozen(kw_only=True)
class TokenNamed(Event):
    """Test only: v1 ``name``; v2 renamed it ``label``; v3 added ``colour`` (default grey)."""

    class_version: ClassVar[int] = 3

    label: str
    colour: str

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        state["label"] = state.pop("name")

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        state["colour"] = "grey"


def stored_by_hand(cls: type[Event], payload: dict[str, Any], version: int | None) -> StoredEvent:
    """A stored event as an earlier release wrote it (no ``class_version`` key means v1)."""
    body: dict[str, Any] = {
        "at": "2026-11-29T19:30:00+00:00",
        "ruling": 3,
        "actor": "GM",
        "session": 1,
        "scene": 2,
        "event": payload,
    }
    if version is not None:
        body["class_version"] = version
    return StoredEvent(
        originator_id=UUID(int=5),
        originator_version=1,
        topic=get_topic(cls),
        state=json.dumps(body).encode(),
    )


def test_a_v1_payload_is_upcast_on_loading() -> None:
    """A payload stored before class_version 2 loads as the current class."""
    stored = stored_by_hand(RuleQuoted, {"text": "p. 12: a flip counts as a roll"}, None)

    loaded = EventMapper().to_domain_event(stored)

    assert RuleQuoted(rule="a flip counts as a roll", page=12) == loaded.event
    assert (3, "GM", 1, 2) == (loaded.ruling, loaded.actor, loaded.session, loaded.scene)


@pytest.mark.parametrize(
    ("payload", "version"),
    [
        pytest.param({"name": "hat"}, None, id="v1"),
        pytest.param({"label": "hat"}, 2, id="v2"),
        pytest.param({"label": "hat", "colour": "grey"}, 3, id="v3"),
    ],
)
def test_upcasters_run_in_order_from_the_stored_version(
    payload: dict[str, Any], version: int | None
) -> None:
    """Each stored version runs only the upcasters after it, in order."""
    loaded = EventMapper().to_domain_event(stored_by_hand(TokenNamed, payload, version))

    assert TokenNamed(label="hat", colour="grey") == loaded.event


def test_current_version_is_stored_with_its_class_version() -> None:
    """An event of a class at version 2 is stored with class_version 2 and loads unchanged."""
    record = Recorded(
        originator_id=UUID(int=5),
        originator_version=1,
        timestamp=datetime(2026, 11, 29, 19, 30, tzinfo=UTC),
        ruling=3,
        actor="GM",
        session=1,
        scene=2,
        event=RuleQuoted(rule="a flip counts as a roll", page=12),
    )
    mapper = EventMapper()

    stored = mapper.to_stored_event(record)

    assert 2 == json.loads(stored.state)["class_version"]
    assert record == mapper.to_domain_event(stored)


def test_a_v1_event_in_a_store_is_read_back_upcast(any_engine: Engine) -> None:
    """A v1 row written into the store by hand is read through the engine's store as v2."""
    stored = stored_by_hand(RuleQuoted, {"text": "p. 7: strain comes before adapting"}, None)
    any_engine.store.recorder.insert_events([stored])

    records = any_engine.streams.records(UUID(int=5))

    assert [RuleQuoted(rule="strain comes before adapting", page=7)] == [r.event for r in records]


@pytest.mark.parametrize("value", ["nonsense", 3, None, ["committed"]])
def test_a_stored_value_outside_an_enum_is_refused(value: Any) -> None:
    """The fast enum lookup still refuses what the enum refuses."""
    from cattrs.errors import ClassValidationError

    from domain.dice import Provenance
    from engine.store.mapper import converter

    assert converter.structure(Provenance.COMMITTED.value, Provenance) is Provenance.COMMITTED
    with pytest.raises((ValueError, ClassValidationError)):
        converter.structure(value, Provenance)


def test_tuples_come_back_as_tuples_of_their_item_type() -> None:
    from domain.events import StreamRange
    from engine.store.mapper import converter

    ranges = converter.structure(
        [{"stream": str(UUID(int=1)), "first": 1, "last": 2}], tuple[StreamRange, ...]
    )
    assert ranges == (StreamRange(stream=UUID(int=1), first=1, last=2),)
    assert converter.structure([], tuple[StreamRange, ...]) == ()
    assert converter.structure([1, 2], tuple[int, ...]) == (1, 2)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values)
def test_canonical_json_is_the_standard_librarys_and_reads_back_exactly(value: Any) -> None:
    """orjson writes the very bytes the standard library writes for what events hold (whole
    numbers of any size included), and what is read back is equal, never a rounded float."""
    from engine.store.mapper import loads

    try:
        expected = json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode()
    except UnicodeEncodeError:  # a lone surrogate: not writable as UTF-8 either way
        return
    written = canonical_json(value)
    assert written == expected
    assert loads(written) == value
    assert loads(written.decode()) == value


def _altered(value: Any, data: st.DataObject) -> Any:
    """``value`` (a payload as written) with one place in it changed: a value replaced by
    another JSON value (or a text by a UUID written otherwise), a key added or taken out."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: _altered(value[key], data)}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(value) - 1))
        return [*value[:at], _altered(value[at], data), *value[at + 1 :]]
    if isinstance(value, dict) and data.draw(st.booleans()):
        if value and data.draw(st.booleans()):
            gone = data.draw(st.sampled_from(sorted(value)))
            return {k: v for k, v in value.items() if k != gone}
        return {**value, data.draw(st.text(max_size=4)): data.draw(json_values)}
    if isinstance(value, str) and data.draw(st.booleans()):
        uuid = data.draw(st.uuids())
        return data.draw(st.sampled_from([uuid.hex, str(uuid).upper(), f"{{{uuid}}}", str(uuid)]))
    return data.draw(json_values | st.sampled_from([True, 1, 1.0, "1", [], {}, None]))


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_payload_passing_the_write_back_test_writes_back_exactly(
    cls: type[Event], data: st.DataObject
) -> None:
    """``writes_back`` passes a payload only when it structures into its class and unstructures
    to the same canonical bytes (or does not structure at all): an import then need not write it
    back to compare; and its ``build`` gives what the converter's ``structure`` gives. Every
    payload as written passes it, when the class has a test."""
    from engine.store.mapper import converter, writes_back

    form = writes_back(cls)
    payload = converter.unstructure(data.draw(typed(cls)), cls)
    if form is not None:
        assert form.test(json.loads(canonical_json(payload)))
    altered = json.loads(canonical_json(_altered(payload, data)))
    if form is None or not form.test(altered):
        return
    try:
        event = converter.structure(json.loads(canonical_json(altered)), cls)
    except Exception as error:  # refused by the converter: refused as before
        with pytest.raises(type(error)):
            form.build(altered)
        return
    built = form.build(altered)
    assert type(built) is cls
    assert built == event
    assert repr(built) == repr(event)  # enum members, tuples and UUIDs, not their values
    assert canonical_json(converter.unstructure(built, cls)) == canonical_json(altered)
    assert canonical_json(converter.unstructure(event, cls)) == canonical_json(altered)
