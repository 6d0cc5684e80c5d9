"""How a Code Green character shows (``SHEETS``, from ``projections.code_green_sheet``):
imported with the verb that shows one (``character``) or a read that does, not by a roll."""

from __future__ import annotations

from cli.sheets import Sheets
from engine import converter
from projections.code_green_sheet import sheet_extras, sheet_text, status

SHEETS = Sheets(
    text=sheet_text,
    json=lambda c: converter.unstructure(c) | sheet_extras(c),
    status=status,
)
