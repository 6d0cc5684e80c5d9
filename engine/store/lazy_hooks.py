"""cattrs' hooks for attrs classes, generated only for a class used often.

cattrs writes and compiles a function to (un)structure each attrs class the first time it meets
it: right for a server that decodes the same classes many times, but a `campaign roll` process
decodes a snapshot and a few events once each, and compiling some thirty such functions was a
twentieth of its instructions (callgrind). Here a class is first read and written field by
field, with the very hooks the generated function would call, and its function is generated
the ``GENERATE_AFTER``-th time the class is met. Both ways give the same values and the same
dict (tests/unit/test_lazy_hooks.py holds them to each other for every event and state class);
a class of an unusual shape (a field with no ``__init__`` argument, a renamed field, an alias)
is generated at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
from cattrs import Converter
from cattrs.fns import identity
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn
from cattrs.gen._shared import find_structure_handler

from domain.annotations import resolve_types

GENERATE_AFTER = 16
"""Uses of a class (each structure or unstructure) read field by field before its function is
generated."""

Structure = Callable[[Any, Any], Any]
Unstructure = Callable[[Any], dict[str, Any]]
Hook = Callable[..., Any]


def _plain_shape(cls: type[Any]) -> bool:
    """Whether every field is an ``__init__`` argument of its own name, with a type."""
    return all(a.init and a.alias == a.name and a.type is not None for a in attrs.fields(cls))


def _resolved(cls: type[Any]) -> tuple[attrs.Attribute[Any], ...]:
    fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(resolve_types(cls))
    return fields


def _until_met_often(by_field: Hook, generate: Callable[[], Hook]) -> Hook:
    """``by_field`` for the first ``GENERATE_AFTER`` - 1 uses, then the function ``generate``
    makes (once) for every use after."""
    uses = 0
    generated: Hook | None = None

    def hook(*given: Any) -> Any:
        nonlocal uses, generated
        if generated is None:
            uses += 1
            if uses < GENERATE_AFTER:
                return by_field(*given)
            generated = generate()
        return generated(*given)

    return hook


def structure_factory(converter: Converter) -> Callable[[type[Any]], Structure]:
    """A hook factory for attrs classes: field by field, then generated."""

    def generate(cls: type[Any]) -> Structure:
        resolve_types(cls)
        return make_dict_structure_fn(
            cls,
            converter,
            _cattrs_forbid_extra_keys=converter.forbid_extra_keys,
            _cattrs_detailed_validation=converter.detailed_validation,
        )

    def factory(cls: type[Any]) -> Structure:
        if not _plain_shape(cls) or converter.forbid_extra_keys:
            return generate(cls)
        required: list[tuple[str, Structure | None, Any]] = []
        optional: list[tuple[str, Structure | None, Any]] = []
        for a in _resolved(cls):
            handler = find_structure_handler(a, a.type, converter)
            one = (a.name, handler, a.type)
            (required if a.default is attrs.NOTHING else optional).append(one)

        def by_field(value: Any, _: Any) -> Any:
            given = {n: _structured(value[n], h, t) for n, h, t in required}
            for name, handler, kind in optional:
                if name in value:
                    given[name] = _structured(value[name], handler, kind)
            return cls(**given)

        return _until_met_often(by_field, lambda: generate(cls))

    return factory


def _structured(value: Any, handler: Structure | None, kind: Any) -> Any:
    return value if handler is None else handler(value, kind)


def unstructure_factory(converter: Converter) -> Callable[[type[Any]], Unstructure]:
    """A hook factory for attrs classes: field by field, then generated."""

    def generate(cls: type[Any]) -> Unstructure:
        resolve_types(cls)
        return make_dict_unstructure_fn(
            cls, converter, _cattrs_omit_if_default=converter.omit_if_default
        )

    def factory(cls: type[Any]) -> Unstructure:
        if not _plain_shape(cls) or converter.omit_if_default:
            return generate(cls)
        each: list[tuple[str, Callable[[Any], Any] | None]] = []
        for a in _resolved(cls):
            handler = converter.get_unstructure_hook(a.type, cache_result=False)
            each.append((a.name, None if handler == identity else handler))

        def by_field(instance: Any) -> dict[str, Any]:
            return {
                name: getattr(instance, name) if h is None else h(getattr(instance, name))
                for name, h in each
            }

        return _until_met_often(by_field, lambda: generate(cls))

    return factory
