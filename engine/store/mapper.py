"""One private cattrs converter behind eventsourcing mappers, for attrs events and snapshots.

The library's default mapper serialises ``vars(event)``, which fails on slotted attrs classes and
rebuilds tuples as lists. These mappers (un)structure through cattrs and write canonical JSON
(sorted keys, no spaces) so the bytes of an event are stable; a stored event's hash link is
written first, before the canonical body it was computed over (``with_chain``). The library's
``class_version`` and ``upcast_vN_vN+1`` loop is kept for event schema changes.
"""

from __future__ import annotations

import hashlib
import json
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from enum import Enum, IntEnum, StrEnum
from typing import Any, get_origin
from uuid import UUID

import attrs
import orjson
from cattrs.preconf.json import make_converter
from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent
from eventsourcing.utils import get_topic

from domain.annotations import resolve_types
from domain.errors import FutureEventVersion
from domain.events import Event
from engine.store.lazy_hooks import structure_factory, unstructure_factory
from engine.store.records import Recorded, Snapshot
from engine.store.topics import resolve

# Stored rows were written by ``unstructure``: a malformed one is a damaged store (``verify``
# names it), so cattrs' per-field error collection (twice the generated code) is not needed.
converter = make_converter(detailed_validation=False)
# An attrs class is read field by field until it is met often (``lazy_hooks``): registered first,
# so that every hook below, of a narrower type, is asked before it.
converter.register_structure_hook_factory(attrs.has, structure_factory(converter))
converter.register_unstructure_hook_factory(attrs.has, unstructure_factory(converter))
converter.register_unstructure_hook(UUID, str)

# A campaign's events name its few streams again and again: each text is parsed once (the
# same UUID comes back for the same text; a UUID is immutable). Bounded: a forged file of many
# names only parses them as before.
_UUIDS: dict[str, UUID] = {}


def _structure_uuid(value: Any, _: Any) -> UUID:
    if type(value) is str:
        found = _UUIDS.get(value)
        if found is None:
            found = UUID(value)
            if len(_UUIDS) >= 4096:
                _UUIDS.clear()
            _UUIDS[value] = found
        return found
    return UUID(str(value))


converter.register_structure_hook(UUID, _structure_uuid)
converter.register_unstructure_hook(datetime, datetime.isoformat)
converter.register_structure_hook(datetime, lambda value, _: datetime.fromisoformat(value))


# Replay structures every stored event: the hooks below are cattrs' own behaviour made cheaper
# for the shapes events are made of (what is stored was written by ``unstructure``).
_PLAIN = (int, str, bool, float)


def _is_homogeneous_tuple(cls: Any) -> bool:
    args = typing.get_args(cls)
    return get_origin(cls) is tuple and len(args) == 2 and args[1] is Ellipsis


def _tuple_hook(cls: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    item = typing.get_args(cls)[0]
    if item in _PLAIN:
        return lambda value, _: tuple(value)
    inner = converter.get_structure_hook(item)
    return lambda value, _: tuple([inner(v, item) for v in value]) if value else ()


def _structure_member(value: Any, cls: type[Enum]) -> Enum:
    try:
        return cls._value2member_map_[value]
    except (KeyError, TypeError):
        return cls(value)  # not a value of the enum: refused as the enum refuses it


converter.register_structure_hook_factory(_is_homogeneous_tuple, _tuple_hook)
converter.register_structure_hook_factory(
    lambda cls: isinstance(cls, type) and issubclass(cls, Enum), lambda cls: _structure_member
)
# A StrEnum (an IntEnum) is a str (an int) first: cattrs would call the class on the value.
converter.register_structure_hook(StrEnum, _structure_member)
converter.register_structure_hook(IntEnum, _structure_member)


def _is_frozenset(cls: Any) -> bool:
    return cls is frozenset or get_origin(cls) is frozenset


def _sorted_items(items: frozenset[Any]) -> list[Any]:
    """Sets are written sorted, so equal states give the same bytes."""
    return sorted((converter.unstructure(item) for item in items), key=json.dumps)


converter.register_unstructure_hook_func(_is_frozenset, _sorted_items)


# A field typed as the base ``Event`` (an amendment's replacement events) holds any event:
# it is written with its topic, like a stored event.
def _unstructure_any_event(event: Event) -> dict[str, Any]:
    cls = type(event)
    return {"topic": get_topic(cls), "event": converter.unstructure(event, unstructure_as=cls)}


# While an import decodes its events (``admitting``), a nested event's topic is looked up among
# the product's own event classes only: resolving a topic imports the module it names.
_ADMITTED: ContextVar[Mapping[str, type[Event]] | None] = ContextVar("admitted", default=None)


@contextmanager
def admitting(classes: Mapping[str, type[Event]]) -> Iterator[None]:
    """Decode nested events (an amendment's) only as one of ``classes`` (topic -> class)."""
    token = _ADMITTED.set(classes)
    try:
        yield
    finally:
        _ADMITTED.reset(token)


def _structure_any_event(value: dict[str, Any], _: Any) -> Event:
    topic = value["topic"]
    admitted = _ADMITTED.get()
    if admitted is None:
        cls = resolve(topic)
    elif (cls := admitted.get(topic) if isinstance(topic, str) else None) is None:
        raise ValueError(f"a nested event of unknown type {str(topic)[:80]!r}")
    event: Event = converter.structure(value["event"], cls)
    return event


converter.register_unstructure_hook_func(lambda cls: cls is Event, _unstructure_any_event)
converter.register_structure_hook_func(lambda cls: cls is Event, _structure_any_event)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8. orjson writes exactly the standard library's bytes for what
    events hold (text, whole numbers up to 64 bits, booleans, null; no floats); anything it
    refuses (a larger whole number, a seed say) is written by the standard library."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        return _CANONICAL.encode(value).encode()


# A run of 19 digits may be a whole number beyond 64 bits. Found by mapping every digit to "0"
# and every other byte to "." (one pass in C; a regular expression took four times orjson's
# own parse).
_DIGIT_MAP = bytes(48 if 48 <= b <= 57 else 46 for b in range(256))
_LONG_RUN = b"0" * 19


def loads(data: bytes | str) -> Any:
    """Parse JSON: orjson, or the standard library where orjson would not be exact (it reads a
    whole number beyond 64 bits as a float: any run of 19 digits goes the standard way) or
    refuses (malformed input, refused by the standard library with its usual message)."""
    try:
        raw = data.encode() if isinstance(data, str) else data
        if _LONG_RUN not in raw.translate(_DIGIT_MAP):
            return orjson.loads(raw)
    except (UnicodeEncodeError, orjson.JSONDecodeError):
        pass
    return json.loads(data)


_CHAIN_FIRST = b'{"chain":"'
_LINK = slice(len(_CHAIN_FIRST), len(_CHAIN_FIRST) + 64)  # a SHA-256 link in hex


def split_chain(state: bytes) -> tuple[str, bytes] | None:
    """The inverse of ``with_chain`` for a row written by the engine: its link and the body
    bytes the link was computed over, without parsing the JSON. None for any other layout
    (older stores wrote the link among the sorted keys)."""
    end = _LINK.stop
    if state.startswith(_CHAIN_FIRST) and state[end : end + 2] == b'",':
        return state[_LINK].decode("latin-1"), b"{" + state[end + 2 :]
    return None


def with_chain(body: bytes, chain: str) -> bytes:
    """A stored event's bytes: its canonical body (``body``, an object) with the chain hash
    written first. Computed from the bytes the hash is taken over, so each event is encoded
    once; readers parse JSON, so only the body's bytes need be canonical."""
    if not chain:
        return body
    if chain.isascii() and chain.isalnum():  # a link as the engine makes them: hex
        return b'{"chain":"' + chain.encode() + b'",' + body[1:]
    return b'{"chain":' + canonical_json(chain) + b"," + body[1:]


def _uuid(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)


def check_version(cls: type[Any], stored: int, where: str) -> None:
    """Refuse a payload stored at a ``class_version`` newer than the class's: read as the current
    version it would be misread (a store or an export written by a newer campaign-log)."""
    current = getattr(cls, "class_version", 1)
    if stored > current:
        raise FutureEventVersion(where=where, event=get_topic(cls), stored=stored, current=current)


def upcast(cls: type[Any], payload: dict[str, Any], from_version: int) -> dict[str, Any]:
    """Bring a stored payload up to the class's current ``class_version`` (an older one; a newer
    one is refused by ``check_version`` first)."""
    target = getattr(cls, "class_version", 1)
    while from_version < target:
        getattr(cls, f"upcast_v{from_version}_v{from_version + 1}")(payload)
        from_version += 1
    return payload


# Whether a payload is exactly what ``unstructure`` writes for its class, told without writing
# it: an import checks that every event, decoded and written back, gives the bytes it read.
_UUID_TEXT = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # for an import


class _Unknown(Exception):
    """A type the write-back test does not know: its class has none."""


class _WriteBack:
    """The source of two functions per attrs class (and per item type of a tuple). A test: a
    sufficient condition for a value to structure into the type and unstructure to the same
    JSON (every value of exactly the JSON type the field is written as, every object with
    exactly its class's fields); anything else (a field left out for its default, a number for
    a text, ...) fails it, and only means the value must be written back to tell. And, for a
    value that passed it, the value structured as the converter structures it (each value as
    it is, where the converter's hook gives it back as it is: ``str(text)``, ``int(number)``)."""

    def __init__(self) -> None:
        uuid_text = re.compile(_UUID_TEXT).fullmatch
        self.names: dict[str, Any] = {"_uuid_text": uuid_text, "_uuid": _structure_uuid}
        self.functions: dict[Any, tuple[str, str]] = {}
        self.lines: list[str] = []

    def test(self, kind: Any, var: str) -> str:
        """An expression true only when ``var`` writes back exactly as a ``kind``."""
        if not _hooks_known(kind):
            raise _Unknown(kind)
        if kind is str or kind is int or kind is bool:
            return f"type({var}) is {kind.__name__}"
        if kind is UUID:  # as ``str(UUID(...))`` writes it: lower case, hyphens
            return f"(type({var}) is str and _uuid_text({var}) is not None)"
        args = typing.get_args(kind)
        if _is_optional(kind):
            return f"({var} is None or {self.test(_optional(kind), var)})"
        if _is_homogeneous_tuple(kind):
            return f"(type({var}) is list and {self._items(args[0], var)})"
        if isinstance(kind, type) and issubclass(kind, Enum):
            plain, values, _ = self._values(kind)
            return f"(type({var}) is {plain.__name__} and {var} in {values})"
        if isinstance(kind, type) and attrs.has(kind) and kind is not Event:
            return f"{self.function(kind)[0]}({var})"
        raise _Unknown(kind)

    def build(self, kind: Any, var: str) -> str:
        """An expression of ``var`` (which passed the test) structured as a ``kind``."""
        if kind is str or kind is int or kind is bool:
            return var
        if kind is UUID:
            return f"_uuid({var}, None)"
        args = typing.get_args(kind)
        if _is_optional(kind):
            return f"(None if {var} is None else {self.build(_optional(kind), var)})"
        if _is_homogeneous_tuple(kind):
            item = args[0]
            if item is str or item is int or item is bool:
                return f"tuple({var})"
            each = f"x{len(var)}"  # one name a depth
            return f"tuple([{self.build(item, each)} for {each} in {var}])"
        if isinstance(kind, type) and issubclass(kind, Enum):
            return f"{self._values(kind)[2]}[{var}]"
        return f"{self.function(kind)[1]}({var})"

    def _items(self, kind: Any, var: str) -> str:
        """An expression true only when every item of the list ``var`` writes back exactly as
        a ``kind`` (the types of plain items and enum values told apart in one pass)."""
        if kind is str or kind is int or kind is bool:
            return f"{{*map(type, {var})}} <= {self._name('_only', frozenset({kind}))}"
        if isinstance(kind, type) and issubclass(kind, Enum):
            plain, values, _ = self._values(kind)
            only = self._name("_only", frozenset({plain}))
            return f"{{*map(type, {var})}} <= {only} and {values}.issuperset({var})"
        return f"all(map({self.function(kind)[0]}, {var}))"

    def _name(self, prefix: str, value: Any) -> str:
        name = f"{prefix}{len(self.names)}"
        self.names[name] = value
        return name

    def _values(self, kind: type[Enum]) -> tuple[type[Any], str, str]:
        """The one plain type of an enum's values, and the names of the set of them and of
        the map from each to its member (which the converter's hook looks it up in)."""
        values = [member.value for member in kind]
        plain = {type(value) for value in values}
        if len(plain) != 1 or not plain <= {str, int}:
            raise _Unknown(kind)
        for member in kind:  # each member structures and writes back as its value
            written = canonical_json(converter.unstructure(member, kind))
            if written != canonical_json(member.value):
                raise _Unknown(kind)
            if converter.structure(member.value, kind) is not member:
                raise _Unknown(kind)
        members = self._name("_members", kind._value2member_map_)
        return plain.pop(), self._name("_values", frozenset(values)), members

    def function(self, kind: Any) -> tuple[str, str]:
        """The names of the test and the build of ``kind``."""
        names = self.functions.get(kind)
        if names is not None:
            return names
        at = len(self.functions)
        test, build = names = self.functions[kind] = (f"_test{at}", f"_build{at}")
        if not (isinstance(kind, type) and attrs.has(kind)):
            self.lines += [f"def {test}(v):", f"    return {self.test(kind, 'v')}", ""]
            return names
        if kind is Event or hasattr(kind, "__attrs_post_init__"):
            raise _Unknown(kind)
        fields = attrs.fields(resolve_types(kind))
        for field in fields:  # each field structured from, and written to, its own name
            if not field.init or field.alias != field.name or field.converter is not None:
                raise _Unknown(kind)
        keys = self._name("_keys", frozenset(field.name for field in fields))
        tests = ["type(v) is dict", f"v.keys() == {keys}"]
        tests += [self.test(field.type, f"v[{field.name!r}]") for field in fields]
        built = [f"{field.name}={self.build(field.type, f'v[{field.name!r}]')}" for field in fields]
        cls = self._name("_cls", kind)
        self.lines += [f"def {test}(v):", "    return (" + "\n        and ".join(tests) + ")", ""]
        self.lines += [f"def {build}(v):", f"    return {cls}(" + ", ".join(built) + ")", ""]
        return names


def _hooks_known(kind: Any) -> bool:
    """Whether the converter (un)structures ``kind`` with the hooks the test and the build
    stand for (a hook registered since for one of them: no test for the classes holding it)."""
    structure = getattr(converter.get_structure_hook(kind), "__qualname__", "")
    unstructure = converter.get_unstructure_hook(kind)
    if kind is str or kind is int or kind is bool:
        return structure == "BaseConverter._structure_call" and unstructure.__name__ == "identity"
    if kind is UUID:
        return structure == _structure_uuid.__qualname__ and unstructure is str
    if isinstance(kind, type) and attrs.has(kind):
        named = f"structure_{kind.__name__}", f"unstructure_{kind.__name__}"
        return (structure, getattr(unstructure, "__name__", "")) == named
    if _is_homogeneous_tuple(kind):
        return structure.startswith(f"{_tuple_hook.__qualname__}.")
    return True  # enums are tried member by member; unions are of known kinds


def _is_optional(kind: Any) -> bool:
    if not (isinstance(kind, types.UnionType) or get_origin(kind) is typing.Union):
        return False
    args = typing.get_args(kind)
    if len(args) != 2 or type(None) not in args:
        raise _Unknown(kind)
    return True


def _optional(kind: Any) -> Any:
    return next(a for a in typing.get_args(kind) if a is not type(None))


class WriteBack(typing.NamedTuple):
    """A class's write-back test, and how a payload that passed it is structured."""

    test: Callable[[Any], bool]
    build: Callable[[Any], Any]


_WRITES_BACK: dict[type[Any], WriteBack | None] = {}


def writes_back(cls: type[Any]) -> WriteBack | None:
    """The write-back test of payloads of ``cls`` (None: ``cls`` holds a type it does not
    know): when a payload passes it, it structures into ``cls`` (``build``: as
    ``converter.structure`` does; or, where that raises, as the converter would refuse it) and
    the record unstructures to the same JSON, so its canonical bytes are the payload's. When it
    fails, nothing is known: the payload is to be written back and compared."""
    if cls in _WRITES_BACK:
        return _WRITES_BACK[cls]
    source = _WriteBack()
    try:
        test, build = source.function(cls)
    except _Unknown:
        found = None
    else:
        code = "\n".join(source.lines)
        exec(compile(code, f"<writes back {cls.__qualname__}>", "exec"), source.names)
        found = WriteBack(source.names[test], source.names[build])
    _WRITES_BACK[cls] = found
    return found


def structured_as_written(payload: Any, cls: type[Any]) -> tuple[Any, bool]:
    """``converter.structure(payload, cls)``, and whether the payload passed the class's
    write-back test (then built without the converter's hooks, to the same value: should
    building it raise, the converter structures it, to refuse it as it refuses it)."""
    form = writes_back(cls)
    if form is not None and form.test(payload):
        try:
            return form.build(payload), True
        except Exception:  # e.g. a class's own validator: the converter raises it as before
            return converter.structure(payload, cls), False
    return converter.structure(payload, cls), False


_UNSTRUCTURE: dict[type[Any], Callable[[Any], Any]] = {}


def body_of(record: Recorded, at: str = "") -> dict[str, Any]:
    """What is stored of a record, without its chain hash (which is computed over this);
    ``at``: the record's time as text, when the caller has it already."""
    cls = type(record.event)
    unstructure = _UNSTRUCTURE.get(cls) or _UNSTRUCTURE.setdefault(
        cls, converter.get_unstructure_hook(cls)
    )
    body: dict[str, Any] = {
        "at": at or record.timestamp.isoformat(),
        "ruling": record.ruling,
        "actor": record.actor,
        "session": record.session,
        "scene": record.scene,
        "event": unstructure(record.event),
    }
    version = getattr(cls, "class_version", 1)
    if version > 1:
        body["class_version"] = version
    return body


class EventMapper(Mapper[UUID]):
    """Maps ``Recorded`` envelopes to stored events; the topic is the domain event's class."""

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        record: Recorded = domain_event
        return StoredEvent(
            originator_id=record.originator_id,
            originator_version=record.originator_version,
            topic=get_topic(type(record.event)),
            state=with_chain(canonical_json(body_of(record)), record.chain),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        cls = resolve(stored_event.topic)
        return decoded(
            stored_event.originator_id,
            stored_event.originator_version,
            cls,
            loads(stored_event.state),
        )


def decoded(
    stream: UUID | str,
    version: int,
    cls: type[Any],
    body: dict[str, Any],
    stamp: Callable[[str], datetime] = datetime.fromisoformat,
    structure: Callable[[Any, type[Any]], Any] = converter.structure,
) -> Recorded:
    """A stored body (parsed) as the record it was written from: its payload brought up to the
    class's current version (upcast in place), a payload from a newer version refused;
    ``stamp``: how its time is read (``datetime.fromisoformat``, or a cache of it);
    ``structure``: how its payload is (the converter's, or one that gives the same value)."""
    stored = body.get("class_version", 1)
    if stored != 1:  # a newer version than the class's can only be above 1
        check_version(cls, stored, f"stream {stream} version {version}")
    payload = upcast(cls, body["event"], stored)
    return Recorded(
        originator_id=_uuid(stream),
        originator_version=version,
        timestamp=stamp(body["at"]),
        ruling=body["ruling"],
        actor=body["actor"],
        session=body["session"],
        scene=body["scene"],
        event=structure(payload, cls),
        chain=body.get("chain", ""),
    )


_SHAPES: dict[type[Any], str] = {}


def shape(cls: type[Any]) -> str:
    """A fingerprint of a state class's fields and types, nested attrs classes included: a
    snapshot written under another shape is not loaded (the stream is replayed instead)."""
    if cls in _SHAPES:
        return _SHAPES[cls]
    seen: set[type[Any]] = set()
    parts: list[str] = []

    def walk(kind: Any) -> None:
        if isinstance(kind, type) and attrs.has(kind) and kind not in seen:
            seen.add(kind)
            # The fields' types resolved once a class, where cattrs reads them too (their text
            # is typing.get_type_hints', as before: the shapes of stored snapshots hold;
            # ``domain.annotations``).
            fields = attrs.fields(resolve_types(kind))
            parts.append(f"{kind.__qualname__}:" + ",".join(f"{a.name}={a.type}" for a in fields))
            for a in fields:
                walk(a.type)
        for argument in typing.get_args(kind):
            walk(argument)

    walk(cls)
    _SHAPES[cls] = hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]
    return _SHAPES[cls]


# How a stored snapshot reads (``read_snapshot``): linked to the event at its version and intact
# (""), written before snapshots were linked, edited since it was written (its own link does not
# hold), or taken under another shape of its state class.
UNLINKED, EDITED, OLD_SHAPE = "unlinked", "edited", "old shape"


def _snapshot_link(head: str, stored_event: StoredEvent, body: bytes) -> str:
    """A snapshot's own link: as an event's of the first kind (``engine.store.chain
    .link_over_body``), chained onto the link of the event at its version and taken over its
    stream, version, topic and body bytes."""
    from engine.store.chain import link_over_body  # engine.store.chain imports this module

    stream = _uuid(stored_event.originator_id)
    version, topic = stored_event.originator_version, stored_event.topic
    return link_over_body(head, stream, version, topic, body)


def read_snapshot(stored_event: StoredEvent) -> tuple[str, Snapshot]:
    """A stored snapshot and how it reads: ``""`` (linked and intact), ``UNLINKED``, ``EDITED``
    or ``OLD_SHAPE``. Only an intact one of the current shape comes back with a state and the
    link of its head (``chain``); an unlinked one keeps its state (``verify`` compares it) but no
    link, so no load trusts it."""
    cls = resolve(stored_event.topic)
    parts = split_chain(stored_event.state)
    status = ""
    if parts is None:  # written before snapshots were linked (or re-encoded by hand)
        body = loads(stored_event.state)
        head = ""
        status = UNLINKED
    else:
        own, raw = parts
        body = loads(raw)
        head = body.get("head", "")
        if not isinstance(head, str) or not head or _snapshot_link(head, stored_event, raw) != own:
            head, status = "", EDITED
    current = body.get("shape") == shape(cls)
    if not status and not current:
        status = OLD_SHAPE
    usable = current and status != EDITED
    return status, Snapshot(
        originator_id=_uuid(stored_event.originator_id),
        originator_version=stored_event.originator_version,
        timestamp=datetime.fromisoformat(body["at"]),
        state=converter.structure(body["state"], cls) if usable else None,
        chain=head if usable else "",
    )


class SnapshotMapper(Mapper[UUID]):
    """Maps snapshots; the topic is the state's class, so a snapshot comes back typed. A linked
    one is stored chain first like an event: its own link over its bytes, chained onto the link
    of the event at its version (``head``). One taken under another shape of that class, or
    edited since (its link does not hold), comes back with ``state`` None (not to be used); one
    without a link comes back without ``chain`` (not trusted by loads)."""

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        snapshot: Snapshot = domain_event
        cls = type(snapshot.state)
        body = {
            "at": snapshot.timestamp.isoformat(),
            "shape": shape(cls),
            "state": converter.unstructure(snapshot.state, unstructure_as=cls),
        }
        if snapshot.chain:
            body["head"] = snapshot.chain
        stored = StoredEvent(
            originator_id=snapshot.originator_id,
            originator_version=snapshot.originator_version,
            topic=get_topic(cls),
            state=canonical_json(body),
        )
        if not snapshot.chain:
            return stored
        own = _snapshot_link(snapshot.chain, stored, stored.state)
        return StoredEvent(
            originator_id=stored.originator_id,
            originator_version=stored.originator_version,
            topic=stored.topic,
            state=with_chain(stored.state, own),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return read_snapshot(stored_event)[1]
