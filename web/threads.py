"""The thread (`campaign thread`) on the server, as the signed-in member may read it: JSON, and
every format registered (``web.formats``: Markdown, text, one HTML page, Discord messages)."""

from __future__ import annotations

from typing import Any

from litestar import get
from litestar.params import FromPath, FromQuery

from domain.audience import TABLE, Audience, Member
from engine import Engine
from projections.render_thread import thread_json
from projections.thread import Thread
from web.commands import BASE
from web.dependencies import TheEngine, You
from web.errors import RESPONSES
from web.formats import routes as format_routes

READ: dict[str, Any] = {"tags": ["reads"], "sync_to_thread": True, "responses": RESPONSES}


def _thread(
    engine: Engine, you: str, campaign: str, session: int | None, *, table: bool = False
) -> Thread:
    """The thread as the member ``you`` reads it (``table``: as the whole table does)."""
    audience: Audience = TABLE if table else Member(you)
    return engine.thread(campaign, session, audience=audience)


@get(f"{BASE}/thread", **READ)
def thread(
    engine: TheEngine, you: You, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> dict[str, Any]:
    """A session's thread (default: the latest) as JSON (format ``campaign-log/thread``): its
    posts and rulings in order, private and hidden posts only for those who may read them."""
    return thread_json(_thread(engine, you, campaign, session))


def routes() -> list[Any]:
    return [thread, *format_routes("thread", _thread)]
