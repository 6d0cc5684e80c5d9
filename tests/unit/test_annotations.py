"""``domain.annotations.resolve_types`` gives every attrs class of the domain and the engine the
field types ``typing.get_type_hints`` gives (what ``attrs.resolve_types`` sets), with the same
text (the shapes of stored snapshots are written from it)."""

from __future__ import annotations

import importlib
import pkgutil
import typing
from typing import Any

import attrs
import pytest

import domain
import engine
from domain.annotations import resolve_types


def _attrs_classes() -> list[type[Any]]:
    found: dict[str, type[Any]] = {}
    for package in (domain, engine):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if (
                    isinstance(value, type)
                    and attrs.has(value)
                    and value.__module__ == module.__name__
                ):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


CLASSES = _attrs_classes()


def test_the_domain_s_classes_are_found() -> None:
    names = {cls.__name__ for cls in CLASSES}
    assert {"RulingMade", "CampaignState", "CgCharacter", "Recorded", "Snapshot"} <= names
    assert len(CLASSES) > 300


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_each_field_s_type_is_get_type_hints(cls: type[Any]) -> None:
    hints = typing.get_type_hints(cls, include_extras=True)
    resolved = {a.name: a.type for a in attrs.fields(resolve_types(cls))}
    for name, kind in resolved.items():
        assert _real(kind) == _real(hints[name]), name


def _real(kind: Any) -> str:
    """A type's text, freezegun's stand-ins read as the classes they stand for: a class whose
    types were first resolved while a test held the clock keeps them (as attrs' own resolution
    would), and freezegun puts them in a module's names only while it holds the clock."""
    text = str(kind)
    for fake, real in (("FakeDatetime", "datetime"), ("FakeDate", "date")):
        text = text.replace(f"freezegun.api.{fake}", f"datetime.{real}")
    return text


def test_a_name_of_the_class_s_own_is_read_for_that_class() -> None:
    namespace: dict[str, Any] = {}
    exec(  # a class whose annotation names an attribute of its own, not of the module
        "from __future__ import annotations\n"
        "import attrs\n"
        "@attrs.frozen\n"
        "class Holder:\n"
        "    Inner = int\n"
        "    value: Inner\n"
        "    values: tuple[Inner, ...]\n",
        namespace,
    )
    holder = namespace["Holder"]
    holder.__module__ = __name__
    fields = attrs.fields(resolve_types(holder))
    assert (int, tuple[int, ...]) == (fields.value.type, fields.values.type)
