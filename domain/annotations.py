"""The types of an attrs class's fields, read from their annotations' text once per text.

Every module here writes ``from __future__ import annotations``, so an attrs field's type is the
text of its annotation until somebody resolves it. ``attrs.resolve_types`` does that through
``typing.get_type_hints``, which compiles every annotation of every class again ("str" as often
as it is written): some two hundred compilations in a `campaign roll` process. Here a name
(``str``, ``UUID``) is looked up without compiling, and any other text is compiled once per
module that writes it. The result is what ``get_type_hints`` gives (tests/unit/test_annotations.py
holds every registered event, state and command class to it); an annotation this cannot read
as plainly (a nested text, ``Annotated``) is left to ``attrs.resolve_types``.
"""

from __future__ import annotations

import builtins
import inspect
import sys
import typing
from typing import Any

import attrs

_EVALUATED: dict[tuple[str, str], Any] = {}
_MISSING = object()


def _is_plain(value: Any) -> bool:
    """Whether a type holds no text left to read and nothing ``get_type_hints`` would change."""
    if isinstance(value, (str, typing.ForwardRef)):
        return False
    if typing.get_origin(value) is typing.Annotated:
        return False
    return all(_is_plain(arg) for arg in typing.get_args(value) if arg is not Ellipsis)


def _evaluated(text: str, owner: type[Any]) -> Any:
    """``text`` read as ``get_type_hints`` reads a class's annotation: the module's names first,
    then the class's, then the builtins."""
    module = sys.modules[owner.__module__].__dict__
    if text.isidentifier():
        for names in (module, vars(owner), vars(builtins)):
            found = names.get(text, _MISSING)
            if found is not _MISSING:
                return type(None) if found is None else found
        raise NameError(text)
    key = (owner.__module__, text)
    found = _EVALUATED.get(key, _MISSING)
    if found is _MISSING:
        try:  # the module's names alone: the same for every class of the module
            found = _EVALUATED[key] = eval(text, {"__builtins__": builtins}, module)
        except NameError:  # a name of the class's own: read for this class only
            found = eval(text, dict(vars(owner)), module)
    return type(None) if found is None else found


def resolve_types(cls: type[Any]) -> type[Any]:
    """Resolve ``cls``'s field types in place, as ``attrs.resolve_types`` does; ``cls``."""
    done = cls.__dict__.get("__attrs_types_resolved__") is cls
    if done:
        return cls
    hints: dict[str, Any] = {}
    for owner in reversed(cls.__mro__):
        for name, annotation in inspect.get_annotations(owner).items():
            value = _evaluated(annotation, owner) if isinstance(annotation, str) else annotation
            if typing.get_origin(value) is typing.ClassVar or value is typing.ClassVar:
                continue
            hints[name] = value
    fields = [a for a in attrs.fields(cls) if a.name in hints]
    if not all(_is_plain(hints[a.name]) for a in fields):
        resolved: type[Any] = attrs.resolve_types(cls)
        return resolved
    for field in fields:
        object.__setattr__(field, "type", hints[field.name])
    cls.__attrs_types_resolved__ = cls
    return cls
