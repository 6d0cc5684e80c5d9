"""A mistyped address, answered to the person who typed it: a browser (its Accept header names
HTML before JSON) gets a page saying nothing is there, with a way back (its campaign's table,
the front page); an API client, and one that accepts anything, the JSON body of every refusal
(``web.errors``). The app's handler of Litestar's refusals, so it holds anywhere on the server."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, NotFoundException

from engine import one_line
from web.errors import NotFound, from_http
from web.signin import page_of

Req = Request[Any, Any, Any]


def _wants_html(request: Req) -> bool:
    """A browser's request: it names HTML in its Accept header and prefers it to JSON (an API
    client, and one that accepts anything, gets JSON)."""
    accept = request.headers.get("accept", "")
    if "text/html" not in accept:
        return False
    return request.accept.best_match(["text/html", "application/json"]) == "text/html"


def _back_from(path: str) -> str:
    """The table a mistyped address under a campaign's pages leads back to ("" for none)."""
    parts = path.split("/")
    return (
        page_of(unquote(parts[2]))
        if len(parts) > 2 and parts[1] == "campaigns" and parts[2]
        else ""
    )


def answer_http(request: Req, error: HTTPException) -> Response[Any]:
    """Litestar's refusals: a mistyped address asked for by a browser is a page (404) with a
    way back; everything else, and every API client, the JSON body (``web.errors``)."""
    if isinstance(error, NotFoundException) and _wants_html(request):
        engine: Any = request.app.template_engine
        html = engine.get_template("refused.html").render(
            message=one_line(NotFound(path=request.url.path)),
            back=_back_from(request.url.path),
        )
        return Response(html, status_code=404, media_type=MediaType.HTML)
    return from_http(request, error)
