"""The kinds of a command's parameters: what each one takes, said once, read by every front end.

A kind is one of a flag, a whole number (with its bounds), a text (with its longest length), a
choice of fixed values, a list of a kind, or a reference to a character, an NPC, a member or a
ruling. The registry (``domain.registry``) finds each parameter's kind from its annotation and
what its system's ``commands`` module declares beside the command (``PARAMETERS``); the API's
checks, ``amend --set``, the table page's forms, the OpenAPI schema and shell completion all read
it from there. Each kind says:

- ``check(key, value)``: a JSON value as it is, or the refusal (``INVALID_PARAMETER``; a text
  over its length ``TEXT_TOO_LONG``, as the engine's own check says it);
- ``parse(key, text)``: a value from a line of text (``amend --set KEY=TEXT``);
- ``expected()``: what it takes, in words (the refusal's);
- ``schema()``: its JSON Schema.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, ClassVar, TypeAlias

from attrs import frozen

from domain.errors import InvalidParameter
from domain.limits import MAX_TEXT, check_text
from domain.plain import Plain


class Refers(enum.StrEnum):
    """What a reference names."""

    CHARACTER = "character"  # a character of the roster (a PC or an NPC)
    NPC = "npc"  # a non-player entry of the roster (an NPC, a hackable system)
    MEMBER = "member"  # a member of the table
    RULING = "ruling"  # a ruling of the log, by its number


def _refuse(key: str, value: Any, expected: str) -> InvalidParameter:
    return InvalidParameter(key=key, value=value, expected=expected)


@frozen(kw_only=True)
class Flag(Plain):
    """True or false."""

    kind: ClassVar[str] = "flag"

    def check(self, key: str, value: Any) -> Any:
        if isinstance(value, bool):
            return value
        raise _refuse(key, value, self.expected())

    def parse(self, key: str, text: str) -> Any:
        lowered = text.strip().lower()
        if lowered in ("true", "yes", "1", "false", "no", "0"):
            return lowered in ("true", "yes", "1")
        raise _refuse(key, text, self.expected())

    def expected(self) -> str:
        return "true or false"

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@frozen(kw_only=True)
class Integer(Plain):
    """A whole number, at least ``minimum`` and at most ``maximum`` (None: no bound)."""

    kind: ClassVar[str] = "integer"
    minimum: int | None = None
    maximum: int | None = None

    def check(self, key: str, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and self._within(value):
            return value
        raise _refuse(key, value, self.expected())

    def parse(self, key: str, text: str) -> Any:
        try:
            value = int(text)
        except ValueError:
            raise _refuse(key, text, self.expected()) from None
        return self.check(key, value)

    def _within(self, value: int) -> bool:
        return (self.minimum is None or value >= self.minimum) and (
            self.maximum is None or value <= self.maximum
        )

    def expected(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"a whole number of {self.minimum} or more"
        if self.maximum is not None:
            return f"a whole number of {self.maximum} or less"
        return "a whole number"

    def schema(self) -> dict[str, Any]:
        bounds = {"minimum": self.minimum, "maximum": self.maximum}
        return {"type": "integer", **{k: v for k, v in bounds.items() if v is not None}}


@frozen(kw_only=True)
class Text(Plain):
    """A text of at most ``max_length`` characters (``domain.limits``)."""

    kind: ClassVar[str] = "text"
    max_length: int = MAX_TEXT

    def check(self, key: str, value: Any) -> Any:
        if not isinstance(value, str):
            raise _refuse(key, value, self.expected())
        check_text(key, value)
        return value

    def parse(self, key: str, text: str) -> Any:
        return text

    def expected(self) -> str:
        return "text"

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "maxLength": self.max_length}


@frozen(kw_only=True)
class Choice(Plain):
    """One of fixed ``values``. ``reads_more`` says, in words, what else the rule reads (a
    prefix, another case, a number): a text outside the values is then the rule's to refuse,
    while the schema and the forms offer the values (``pattern``: the schema's other texts)."""

    kind: ClassVar[str] = "choice"
    values: tuple[str, ...]
    reads_more: str = ""
    pattern: str | None = None

    def check(self, key: str, value: Any) -> Any:
        if isinstance(value, str) and (value in self.values or self.reads_more):
            check_text(key, value)
            return value
        raise _refuse(key, value, self.expected())

    def parse(self, key: str, text: str) -> Any:
        return self.check(key, text.strip())

    def expected(self) -> str:
        more = f" ({self.reads_more})" if self.reads_more else ""
        return "one of " + ", ".join(repr(v) for v in self.values) + more

    def schema(self) -> dict[str, Any]:
        listed = {"type": "string", "enum": list(self.values)}
        if self.pattern is None:
            return listed
        return {"anyOf": [listed, {"type": "string", "pattern": self.pattern}]}


@frozen(kw_only=True)
class ListOf(Plain):
    """A list, each item of the kind ``item`` (written comma-separated in a line of text)."""

    kind: ClassVar[str] = "list"
    item: Kind

    def check(self, key: str, value: Any) -> Any:
        if not isinstance(value, list):
            raise _refuse(key, value, self.expected())
        try:
            return [self.item.check(key, v) for v in value]
        except InvalidParameter:
            raise _refuse(key, value, self.expected()) from None

    def parse(self, key: str, text: str) -> Any:
        return [self.item.parse(key, item.strip()) for item in text.split(",")]

    def expected(self) -> str:
        return f"a list of {self.item.expected()}"

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.item.schema()}


@frozen(kw_only=True)
class Reference(Plain):
    """A name of a character, an NPC or a member of the table (text), or a ruling's number.
    ``acts``: the character who acts (a player's must be one they play, ``domain.policy``)."""

    kind: ClassVar[str] = "reference"
    refers: Refers
    acts: bool = False

    @property
    def base(self) -> Integer | Text:
        return Integer(minimum=1) if self.refers is Refers.RULING else Text()

    def check(self, key: str, value: Any) -> Any:
        return self.base.check(key, value)

    def parse(self, key: str, text: str) -> Any:
        return self.base.parse(key, text)

    def expected(self) -> str:
        if self.refers is Refers.RULING:
            return "a ruling's number"
        return f"a {self.refers.value}'s name"

    def schema(self) -> dict[str, Any]:
        return {**self.base.schema(), "x-refers": self.refers.value}


Kind: TypeAlias = Flag | Integer | Text | Choice | ListOf | Reference

CHARACTER = Reference(refers=Refers.CHARACTER)
ACTOR = Reference(refers=Refers.CHARACTER, acts=True)
NPC = Reference(refers=Refers.NPC)
MEMBER = Reference(refers=Refers.MEMBER)
RULING = Reference(refers=Refers.RULING)


def choice_of(values: type[enum.Enum], reads_more: str = "", pattern: str | None = None) -> Choice:
    """The choice of an enum's values."""
    return Choice(
        values=tuple(str(m.value) for m in values), reads_more=reads_more, pattern=pattern
    )


def described(kind: Kind) -> dict[str, Any]:
    """A kind as plain data (the verbs' listing): its ``kind`` and its own fields."""
    out: dict[str, Any] = {"kind": kind.kind}
    if isinstance(kind, Integer):
        out.update(minimum=kind.minimum, maximum=kind.maximum)
    elif isinstance(kind, Text):
        out.update(max_length=kind.max_length)
    elif isinstance(kind, Choice):
        out.update(values=list(kind.values), reads_more=kind.reads_more)
    elif isinstance(kind, ListOf):
        out.update(item=described(kind.item))
    elif isinstance(kind, Reference):
        out.update(refers=kind.refers.value, acts=kind.acts)
    return out


Declared: TypeAlias = Mapping[str, Mapping[str, Kind]]
"""What a ``commands`` module declares: a command class's name -> its field -> its kind (what
the annotation alone does not say: references, bounds, choices of texts)."""
