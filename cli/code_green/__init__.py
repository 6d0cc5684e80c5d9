"""Code Green's verbs, generated from the registry and ``declared`` (``cli.generated``):
characters, token placement, tests, assistance, strain, adaptation.

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs) and ``SHEETS``
(how a character shows, ``cli.code_green.sheet``: imported with the verb that shows one or a
read that does, not by a roll)."""

from __future__ import annotations

from cli.code_green.declared import COMMANDS, GROUPS, LINES
from cli.generated import GeneratedGroup, sheets_attribute, with_sheets

VERBS = GeneratedGroup(
    "code-green", "Code Green's verbs.", LINES, with_sheets(GROUPS, "code_green", "31415"), COMMANDS
)
__getattr__ = sheets_attribute("code_green")
