"""The Code's verbs, generated from the registry and ``declared`` (``cli.generated``): heroes
and NPCs, Ability steps, challenges, contests, the Objective, Reward Points, Exposure.

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs) and ``SHEETS``
(how a hero shows, ``cli.the_code.sheet``: imported with the verb that shows one or a read that
does, not by a roll)."""

from __future__ import annotations

from cli.generated import GeneratedGroup, sheets_attribute, with_sheets
from cli.the_code.declared import COMMANDS, GROUPS, LINES

VERBS = GeneratedGroup(
    "the-code", "The Code's verbs.", LINES, with_sheets(GROUPS, "the_code", '"The Hawk"'), COMMANDS
)
__getattr__ = sheets_attribute("the_code")
