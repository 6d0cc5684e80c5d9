"""Sprawl Goons' verbs, generated from the registry and ``declared`` (``cli.generated``):
characters and NPCs, Action Rolls, combat, hacking, healing, advancement.

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs) and ``SHEETS``
(how a character shows, from ``projections.sprawl_goons_sheet``)."""

from __future__ import annotations

import attrs

from cli.generated import GeneratedGroup
from cli.sheets import Sheets, add_sheet_commands
from cli.sprawl_goons.declared import COMMANDS, GROUPS, LINES
from engine import converter
from projections.sprawl_goons_sheet import sheet_extras, sheet_text, status

SHEETS = Sheets(
    text=lambda c, _: sheet_text(c),
    json=lambda c: converter.unstructure(c) | sheet_extras(c),
    status=status,
)
_CHARACTER = attrs.evolve(
    GROUPS["character"], extend=lambda group: add_sheet_commands(group, SHEETS, "Tanner")
)
VERBS = GeneratedGroup(
    "sprawl-goons",
    "Sprawl Goons: Upgraded's verbs.",
    LINES,
    {**GROUPS, "character": _CHARACTER},
    COMMANDS,
)
