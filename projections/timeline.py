"""A hero's Exposure reveal timeline as plain data (the JSON format), from the read model.

Keys (format ``campaign-log/exposure-timeline``, version 1):
- ``campaign``, ``hero``, ``player``, ``start`` (Exposure when the hero was made), ``created``
  (the ruling that made it);
- ``rows``: one per ruling that moved Exposure or revealed a detail, in log order: ``ruling``,
  ``command``, ``session`` (null outside a session), ``at``, ``actor``, ``changes`` (``before``,
  ``after``, ``delta``, ``cause``, ``peak_before``, ``peak_after``), ``because`` (the dice and
  calls that explain it, as text), ``reveals`` (``detail``, ``level`` (null off the ladder),
  ``value`` (as it stood then), ``cause``, ``gm_override``, ``suggested``, ``session``),
  ``identity_public``, ``voided`` (null, or ``kind`` undone/amended, ``by``, ``actor``,
  ``reason``), ``replaces`` (the ruling an amendment's row stands for) and ``amended_by``;
- ``sessions``: for each ended session, ``number``, ``exposure``, ``peak`` and ``public`` (what
  the public knew at its end: ``detail``, ``value``, ``level``, ``session`` learnt);
- ``now``: ``exposure``, ``peak``, ``public``.

The campaign-wide view (``campaign-log/exposure-campaign``) holds ``campaign``, ``heroes`` (the
timelines above) and ``sessions`` (per ended session, each hero's ``exposure``, ``peak`` and
the number of details public).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from projections.describe import describe
from projections.event_data import event_of
from projections.views import (
    CampaignTimeline,
    HeroStanding,
    HeroTimeline,
    Known,
    PublicDetail,
    Row,
    SessionEnd,
    SessionStanding,
)

Doc = dict[str, Any]  # a read model's document (storage), not a view
FORMAT = "campaign-log/exposure-timeline"
CAMPAIGN_FORMAT = "campaign-log/exposure-campaign"
VERSION = 1


def _standing(rows: list[Doc], upto: int | None = None) -> list[Doc]:
    return [r for r in rows if r["voided"] is None and (upto is None or r["ruling"] <= upto)]


def known(doc: Doc, upto: int | None = None) -> Known:
    """Exposure, peak and the public details after ruling ``upto`` (default: now)."""
    exposure = peak = doc["start"]
    public: dict[str, PublicDetail] = {}
    for row in _standing(doc["rows"], upto):
        for change in row["changes"]:
            exposure = change["after"]
            peak = change["peak_after"]
        for reveal in row["reveals"]:
            public.setdefault(
                reveal["detail"],
                {
                    "detail": reveal["detail"],
                    "value": reveal["value"],
                    "level": reveal["level"],
                    "session": reveal["session"],
                },
            )
    return {"exposure": exposure, "peak": max(peak, exposure), "public": list(public.values())}


def _ended(campaign: Doc) -> list[tuple[int, int]]:
    """Each ended session with its last ruling, in order."""
    return sorted((int(n), ruling) for n, ruling in campaign["sessions"].items())


def timeline(doc: Doc, campaign: Doc) -> HeroTimeline:
    """One hero's timeline (see the module docstring for its keys)."""
    sessions: list[SessionEnd] = [
        {"number": number, **known(doc, ruling)}
        for number, ruling in _ended(campaign)
        if ruling >= doc["created"]
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": doc["campaign"],
        "hero": doc["hero"],
        "player": doc["player"],
        "start": doc["start"],
        "created": doc["created"],
        "rows": [_row(row) for row in doc["rows"]],
        "sessions": sessions,
        "now": known(doc),
    }


def _row(row: Doc) -> Row:
    """A stored row as the view shows it: ``amended_by`` first (None unless stored), then the
    stored keys in their order; ``because`` read now from the explaining events it keeps."""
    because = [describe(event_of(data)) or "" for data in row["because"]]
    return cast(Row, {"amended_by": None, **row, "because": because})


def campaign_timeline(campaign: Doc, heroes: list[Doc]) -> CampaignTimeline:
    """Every hero's timeline and, per ended session, where each hero stood."""
    lines = [timeline(doc, campaign) for doc in heroes]
    sessions: list[SessionStanding] = []
    for number, _ in _ended(campaign):
        standing: list[HeroStanding] = []
        for line in lines:
            at = next((s for s in line["sessions"] if s["number"] == number), None)
            if at is not None:
                standing.append(
                    {
                        "hero": line["hero"],
                        "exposure": at["exposure"],
                        "peak": at["peak"],
                        "public": len(at["public"]),
                    }
                )
        sessions.append({"number": number, "heroes": standing})
    return {
        "format": CAMPAIGN_FORMAT,
        "version": VERSION,
        "campaign": campaign.get("name"),
        "heroes": lines,
        "sessions": sessions,
    }


def hero_document(read: Callable[[str], Any], key: str) -> Doc | None:
    """A hero's whole timeline document (its head ``key``, ``hero/<campaign id>/<hero id>``,
    with every page of its rows), read through ``read``; None if there is no such hero."""
    head = read(key)
    if head is None:
        return None
    rows = [row for page in range(head["pages"]) for row in read(f"{key}/{page}")["rows"]]
    return {**head, "rows": rows}
