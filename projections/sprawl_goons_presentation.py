"""How the shared code shows Sprawl Goons (``projections.presentation``)."""

from __future__ import annotations

from projections.presentation import Presentation
from projections.sprawl_goons_recap import HIGHLIGHTS, moved
from projections.sprawl_goons_sheet import sheet_extras, sheet_text, status

PRESENTATION = Presentation(
    sheet_text=lambda c, _: sheet_text(c),
    sheet_extras=sheet_extras,
    status=status,
    highlights=HIGHLIGHTS,
    moved=moved,
)
