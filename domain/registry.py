"""The verbs of a campaign, found by name: every command a campaign of a system runs (its own
and the shared ones), with its parameters. The CLI is checked against it (a verb exists in both
or in neither), and a front end can build a command from a verb and plain values.

Each parameter has one kind (``domain.kinds``): found from its annotation (a flag, a whole
number, a text, an enum's choice, a tuple's list, ``| None`` for a parameter that may be null),
and from what the command's system declares beside it (its ``commands`` module's
``PARAMETERS``; the shared commands' are ``SHARED_PARAMETERS`` here): references, bounds,
choices of texts. Every front end reads the kind from here.

A command whose ``decide`` may draw dice says so: ``rolls: ClassVar[bool] = True``
(``Verb.rolls``; tests/unit/test_verb_rolls.py holds each declaration to its ``decide``).

A verb is what a user types (``roll``, ``member add``); it is the command's ``name`` (what the
log shows) unless the class sets ``verb``, where the two differ (``use-item`` logs as ``use``).
"""

from __future__ import annotations

import enum
import importlib
import inspect
import types
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

import attrs
from attrs import frozen

from domain.annotations import resolve_types
from domain.kinds import (
    CHARACTER,
    MEMBER,
    NPC,
    RULING,
    Choice,
    Declared,
    Flag,
    Integer,
    Kind,
    ListOf,
    Text,
    choice_of,
)
from domain.plain import Plain

TEXT = Text()
SHARED = ("domain.lifecycle", "domain.table", "domain.free_rolls", "domain.links", "domain.posts")

SHARED_PARAMETERS: Declared = {
    "AddEntropy": {"by": MEMBER},
    "AddMember": {"member": MEMBER, "characters": CHARACTER},
    "DisputeRuling": {"ruling": RULING, "by": MEMBER},
    "LinkMember": {"member": MEMBER},
    "RegisterKey": {"member": MEMBER},
    "RemoveMember": {"member": MEMBER},
    "RevealRuling": {"ruling": RULING},
    "UpholdRuling": {"dispute": RULING},
    "WritePost": {"by": MEMBER, "character": CHARACTER, "npc": NPC, "to": MEMBER},
}
"""The kinds the shared commands declare (``domain.kinds.Declared``)."""


@frozen(kw_only=True)
class Parameter(Plain):
    """One field of a command: its name, its type as written, its kind, whether it may be null,
    and its default (if any)."""

    name: str
    type: str
    required: bool
    kind: Kind = TEXT
    nullable: bool = False
    default: Any = None

    def check(self, value: Any) -> Any:
        """A JSON value for this parameter as it is, or the refusal (``domain.kinds``)."""
        if value is None and self.nullable:
            return None
        return self.kind.check(self.name, value)

    def parse(self, text: str) -> Any:
        """A value for this parameter from a line of text (``amend --set``; ``none`` or
        nothing is null where it may be)."""
        if self.nullable and text.strip().lower() in ("", "none", "-"):
            return None
        return self.kind.parse(self.name, text)

    def expected(self) -> str:
        return self.kind.expected() + (" or null" if self.nullable else "")

    def schema(self) -> dict[str, Any]:
        """The parameter's JSON Schema (its default, where it has one, as JSON)."""
        own = self.kind.schema()
        schema = {"anyOf": [own, {"type": "null"}]} if self.nullable else own
        if not self.required:
            schema = {**schema, "default": _json(self.default)}
        return schema


@frozen(kw_only=True)
class Verb(Plain):
    """A verb: the command class it builds, what it does (the class's docstring), its fields,
    and whether it rolls (its command declares ``rolls``: its ``decide`` may draw dice)."""

    name: str
    command: type[Any]
    help: str
    parameters: tuple[Parameter, ...]
    rolls: bool = False


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
                found[verb_of(value)] = verb_for(value)
    return found


def _is_command(value: Any) -> bool:
    return (
        isinstance(value, type)
        and attrs.has(value)
        and callable(getattr(value, "decide", None))
        and isinstance(getattr(value, "name", None), str)
    )


_FOUND: dict[type[Any], tuple[Parameter, ...]] = {}


def parameters_of(command: type[Any]) -> tuple[Parameter, ...]:
    """The parameters of one command class, each with its kind (the annotation and what the
    command's system declares for it)."""
    found = _FOUND.get(command)
    if found is None:
        found = _FOUND[command] = _parameters(command)
    return found


def _parameters(command: type[Any]) -> tuple[Parameter, ...]:
    hints = {a.name: a.type for a in attrs.fields(resolve_types(command))}
    declared = declared_for(command).get(command.__name__, {})
    parameters = []
    for field in attrs.fields(command):
        hint = hints[field.name]
        options = [o for o in _options(hint) if o is not type(None)]
        parameters.append(
            Parameter(
                name=field.name,
                type=_written(hint),
                required=field.default is attrs.NOTHING,
                kind=_kind_of(options[0] if len(options) == 1 else str, declared.get(field.name)),
                nullable=len(options) < len(_options(hint)),
                default=None if field.default is attrs.NOTHING else default_of(command, field.name),
            )
        )
    return tuple(parameters)


def declared_for(command: type[Any]) -> Declared:
    """What the command's system declares for its commands' parameters (the shared ones: here)."""
    module = command.__module__
    if module in SHARED:
        return SHARED_PARAMETERS
    package = module.rsplit(".", 1)[0]
    found: Declared = getattr(importlib.import_module(f"{package}.commands"), "PARAMETERS", {})
    return found


def acting(command: type[Any]) -> tuple[str, ...]:
    """The fields of ``command`` that name the character who acts (``domain.kinds.ACTOR``)."""
    return tuple(
        p.name
        for p in parameters_of(command)
        if getattr(p.kind, "acts", False)
        or (isinstance(p.kind, ListOf) and getattr(p.kind.item, "acts", False))
    )


def _options(hint: Any) -> tuple[Any, ...]:
    return get_args(hint) if get_origin(hint) in (Union, types.UnionType) else (hint,)


def _kind_of(hint: Any, declared: Kind | None) -> Kind:
    """A parameter's kind: the one declared (for a list's items, when the hint is a tuple and
    the declared kind no list), else the annotation's."""
    if get_origin(hint) is tuple:
        item = get_args(hint)[0]
        if declared is not None and not isinstance(declared, ListOf):
            return ListOf(item=declared)
        return declared or ListOf(item=_kind_of(item, None))
    if declared is not None:
        return declared
    if hint is bool:
        return Flag()
    if hint is int:
        return Integer()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return choice_of(hint)
    if get_origin(hint) is Literal:
        return Choice(values=tuple(str(v) for v in get_args(hint)))
    return Text()


def _json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


def verb_for(command: type[Any]) -> Verb:
    """The verb of one command class (its module alone imported: a front end that runs one
    verb need not load every command of its system, as ``verbs`` does)."""
    parameters = parameters_of(command)
    doc = inspect.cleandoc(command.__doc__ or "")
    return Verb(
        name=verb_of(command),
        command=command,
        help=" ".join(doc.split("\n\n")[0].split()),
        parameters=parameters,
        rolls=rolls(command),
    )


def rolls(command: type[Any]) -> bool:
    """Whether ``command`` may draw dice, as it declares (``rolls: ClassVar[bool] = True``; a
    command that never reads its dice source declares nothing)."""
    return getattr(command, "rolls", False) is True


def _written(kind: Any) -> str:
    return kind.__name__ if isinstance(kind, type) else str(kind).replace("typing.", "")


def default_of(command: type[Any], name: str) -> Any:
    """The value field ``name`` of ``command`` takes when it is not given."""
    default: Any = attrs.fields_dict(command)[name].default
    return default.factory() if isinstance(default, attrs.Factory) else default  # type: ignore[arg-type]
