"""The Sims RPG's verbs, generated from the registry and ``declared`` (``cli.generated``):
sheets, situations, conflicts, damage, recovery and upgrades (private messages are the shared
``post --to``).

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs) and ``SHEETS``
(how a character shows, ``cli.sims.sheet``: imported with the verb that shows one or a read that
does, not by a roll)."""

from __future__ import annotations

from cli.generated import GeneratedGroup, sheets_attribute, with_sheets
from cli.sims.declared import COMMANDS, GROUPS, LINES

VERBS = GeneratedGroup(
    "sims", "The Sims RPG's verbs.", LINES, with_sheets(GROUPS, "sims", "Neo"), COMMANDS
)
__getattr__ = sheets_attribute("sims")
