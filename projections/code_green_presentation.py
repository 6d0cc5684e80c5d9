"""How the shared code shows Code Green (``projections.presentation``)."""

from __future__ import annotations

from projections.code_green_recap import HIGHLIGHTS
from projections.code_green_sheet import sheet_extras, sheet_text, status
from projections.presentation import Presentation

PRESENTATION = Presentation(
    sheet_text=sheet_text, sheet_extras=sheet_extras, status=status, highlights=HIGHLIGHTS
)
