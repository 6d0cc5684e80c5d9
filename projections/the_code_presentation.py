"""How the shared code shows The Code (``projections.presentation``): besides the sheet and the
recap's facts, its heroes' Exposure timelines are a read model of their own and a page beside
the recap."""

from __future__ import annotations

from typing import Any

from projections.presentation import Page, Presentation
from projections.render_html import campaign_timeline_html
from projections.the_code_recap import HIGHLIGHTS, moved
from projections.the_code_sheet import sheet_extras, sheet_text, status
from projections.the_code_timeline_model import TimelineModel


def _timeline_page(engine: Any, campaign: str, reader: str) -> str:
    """The Code: every hero's Exposure over time, as the member reads the log."""
    return campaign_timeline_html(engine.campaign_timelines(campaign, reader=reader))


EXPOSURE = TimelineModel()
PRESENTATION = Presentation(
    sheet_text=lambda h, _: sheet_text(h),
    sheet_extras=sheet_extras,
    status=status,
    highlights=HIGHLIGHTS,
    moved=moved,
    read_models=(EXPOSURE,),
    timeline=EXPOSURE,
    pages=(Page(key="timeline", label="Exposure", path="/timeline", html=_timeline_page),),
)
