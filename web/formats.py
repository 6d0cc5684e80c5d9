"""The views served in every registered format (``projections.formats``): the recap, the
Exposure timelines and the thread each answer at their JSON route and at one route per other
format, ``<route>.<suffix>`` (``/recap.md``, ``/recap.txt``, ``/thread.html``,
``/thread.discord``, ...), made here from the one list, so a format registered is served without
a route written for it. ``.discord`` answers the messages as a JSON list of strings, cut at
Discord's limit (or ``max_chars``), in order, and reads as the table (what every member may
read: Discord messages go where the whole table reads), as the CLI's ``--format discord`` does,
unless ``gm`` or ``member`` asks for another copy of a recap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Response, get
from litestar.params import FromPath, FromQuery

from projections.format_list import DISCORD, FORMATS, JSON, Format
from projections.formats import messages, render
from projections.render_discord import MAX_CHARS
from web.commands import BASE
from web.dependencies import TheEngine, You
from web.errors import RESPONSES

READ: dict[str, Any] = {"tags": ["reads"], "sync_to_thread": True, "responses": RESPONSES}
MIN_CHARS = 100  # as the CLI's --max-chars


def answer(kind: str, fmt: Format, view: Any, max_chars: int | None) -> Response[Any]:
    """The view of ``kind`` in ``fmt``, with that format's media type."""
    if fmt is DISCORD:
        limit = max(max_chars or MAX_CHARS, MIN_CHARS)
        return Response(messages(kind, view, limit), media_type=fmt.media_type)
    return Response(render(kind, fmt.name, view), media_type=fmt.media_type)


def _recap_route(fmt: Format, load: Callable[..., Any]) -> Any:
    def handler(
        engine: TheEngine,
        you: You,
        campaign: FromPath[str],
        session: FromQuery[int | None] = None,
        gm: FromQuery[bool] = False,
        member: FromQuery[str | None] = None,
        max_chars: FromQuery[int | None] = None,
    ) -> Response[Any]:
        view = load(engine, you, campaign, session, gm, member, table=fmt is DISCORD)
        return answer("recap", fmt, view, max_chars)

    handler.__doc__ = f"A session's recap (default: the latest) as {fmt.title}."
    return _named(handler, "recap", fmt)


def _timeline_route(fmt: Format, load: Callable[..., Any]) -> Any:
    def handler(
        engine: TheEngine,
        you: You,
        campaign: FromPath[str],
        hero: FromQuery[str | None] = None,
        max_chars: FromQuery[int | None] = None,
    ) -> Response[Any]:
        kind = "campaign" if hero is None else "timeline"
        view = load(engine, you, campaign, hero, table=fmt is DISCORD)
        return answer(kind, fmt, view, max_chars)

    handler.__doc__ = (
        f"The Code: a hero's Exposure timeline (every hero's without ``hero``) as {fmt.title}."
    )
    return _named(handler, "timeline", fmt)


def _thread_route(fmt: Format, load: Callable[..., Any]) -> Any:
    def handler(
        engine: TheEngine,
        you: You,
        campaign: FromPath[str],
        session: FromQuery[int | None] = None,
        max_chars: FromQuery[int | None] = None,
    ) -> Response[Any]:
        view = load(engine, you, campaign, session, table=fmt is DISCORD)
        return answer("thread", fmt, view, max_chars)

    handler.__doc__ = (
        f"A session's thread (default: the latest) as {fmt.title}: its posts and rulings in "
        "order, private and hidden posts only for those who may read them."
    )
    return _named(handler, "thread", fmt)


def _named(handler: Callable[..., Any], route: str, fmt: Format) -> Any:
    handler.__name__ = handler.__qualname__ = f"{route}_{fmt.name}"
    return get(f"{BASE}/{route}.{fmt.suffix}", media_type=fmt.media_type, **READ)(handler)


MAKERS = {"recap": _recap_route, "timeline": _timeline_route, "thread": _thread_route}


def routes(route: str, load: Callable[..., Any]) -> list[Any]:
    """``route``'s handler for every registered format but JSON (its own route answers JSON),
    each reading its view with ``load``."""
    return [MAKERS[route](fmt, load) for fmt in FORMATS.values() if fmt is not JSON]
