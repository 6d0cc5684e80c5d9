"""Code Green's verbs: characters, token placement, tests, assistance, strain, adaptation.

``VERBS`` holds them (`cli.systems` reads it), ``SHEETS`` shows a character (its projection)."""

from __future__ import annotations

import click

from cli.code_green.characters import character
from cli.code_green.making_tests import assist, reject_assist, roll, test
from cli.code_green.strain import displace, recover, strain
from cli.code_green.tokens import adapt, place
from cli.sheets import Sheets, add_sheet_commands
from engine import converter
from projections.code_green_sheet import sheet_extras, sheet_text, status

SHEETS = Sheets(
    text=sheet_text,
    json=lambda c: converter.unstructure(c) | sheet_extras(c),
    status=status,
)
add_sheet_commands(character, SHEETS, "31415")

VERBS = click.Group("code-green", help="Code Green's verbs.")
for _command in (
    character,
    place,
    test,
    assist,
    reject_assist,
    roll,
    strain,
    displace,
    adapt,
    recover,
):
    VERBS.add_command(_command)
