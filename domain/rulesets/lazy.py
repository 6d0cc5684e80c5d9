"""Names a module lends from its submodules, each imported the first time one of its names is used.

A system's ``commands`` module names every command of the system, but one `campaign` process runs
one command: building the attrs classes of all the others (the better part of a millisecond each)
would be a good part of its start-up. The module stays the one place to import a command from.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lent_names(
    module: str, package: str, homes: Mapping[str, Sequence[str]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``module``: ``homes`` maps a submodule of ``package``
    to the names it defines. A name, once looked up, is kept in ``module`` itself."""
    home = {name: submodule for submodule, names in homes.items() for name in names}

    def getattr_(name: str) -> Any:
        where = home.get(name)
        if where is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{where}"), name)
        setattr(sys.modules[module], name, value)
        return value

    def dir_() -> list[str]:
        return sorted({*vars(sys.modules[module]), *home})

    return getattr_, dir_
