"""Sprawl Goons' verbs, generated from the registry and ``declared`` (``cli.generated``):
characters and NPCs, Action Rolls, combat, hacking, healing, advancement.

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs) and ``SHEETS``
(how a character shows, ``cli.sprawl_goons.sheet``: imported with the verb that shows one or a
read that does, not by a roll)."""

from __future__ import annotations

from cli.generated import GeneratedGroup, sheets_attribute, with_sheets
from cli.sprawl_goons.declared import COMMANDS, GROUPS, LINES

VERBS = GeneratedGroup(
    "sprawl-goons",
    "Sprawl Goons: Upgraded's verbs.",
    LINES,
    with_sheets(GROUPS, "sprawl_goons", "Tanner"),
    COMMANDS,
)
__getattr__ = sheets_attribute("sprawl_goons")
