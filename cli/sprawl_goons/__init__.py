"""Sprawl Goons' verbs: characters and NPCs, Action Rolls, combat, hacking, healing, advancement.

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs, each module a
theme) and ``SHEETS`` (how a character shows, from ``projections.sprawl_goons_sheet``)."""

from __future__ import annotations

import click

from cli.sheets import Sheets, add_sheet_commands
from cli.sprawl_goons import advancement, characters, combat, hazards, healing, kit, rolls
from engine import converter
from projections.sprawl_goons_sheet import sheet_extras, sheet_text, status

SHEETS = Sheets(
    text=lambda c, _: sheet_text(c),
    json=lambda c: converter.unstructure(c) | sheet_extras(c),
    status=status,
)
add_sheet_commands(characters.character, SHEETS, "Tanner")

VERBS = click.Group("sprawl-goons", help="Sprawl Goons: Upgraded's verbs.")
for _module in (characters, rolls, combat, hazards, healing, kit, advancement):
    for _command in _module.COMMANDS:
        VERBS.add_command(_command)
