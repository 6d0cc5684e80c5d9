"""The Sims RPG's verbs (sheets, situations, conflicts, damage, recovery and upgrades; private
messages are the shared ``post --to``) and how its characters show: ``cli.systems`` reads
``VERBS`` and ``SHEETS``."""

from __future__ import annotations

import click

from cli.sheets import Sheets, add_sheet_commands
from cli.sims.characters import character, replace
from cli.sims.conflict import allocate, attack, kill, reroll
from cli.sims.improvement import (
    adventure,
    campaign_success,
    master_plus,
    mission,
    rebirth,
    upgrade,
)
from cli.sims.recovery import authorize_recovery, danger, recover, restore
from cli.sims.situations import roll, simple
from cli.sims.turns import next_turn, strategy, turns
from engine import converter
from projections.sims_sheet import sheet_extras, sheet_text, status

SHEETS = Sheets(
    text=lambda c, _: sheet_text(c),
    json=lambda c: converter.unstructure(c) | sheet_extras(c),
    status=status,
)
add_sheet_commands(character, SHEETS, "Neo")

VERBS = click.Group("sims", help="The Sims RPG's verbs.")
for _command in (
    character,
    replace,
    simple,
    roll,
    turns,
    next_turn,
    strategy,
    attack,
    reroll,
    allocate,
    kill,
    danger,
    authorize_recovery,
    recover,
    restore,
    adventure,
    campaign_success,
    mission,
    upgrade,
    master_plus,
    rebirth,
):
    VERBS.add_command(_command)
