"""One comparison, hash and repr for the domain's frozen attrs classes, instead of one each.

attrs writes and compiles ``__eq__``, ``__hash__`` and ``__repr__`` for every class it builds:
about half the cost of building a class. A `campaign` process builds about a hundred (events,
states, values) before it can record one roll: measured, 17 of the 60 ms the roll spent in our
own code, past the interpreter's start and the libraries' imports.

A subclass of ``Plain`` gets these three shared methods before attrs sees it, and attrs leaves
methods a class already has alone (its ``auto_detect``, on by default for ``attrs.frozen``).
They behave as attrs' own: equal when of the same class with equal fields (those with
``eq=True``), hashed over the same fields, shown as ``Name(field=value, ...)``.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

import attrs

Getter = Callable[[Any], tuple[Any, ...]]

_COMPARED: dict[type[Any], Getter] = {}
_SHOWN: dict[type[Any], tuple[str, ...]] = {}


def _tuple_of(names: list[str]) -> Getter:
    if len(names) > 1:
        return attrgetter(*names)  # a tuple, in C
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda _: ()


def _compared(cls: type[Any]) -> Getter:
    getter = _COMPARED.get(cls)
    if getter is None:
        getter = _COMPARED[cls] = _tuple_of([a.name for a in attrs.fields(cls) if a.eq])
    return getter


class Plain:
    """Base of a frozen attrs class that uses the shared ``__eq__``, ``__hash__`` and ``__repr__``
    below (a method the class defines itself is kept)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in _SHARED:  # the class's own, so that attrs sees them and writes none
            if name not in cls.__dict__:
                setattr(cls, name, getattr(Plain, name))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        values = _compared(self.__class__)
        equal: bool = values(self) == values(other)
        return equal

    def __hash__(self) -> int:
        cls: type[Any] = self.__class__
        return hash((cls.__qualname__, *_compared(cls)(self)))

    def __repr__(self) -> str:
        cls: type[Any] = self.__class__
        names = _SHOWN.get(cls)
        if names is None:
            names = _SHOWN[cls] = tuple(a.name for a in attrs.fields(cls) if a.repr)
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{cls.__qualname__}({shown})"


_SHARED = ("__eq__", "__hash__", "__repr__")
