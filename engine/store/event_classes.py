"""The allow-lists an import holds a file to: the event classes a campaign of a system may
hold and the command classes its rulings may record, by topic, found from the classes."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import import_module
from typing import Any

import attrs
from eventsourcing.utils import get_topic

from domain import events as shared_events
from domain.events import Event
from domain.registry import SHARED
from domain.rulesets import SYSTEMS
from engine.store.topics import with_old_names


@cache
def event_classes(system: str) -> Mapping[str, type[Event]]:
    """The events a campaign of ``system`` may hold, by topic: every ``Event`` subclass defined
    in ``domain.events`` and in the system's own ``events`` module, found from the classes (one
    added there is taken with no list to keep). An import takes no other topic and resolves
    none: resolving a topic imports the module it names."""
    modules = [shared_events, import_module(f"domain.rulesets.{SYSTEMS[system]}.events")]
    found = {
        get_topic(value): value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Event)
        and value is not Event
        and value.__module__ == module.__name__
    }
    return with_old_names(found)


@cache
def command_classes(system: str) -> Mapping[str, type[Any]]:
    """The commands a ruling of a ``system`` campaign may record in its ``params`` (which undo
    and amend decide again from), by topic: every command class the shared
    commands (``domain.registry.SHARED``) and the
    system's ``commands`` module name, found from the classes."""
    modules = [import_module(name) for name in SHARED]
    modules.append(import_module(f"domain.rulesets.{SYSTEMS[system]}.commands"))
    found: dict[str, type[Any]] = {}
    for module in modules:
        for name in dir(module):
            value = getattr(module, name)
            if (
                isinstance(value, type)
                and attrs.has(value)
                and callable(getattr(value, "decide", None))
                and isinstance(getattr(value, "name", None), str)
            ):
                found[get_topic(value)] = value
    return with_old_names(found)
