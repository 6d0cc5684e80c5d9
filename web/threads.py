"""The thread (`campaign thread`) on the server, as the signed-in member may read it: JSON,
Markdown and one HTML page (the posts' Markdown rendered by ``projections.post_text``)."""

from __future__ import annotations

from typing import Any

from litestar import MediaType, Request, get
from litestar.params import FromPath, FromQuery

from domain.audience import Member
from projections.render_thread import thread_html, thread_json, thread_md
from projections.thread import Thread
from web.auth import seat
from web.commands import BASE, engine_of
from web.errors import RESPONSES

Req = Request[Any, Any, Any]
READ: dict[str, Any] = {"tags": ["reads"], "sync_to_thread": True, "responses": RESPONSES}


def _thread(request: Req, campaign: str, session: int | None) -> Thread:
    return engine_of(request).thread(campaign, session, audience=Member(seat(request, campaign)))


@get(f"{BASE}/thread", **READ)
def thread(
    request: Req, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> dict[str, Any]:
    """A session's thread (default: the latest) as JSON (format ``campaign-log/thread``): its
    posts and rulings in order, private and hidden posts only for those who may read them."""
    return thread_json(_thread(request, campaign, session))


@get(f"{BASE}/thread.md", media_type="text/markdown", **READ)
def thread_markdown(
    request: Req, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> str:
    """The thread as inert Markdown (forums, chat)."""
    return thread_md(_thread(request, campaign, session))


@get(f"{BASE}/thread.html", media_type=MediaType.HTML, **READ)
def thread_page(
    request: Req, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> str:
    """The thread as one self-contained HTML page."""
    return thread_html(_thread(request, campaign, session))


def routes() -> list[Any]:
    return [thread, thread_markdown, thread_page]
