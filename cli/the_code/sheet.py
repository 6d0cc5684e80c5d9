"""How a hero or NPC of The Code shows (``SHEETS``, from ``projections.the_code_sheet``):
imported with the verb that shows one (``character``) or a read that does, not by a roll."""

from __future__ import annotations

from cli.sheets import Sheets
from engine import converter
from projections.the_code_sheet import sheet_extras, sheet_text, status

SHEETS = Sheets(
    text=lambda h, _: sheet_text(h),
    json=lambda h: converter.unstructure(h) | sheet_extras(h),
    status=status,
)
