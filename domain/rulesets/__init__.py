"""The rule systems, each a sub-package with the same small surface (see ``base.Ruleset``)."""

from __future__ import annotations

from domain.errors import UnknownSystem
from domain.rulesets.base import Ruleset
from domain.rulesets.code_green import RULESET as CODE_GREEN
from domain.rulesets.sims import RULESET as SIMS
from domain.rulesets.sprawl_goons import RULESET as SPRAWL_GOONS
from domain.rulesets.the_code import RULESET as THE_CODE

RULESETS: dict[str, Ruleset] = {
    ruleset.name: ruleset for ruleset in (CODE_GREEN, THE_CODE, SIMS, SPRAWL_GOONS)
}


def ruleset_named(system: str) -> Ruleset:
    try:
        return RULESETS[system]
    except KeyError:
        raise UnknownSystem(system=system, known=", ".join(sorted(RULESETS))) from None
