"""The Sims RPG's verbs, generated from the registry and ``declared`` (``cli.generated``):
sheets, situations, conflicts, damage, recovery and upgrades (private messages are the shared
``post --to``).

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs) and ``SHEETS``
(how a character shows, ``cli.sims.sheet``: imported with the verb that shows one or a read that
does, not by a roll)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import click

from cli.generated import GeneratedGroup
from cli.sims.declared import COMMANDS, GROUPS, LINES

if TYPE_CHECKING:
    from cli.sheets import Sheets


def _sheet_commands(group: click.Group) -> None:
    from cli.sheets import add_sheet_commands
    from cli.sims.sheet import SHEETS

    add_sheet_commands(group, SHEETS, "Neo")


_CHARACTER = attrs.evolve(GROUPS["character"], extend=_sheet_commands)
VERBS = GeneratedGroup(
    "sims", "The Sims RPG's verbs.", LINES, {**GROUPS, "character": _CHARACTER}, COMMANDS
)


def __getattr__(name: str) -> Any:
    if name == "SHEETS":
        from cli.sims.sheet import SHEETS

        sheets: Sheets = SHEETS
        return sheets
    raise AttributeError(name)
