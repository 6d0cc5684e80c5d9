"""The table server's ASGI application: `campaign serve` runs it on uvicorn.

Stateless: every campaign, member, session and token lives in the store (the one ``--db``), and
the CSRF tokens' key too, so several server processes may serve one PostgreSQL database.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from html import escape
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from litestar import Litestar, Request
from litestar.config.csrf import CSRFConfig
from litestar.datastructures import State
from litestar.middleware.base import DefineMiddleware
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin
from litestar.openapi.spec import Components, Reference, SecurityScheme
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.template.config import TemplateConfig

from domain.limits import MAX_BODY
from web import (
    commands,
    dice_check,
    live,
    not_found,
    pages,
    reads,
    search,
    signin,
    threads,
    witness,
)
from web.auth import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    CookieCsrfMiddleware,
    SignInMiddleware,
)
from web.csp import DOCS_SCRIPT, set_policy
from web.dependencies import DEPENDENCIES
from web.discord import interactions
from web.discord.seals import SealPoster
from web.discord.signature import Verifier
from web.engines import Engines
from web.errors import body_within_limits
from web.notify import pages as notify_pages
from web.notify.notifier import Notifier
from web.notify.settings import NoticeSettings

OPEN = ["^/schema", "^/join/", "^/static/"]  # what nobody needs to sign in for


def _version() -> str:
    try:
        return version("campaign-log")
    except PackageNotFoundError:  # pragma: no cover - run from a tree that was not installed
        return "0"


class ApiDocs(RedocRenderPlugin):
    """The schema's browsable page (``/schema``): Redoc reading ``/schema/openapi.json``, with no
    inline script, font or icon from elsewhere (``web.csp.DOCS`` allows just that)."""

    def __init__(self) -> None:
        super().__init__(path="/", js_url=DOCS_SCRIPT, google_fonts=False)

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        title = escape(str(openapi_schema["info"]["title"]))
        spec = escape(self.get_openapi_json_route(request))
        return (
            "<!DOCTYPE html><html><head>"
            f'<title>{title}</title><meta charset="utf-8"><link rel="icon" href="data:,">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<style>body { margin: 0; padding: 0 }</style></head>"
            f'<body><redoc spec-url="{spec}"></redoc><script src="{escape(self.js_url)}"></script>'
            "</body></html>"
        ).encode()


def openapi() -> OpenAPIConfig:
    schemes: dict[str, SecurityScheme | Reference] = {
        "bearer": SecurityScheme(
            type="http",
            scheme="bearer",
            description="A bot's token: `campaign member token NAME`.",
        ),
        "session": SecurityScheme(
            type="apiKey",
            name=SESSION_COOKIE,
            security_scheme_in="cookie",
            description="A browser's session, set by opening `campaign member invite NAME`'s "
            f"link; its writes also send the {CSRF_COOKIE} cookie's value in {CSRF_HEADER}.",
        ),
    }
    return OpenAPIConfig(
        title="campaign-log table server",
        version=_version(),
        path="/schema",
        components=Components(security_schemes=schemes),
        security=[{"bearer": []}, {"session": []}],
        use_handler_docstrings=True,
        render_plugins=[ApiDocs(), JsonRenderPlugin()],
    )


def _bounded(engines: Engines) -> Callable[[], None]:
    """At startup: the serving loop's default executor becomes the pool's worker threads, less
    the writer's (``Engines.writers``), which starts too. Litestar runs every sync handler
    (``sync_to_thread=True``) and sync dependency with ``loop.run_in_executor`` on that executor
    (``litestar.concurrency``: no executor of its own is set), the sign-in lookup and the form
    pages go through it too, and the API's writes through ``Engines.write``, so these threads
    (and, on a SQLite file, the loop itself, for the writes it makes one at a time) are all that
    run the requests' store work; a request beyond them waits in its queue."""

    def bound() -> None:
        threads = engines.threads - engines.writers
        workers = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="campaign-worker")
        asyncio.get_running_loop().set_default_executor(workers)  # shut down as the loop ends
        engines.start_writer()

    return bound


def create_app(
    db: str,
    *,
    pool: int | None = None,
    discord_public_key: str | None = None,
    notices: NoticeSettings | None = None,
) -> Litestar:
    """The server of the store ``db`` (a SQLite file or a PostgreSQL URL that exists), holding
    at most ``pool`` connections to it (``web.engines``: default ``CAMPAIGN_POOL`` or 5); with
    ``discord_public_key`` (the application's, hex) it answers Discord's interactions too; with
    ``notices`` it tells members when the table waits on them (``web.notify``)."""
    discord = Verifier(discord_public_key) if discord_public_key else None
    engines = Engines(db, pool)
    feed = live.Feed(engines)
    notifier = Notifier(engines.get, notices) if notices is not None else None
    seals = SealPoster(engines)
    csrf = CSRFConfig(
        secret=engines.get().server_key("csrf"),
        cookie_name=CSRF_COOKIE,
        header_name=CSRF_HEADER,
        cookie_samesite="strict",
    )
    return Litestar(
        route_handlers=[
            *commands.routes(),
            *reads.routes(),
            *search.routes(),
            *threads.routes(),
            *signin.routes(),
            *dice_check.routes(),
            *witness.routes(),
            *pages.routes(),
            *live.routes(),
            *interactions.routes(),
            *notify_pages.routes(),
        ],
        middleware=[
            DefineMiddleware(CookieCsrfMiddleware, config=csrf),
            DefineMiddleware(SignInMiddleware, exclude=OPEN),
        ],
        dependencies=DEPENDENCIES,
        exception_handlers=not_found.HANDLERS,
        request_max_body_size=MAX_BODY,
        before_request=body_within_limits,
        before_send=[set_policy],
        openapi_config=openapi(),
        template_config=TemplateConfig(
            directory=Path(__file__).with_name("templates"),
            engine=JinjaTemplateEngine,
            engine_callback=pages.template_globals,
        ),
        state=State(
            {
                "engines": engines,
                "db": db,
                "feed": feed,
                "discord": discord,
                "notices": notices,
                "notifier": notifier,
            }
        ),
        on_startup=[
            _bounded(engines),
            seals.start,
            *([notifier.start] if notifier else []),
        ],
        on_shutdown=[feed.stop, seals.stop, *([notifier.stop] if notifier else []), engines.close],
        debug=False,
    )
