"""The rule systems, each a sub-package with the same small surface (see ``base.Ruleset``).

A system's package is imported the first time a campaign of that system needs it, so starting
the program costs one system, not all of them.
"""

from __future__ import annotations

import importlib
from typing import Any, cast

from domain.errors import UnknownSystem
from domain.rulesets.base import Ruleset

# system name (as recorded in a campaign) -> its package under domain.rulesets
SYSTEMS: dict[str, str] = {
    "code-green": "code_green",
    "the-code": "the_code",
    "sims": "sims",
    "sprawl-goons": "sprawl_goons",
}


def ruleset_named(system: str) -> Ruleset[Any]:
    package = SYSTEMS.get(system)
    if package is None:
        raise UnknownSystem(system=system, known=", ".join(sorted(SYSTEMS)))
    module = importlib.import_module(f"domain.rulesets.{package}")
    return cast("Ruleset[Any]", module.RULESET)
