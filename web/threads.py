"""The thread (`campaign thread`) on the server, as the signed-in member may read it: JSON, and
every format registered (``web.formats``: Markdown, text, one HTML page, Discord messages)."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.params import FromPath, FromQuery

from domain.audience import TABLE, Audience, Member
from projections.render_thread import thread_json
from projections.thread import Thread
from web.auth import seat
from web.commands import BASE, engine_of
from web.errors import RESPONSES
from web.formats import routes as format_routes

Req = Request[Any, Any, Any]
READ: dict[str, Any] = {"tags": ["reads"], "sync_to_thread": True, "responses": RESPONSES}


def _thread(request: Req, campaign: str, session: int | None, *, table: bool = False) -> Thread:
    """The thread as the member reads it (``table``: as the whole table does)."""
    reader = seat(request, campaign)
    audience: Audience = TABLE if table else Member(reader)
    return engine_of(request).thread(campaign, session, audience=audience)


@get(f"{BASE}/thread", **READ)
def thread(
    request: Req, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> dict[str, Any]:
    """A session's thread (default: the latest) as JSON (format ``campaign-log/thread``): its
    posts and rulings in order, private and hidden posts only for those who may read them."""
    return thread_json(_thread(request, campaign, session))


def routes() -> list[Any]:
    return [thread, *format_routes("thread", _thread)]
