"""What a person's browser is shown when a page cannot be: a page with the next step, never the
API's JSON. A browser is a request whose Accept header names HTML before JSON (a page of a
campaign is answered as one whatever its Accept header: ``web.pages``); a program (its Accept
header names JSON first, or anything: ``fetch``, curl, a bot, the pages' own scripts) keeps
the one JSON body of ``web.errors``, the API's every refusal.

- not signed in (401), to this campaign (403 ``SIGNED_IN_ELSEWHERE``), or with a sign-in link
  that is used, expired or whose member lost their seat (401): the sign-in page, saying which
  campaign was asked for, to ask its GM for a link, and listing the campaigns this browser is
  signed in to;
- anything else: its one line, with a way back (the campaign's table, the front page).
"""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus
from typing import Any
from urllib.parse import quote, unquote

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException

from engine import SignedIn
from web.auth import holder_if_any

Req = Request[Any, Any, Any]
SIGN_IN = frozenset({"NOT_SIGNED_IN", "SIGNED_IN_ELSEWHERE"})  # the codes the sign-in page answers


def page_of(campaign: str) -> str:
    """The address of a campaign's table."""
    return f"/campaigns/{quote(campaign, safe='')}"


def wants_html(request: Req) -> bool:
    """A browser's request: it names HTML in its Accept header and prefers it to JSON (an API
    client, and one that accepts anything, gets JSON)."""
    accept = request.headers.get("accept", "")
    if "text/html" not in accept:
        return False
    return request.accept.best_match(["text/html", "application/json"]) == "text/html"


def asked_campaign(path: str) -> str:
    """The campaign a path under ``/campaigns/`` is of ("" for none)."""
    parts = path.split("/")
    return unquote(parts[2]) if len(parts) > 2 and parts[1] == "campaigns" else ""


def listed(signed: SignedIn, **more: Any) -> dict[str, Any]:
    """One campaign of a browser's list (the front page, the sign-in page): its name, the
    member it signs in as, its table's address, and whatever ``more`` the page knows of it."""
    return {
        "campaign": signed.campaign,
        "member": signed.member,
        "href": page_of(signed.campaign),
    } | more


def render(request: Req, template: str, status: int, **context: Any) -> Response[str]:
    """A page of ``template`` with ``context``, answered with ``status``."""
    engine: Any = request.app.template_engine
    html = engine.get_template(template).render(**context)
    return Response(html, status_code=status, media_type=MediaType.HTML)


def signin_page(
    request: Req, *, why: str, held: Sequence[dict[str, Any]], status: int, asked: str = ""
) -> Response[str]:
    """The sign-in page: ``why`` is ``spent`` (a link that no longer signs in), ``elsewhere``
    (signed in, not to ``asked``) or ``none``; ``held``, the campaigns the browser is signed in
    to (``listed``)."""
    return render(request, "signin.html", status, why=why, asked=asked, held=held)


def page_for(request: Req, error: Exception, refused: Response[Any]) -> Response[str]:
    """The page of a refusal whose JSON answer is ``refused`` (``web.errors``): its status, and
    the sign-in page for a sign-in's refusal."""
    body = refused.content["error"] if isinstance(refused.content, dict) else {}
    code, message = str(body.get("code", "")), str(body.get("message", ""))
    path = request.url.path
    status = refused.status_code or 500
    if code in SIGN_IN:
        signed_in = holder_if_any(request)
        held = [] if signed_in is None else [listed(h.signed) for h in signed_in.held]
        why = "spent" if path.startswith("/join/") else "elsewhere" if held else "none"
        return signin_page(request, why=why, held=held, status=status, asked=asked_campaign(path))
    detail = str(error.detail) if isinstance(error, HTTPException) else ""
    if code == "NOT_FOUND" and detail and detail != HTTPStatus.NOT_FOUND.phrase:
        message = " ".join(detail.split())  # a page's own reason (no such page of this system)
    asked = asked_campaign(path)
    back = page_of(asked) if asked else ""
    return render(request, "refused.html", status, message=message, back=back)
