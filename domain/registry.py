"""The verbs of a campaign, found by name: every command a campaign of a system runs (its own
and the shared ones), with its parameters. The CLI is checked against it (a verb exists in both
or in neither), and a front end can build a command from a verb and plain values.

A verb is what a user types (``roll``, ``member add``); it is the command's ``name`` (what the
log shows) unless the class sets ``verb``, where the two differ (``use-item`` logs as ``use``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from functools import cache
from typing import Any, get_type_hints

import attrs
from attrs import frozen

from domain.plain import Plain

SHARED = ("domain.lifecycle", "domain.table", "domain.free_rolls", "domain.posts")


@frozen(kw_only=True)
class Parameter(Plain):
    """One field of a command: its name, its type as written, and its default (if any)."""

    name: str
    type: str
    required: bool
    default: Any = None


@frozen(kw_only=True)
class Verb(Plain):
    """A verb: the command class it builds, what it does (the class's docstring), its fields."""

    name: str
    command: type[Any]
    help: str
    parameters: tuple[Parameter, ...]


def verb_of(command: type[Any]) -> str:
    """What a user types for ``command``."""
    return str(getattr(command, "verb", command.name))


@cache
def verbs(system: str) -> Mapping[str, Verb]:
    """Every verb of a ``system`` campaign, by name (the shared verbs first)."""
    from domain.rulesets import SYSTEMS

    found: dict[str, Verb] = {}
    modules = [*SHARED, f"domain.rulesets.{SYSTEMS[system]}.commands"]
    for module in map(importlib.import_module, modules):
        for name in getattr(module, "__all__", None) or dir(module):
            value = getattr(module, name)
            if _is_command(value) and verb_of(value) not in found:
                found[verb_of(value)] = _verb(value)
    return found


def _is_command(value: Any) -> bool:
    return (
        isinstance(value, type)
        and attrs.has(value)
        and callable(getattr(value, "decide", None))
        and isinstance(getattr(value, "name", None), str)
    )


def _verb(command: type[Any]) -> Verb:
    hints = get_type_hints(command)
    parameters = tuple(
        Parameter(
            name=field.name,
            type=_written(hints[field.name]),
            required=field.default is attrs.NOTHING,
            default=None if field.default is attrs.NOTHING else default_of(command, field.name),
        )
        for field in attrs.fields(command)
    )
    doc = inspect.cleandoc(command.__doc__ or "")
    return Verb(
        name=verb_of(command),
        command=command,
        help=" ".join(doc.split("\n\n")[0].split()),
        parameters=parameters,
    )


def _written(kind: Any) -> str:
    return kind.__name__ if isinstance(kind, type) else str(kind).replace("typing.", "")


def default_of(command: type[Any], name: str) -> Any:
    """The value field ``name`` of ``command`` takes when it is not given."""
    default: Any = attrs.fields_dict(command)[name].default
    return default.factory() if isinstance(default, attrs.Factory) else default  # type: ignore[arg-type]
