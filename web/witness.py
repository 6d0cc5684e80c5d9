"""Witnesses on the pages: the head of the log the table page and the dice page show each member
(the latest ruling they may read: the campaign stream's version and link there, the digest over
every stream's head, the last seal), which the member's browser keeps, signed with the key it
holds for them (``web/static/witness.js``, IndexedDB); and ``/campaigns/{campaign}/heads``, the
log's heads at the versions a browser witnessed, which the dice page compares with what it kept
and names the first head the log no longer holds (a fork).

The server computes the heads from the log; the browser compares them with what it was shown
before. A server whose log was rewritten since answers with the rewritten heads, which is what
the comparison catches (a GM who kept both logs could show each member their own: `campaign
verify-dice --witness` on an export, with several members' witness files, is the check that does
not ask the server)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery

from domain.audience import Member
from engine import Head, converter
from web.dependencies import TheEngine, You
from web.errors import InvalidRequest

if TYPE_CHECKING:
    from engine import Engine

Req = Request[Any, Any, Any]
SCRIPT = Path(__file__).with_name("static") / "witness.js"
SCRIPT_ROUTE = "/static/witness.js"
MOST_ASKED = 200  # versions one request asks for (the script asks in batches)
TABLE_PAGE, DICE_PAGE = "the table page", "the dice page"


def shown(engine: Engine, campaign: str, member: str, seen: str) -> dict[str, Any]:
    """What a page gives its witness script: the head as ``member`` is shown it, who they are,
    where they see it, and where the log's heads at other versions are asked for."""
    head = engine.witness_head(campaign, audience=Member(member))
    return {
        "head": converter.unstructure(head),
        "me": member,
        "campaign": campaign,
        "seen": seen,
        "heads": f"/campaigns/{quote(campaign, safe='')}/heads",
        "script": SCRIPT_ROUTE,
    }


def _versions(at: str) -> list[int]:
    parts = [p.strip() for p in at.split(",") if p.strip()]
    whole = all(p.isascii() and p.isdigit() and len(p) < 19 for p in parts)
    if len(parts) > MOST_ASKED or not whole:
        problem = f"at is up to {MOST_ASKED} versions of the campaign's stream, comma-separated"
        raise InvalidRequest(problem=problem)
    return [int(p) for p in parts]


@get("/campaigns/{campaign:str}/heads", include_in_schema=False, sync_to_thread=True)
def heads(
    engine: TheEngine, you: You, campaign: FromPath[str], at: FromQuery[str] = ""
) -> dict[str, Any]:
    """The log's head now as the member is shown it, and its heads at the versions ``at`` of
    the campaign's stream (comma-separated): each a head, or why there is none (``missing``)."""
    found = engine.heads_at(campaign, _versions(at), audience=Member(you))
    return {
        "head": converter.unstructure(engine.witness_head(campaign, audience=Member(you))),
        "heads": [
            {"version": version, **converter.unstructure(head)}
            if isinstance(head, Head)
            else {"version": version, "missing": head}
            for version, head in found.items()
        ],
    }


@get(SCRIPT_ROUTE, exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
def witness_script() -> Response[bytes]:
    """The witness script: public code, the same for everyone."""
    return Response(
        SCRIPT.read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


def routes() -> list[Any]:
    return [heads, witness_script]
