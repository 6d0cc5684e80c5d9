"""The shared ``__eq__``, ``__hash__`` and ``__repr__`` of ``domain.plain.Plain`` behave as the
methods attrs would have written, and every domain class that takes them really does."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import Any

import attrs
from attrs import field, frozen
from hypothesis import given
from hypothesis import strategies as st

import domain
import engine
from domain.plain import Plain


@frozen(kw_only=True)
class Shared(Plain):
    name: str
    count: int = 0
    tags: tuple[str, ...] = ()
    note: str = field(default="", eq=False)
    secret: str = field(default="", repr=False)


@frozen(kw_only=True)
class Written:  # the same fields, with the methods attrs writes
    name: str
    count: int = 0
    tags: tuple[str, ...] = ()
    note: str = field(default="", eq=False)
    secret: str = field(default="", repr=False)


@frozen(kw_only=True)
class One(Plain):
    value: int


@frozen(kw_only=True)
class Empty(Plain):
    pass


@frozen(kw_only=True)
class Wider(Shared):
    extra: int = 0


values = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Tanner", "Rosa", "x'y"]),
        "count": st.integers(-2, 2),
        "tags": st.lists(st.sampled_from(["a", "b"]), max_size=2).map(tuple),
        "note": st.sampled_from(["", "n"]),
        "secret": st.sampled_from(["", "s"]),
    }
)


@given(values, values)
def test_equality_hash_and_repr_are_attrs_own(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert (Shared(**a) == Shared(**b)) == (Written(**a) == Written(**b))
    assert (Shared(**a) != Shared(**b)) == (Written(**a) != Written(**b))
    if Shared(**a) == Shared(**b):
        assert hash(Shared(**a)) == hash(Shared(**b))
    assert repr(Shared(**a)) == repr(Written(**a)).replace("Written(", "Shared(", 1)


def test_other_classes_are_never_equal() -> None:
    shared = Shared(name="Tanner")
    assert shared != Written(name="Tanner")
    assert shared != Wider(name="Tanner")
    assert Wider(name="Tanner", extra=1) != Wider(name="Tanner", extra=2)
    assert shared != ("Tanner", 0, ())


def test_one_field_and_no_field() -> None:
    assert One(value=1) == One(value=1) != One(value=2)
    assert len({One(value=1), One(value=1), One(value=2)}) == 2
    assert repr(One(value=1)) == "One(value=1)"
    assert Empty() == Empty()
    assert hash(Empty()) == hash(Empty())
    assert repr(Empty()) == "Empty()"


def test_a_method_the_class_writes_is_kept() -> None:
    @frozen(kw_only=True)
    class Shown(Plain):
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert repr(Shown(name="Tanner")) == "<Tanner>"
    assert Shown(name="Tanner") == Shown(name="Tanner")


def _modules(package: Any) -> None:
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)


def _subclasses(cls: type[Any]) -> set[type[Any]]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_domain_class_uses_the_shared_methods() -> None:
    _modules(domain)
    _modules(engine)
    classes = [  # as their modules hold them (attrs replaces the class it is given)
        c
        for c in _subclasses(Plain)
        if c.__module__.startswith(("domain.", "engine."))
        and getattr(sys.modules[c.__module__], c.__qualname__, None) is c
    ]
    assert len(classes) > 200  # every event, state and value
    for cls in classes:
        assert attrs.has(cls), cls
        for name in ("__eq__", "__hash__", "__repr__"):
            assert cls.__dict__[name] is Plain.__dict__[name], (cls, name)
