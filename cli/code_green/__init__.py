"""Code Green's verbs, generated from the registry and ``declared`` (``cli.generated``):
characters, token placement, tests, assistance, strain, adaptation.

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs) and ``SHEETS``
(how a character shows, ``cli.code_green.sheet``: imported with the verb that shows one or a
read that does, not by a roll)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import click

from cli.code_green.declared import COMMANDS, GROUPS, LINES
from cli.generated import GeneratedGroup

if TYPE_CHECKING:
    from cli.sheets import Sheets


def _sheet_commands(group: click.Group) -> None:
    from cli.code_green.sheet import SHEETS
    from cli.sheets import add_sheet_commands

    add_sheet_commands(group, SHEETS, "31415")


_CHARACTER = attrs.evolve(GROUPS["character"], extend=_sheet_commands)
VERBS = GeneratedGroup(
    "code-green", "Code Green's verbs.", LINES, {**GROUPS, "character": _CHARACTER}, COMMANDS
)


def __getattr__(name: str) -> Any:
    if name == "SHEETS":
        from cli.code_green.sheet import SHEETS

        sheets: Sheets = SHEETS
        return sheets
    raise AttributeError(name)
