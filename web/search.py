"""``GET …/search?q=``: what was written into the campaign, found by its words, as the signed-in
member may read it (the engine's ``search``; the keys of ``campaign --json search``)."""

from __future__ import annotations

from typing import Any

from litestar import get
from litestar.params import FromPath, FromQuery

from domain.audience import Member
from engine import SearchResult
from web.commands import BASE
from web.dependencies import TheEngine, You
from web.reads import READ


@get(f"{BASE}/search", **READ)
def search(
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    q: FromQuery[str],
    character: FromQuery[str | None] = None,
    session: FromQuery[int | None] = None,
    limit: FromQuery[int] = 20,
    before: FromQuery[int | None] = None,
) -> SearchResult:
    """The texts holding every word of ``q`` (``word*``: a prefix), newest first; ``more``:
    older ones match too (ask again with ``before`` = the last ruling shown)."""
    return engine.search(
        campaign,
        q,
        audience=Member(you),
        character=character,
        session=session,
        limit=limit,
        before=before,
    )


def routes() -> list[Any]:
    return [search]
