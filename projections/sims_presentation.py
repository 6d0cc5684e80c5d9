"""How the shared code shows the Sims (``projections.presentation``)."""

from __future__ import annotations

from projections.presentation import Presentation
from projections.sims_recap import HIGHLIGHTS, moved
from projections.sims_sheet import sheet_extras, sheet_text, status

PRESENTATION = Presentation(
    sheet_text=lambda c, _: sheet_text(c),
    sheet_extras=sheet_extras,
    status=status,
    highlights=HIGHLIGHTS,
    moved=moved,
)
