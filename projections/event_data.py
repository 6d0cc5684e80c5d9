"""An event as a read model keeps it: plain JSON data (its class's topic, its class version and
its fields), and the event again from that data when a view is read.

Read models keep facts, not prose: a recap or a timeline stores the events a ruling recorded
and renders their lines (``projections.describe``) when it is read, so a change to how an event
reads changes every recap at once. The data is written by a cattrs converter of this module's
own (projections do not import the engine's); a payload written under an older class version is
brought up to date by the class's own ``upcast_vN_vN+1`` steps, as the log's are. Only the
domain's event classes are read back (a topic naming anything else is refused).
"""

from __future__ import annotations

import importlib
import json
import typing
from collections.abc import Callable
from datetime import datetime
from enum import Enum, IntEnum, StrEnum
from typing import Any
from uuid import UUID

from cattrs.fns import identity
from cattrs.preconf.json import make_converter

from domain.events import Event
from domain.rulesets.renamed import RENAMED

Data = dict[str, Any]  # an event as plain data: {"topic", "event"[, "class_version"]}

_converter = make_converter(detailed_validation=False)
_converter.register_unstructure_hook(UUID, str)
_converter.register_structure_hook(UUID, lambda value, _: UUID(str(value)))
_converter.register_unstructure_hook(datetime, datetime.isoformat)
_converter.register_structure_hook(datetime, lambda value, _: datetime.fromisoformat(value))


# A recap structures every event it shows: tuples and enums the cheap way (cattrs' own checks
# are for data it did not write).
def _tuple_hook(cls: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    item = typing.get_args(cls)[0]
    if item in (int, str, bool, float):
        return lambda value, _: tuple(value)
    inner = _converter.get_structure_hook(item)
    return lambda value, _: tuple([inner(v, item) for v in value]) if value else ()


def _member(value: Any, cls: type[Enum]) -> Enum:
    try:
        return cls._value2member_map_[value]
    except (KeyError, TypeError):
        return cls(value)


def _is_homogeneous_tuple(cls: Any) -> bool:
    args = typing.get_args(cls)
    return typing.get_origin(cls) is tuple and len(args) == 2 and args[1] is Ellipsis


def _tuple_unstructure_hook(cls: Any) -> Callable[[Any], Any]:
    """A tuple's items unstructured into a list, as cattrs' own hook does, without a generator
    (an event's tuples are mostly short, or empty)."""
    inner = _converter.get_unstructure_hook(typing.get_args(cls)[0])
    if inner == identity:
        return list
    return lambda value: [inner(v) for v in value] if value else []


_converter.register_structure_hook_factory(_is_homogeneous_tuple, _tuple_hook)
_converter.register_unstructure_hook_factory(_is_homogeneous_tuple, _tuple_unstructure_hook)
_converter.register_structure_hook_factory(
    lambda cls: isinstance(cls, type) and issubclass(cls, Enum), lambda cls: _member
)
_converter.register_structure_hook(StrEnum, _member)  # a StrEnum is a str first
_converter.register_structure_hook(IntEnum, _member)
_converter.register_unstructure_hook_func(
    lambda cls: cls is frozenset or getattr(cls, "__origin__", None) is frozenset,
    lambda items: sorted((_converter.unstructure(i) for i in items), key=json.dumps),
)
_converter.register_unstructure_hook_func(lambda cls: cls is Event, lambda e: data_of(e))
_converter.register_structure_hook_func(lambda cls: cls is Event, lambda value, _: event_of(value))

_CLASSES: dict[str, type[Event]] = {}
_SHAPES: dict[type[Any], tuple[str, Callable[[Any], Any]]] = {}  # topic, hook: made once


def topic_of(cls: type[Any]) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def data_of(event: Event) -> Data:
    """An event as plain data (JSON: what a read model's document may hold)."""
    cls = type(event)
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = (topic_of(cls), _converter.get_unstructure_hook(cls))
    data: Data = {"topic": shape[0], "event": shape[1](event)}
    if cls.class_version > 1:
        data["class_version"] = cls.class_version
    return data


def event_of(data: Data) -> Event:
    """The event some plain data (``data_of``'s) was written from, at its class's version now."""
    cls = _class(data["topic"])
    payload = data["event"]
    stored = data.get("class_version", 1)
    if stored < cls.class_version:
        payload = json.loads(json.dumps(payload))  # the upcasts edit it in place
        while stored < cls.class_version:
            getattr(cls, f"upcast_v{stored}_v{stored + 1}")(payload)
            stored += 1
    event: Event = _converter.structure(payload, cls)
    return event


def _class(topic: str) -> type[Event]:
    found = _CLASSES.get(topic)
    if found is None:
        module, _, name = RENAMED.get(topic, topic).partition(":")
        if module.split(".")[0] != "domain":
            raise ValueError(f"not a domain event: {topic[:80]!r}")
        cls = getattr(importlib.import_module(module), name, None)
        if not (isinstance(cls, type) and issubclass(cls, Event)):
            raise ValueError(f"not a domain event: {topic[:80]!r}")
        found = _CLASSES[topic] = cls
    return found
