"""The Code's verbs: heroes and NPCs, Ability steps, challenges, contests, the Objective,
Reward Points, Exposure.

``VERBS`` holds them (`cli.systems` reads it), ``SHEETS`` shows a hero (its projection)."""

from __future__ import annotations

import click

from cli.sheets import Sheets, add_sheet_commands
from cli.the_code.challenges import challenge, contest, day_off, motivation, step
from cli.the_code.characters import character, npc
from cli.the_code.exposure import blab, exposure, lower_exposure, reaction
from cli.the_code.rewards import alter_objective, buy_motivation, objective, recur, solve
from cli.the_code.session_flags import conduct, mo, weakness
from engine import converter
from projections.the_code_sheet import sheet_extras, sheet_text, status

SHEETS = Sheets(
    text=lambda h, _: sheet_text(h),
    json=lambda h: converter.unstructure(h) | sheet_extras(h),
    status=status,
)
add_sheet_commands(character, SHEETS, '"The Hawk"')

VERBS = click.Group("the-code", help="The Code's verbs.")
for _command in (
    character,
    npc,
    step,
    challenge,
    motivation,
    contest,
    mo,
    weakness,
    conduct,
    day_off,
    objective,
    solve,
    recur,
    buy_motivation,
    alter_objective,
    exposure,
    lower_exposure,
    blab,
    reaction,
):
    VERBS.add_command(_command)
