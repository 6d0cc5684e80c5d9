"""The Code's verbs, generated from the registry and ``declared`` (``cli.generated``): heroes
and NPCs, Ability steps, challenges, contests, the Objective, Reward Points, Exposure.

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs) and ``SHEETS``
(how a hero shows, ``cli.the_code.sheet``: imported with the verb that shows one or a read that
does, not by a roll)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import click

from cli.generated import GeneratedGroup
from cli.the_code.declared import COMMANDS, GROUPS, LINES

if TYPE_CHECKING:
    from cli.sheets import Sheets


def _sheet_commands(group: click.Group) -> None:
    from cli.sheets import add_sheet_commands
    from cli.the_code.sheet import SHEETS

    add_sheet_commands(group, SHEETS, '"The Hawk"')


_CHARACTER = attrs.evolve(GROUPS["character"], extend=_sheet_commands)
VERBS = GeneratedGroup("the-code", "The Code's verbs.", LINES, {"character": _CHARACTER}, COMMANDS)


def __getattr__(name: str) -> Any:
    if name == "SHEETS":
        from cli.the_code.sheet import SHEETS

        sheets: Sheets = SHEETS
        return sheets
    raise AttributeError(name)
