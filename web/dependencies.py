"""What Litestar gives a handler by the name of its parameter (the app's dependencies):

- ``engine: TheEngine``: the engine of the server's store (``web.engines``);
- ``you: You``: the signed-in member's name in the route's ``campaign``, found before the
  handler runs (403 ``SIGNED_IN_ELSEWHERE`` for a credential that does not sign in to it, as
  ``web.auth.seat``). A handler that only needs the check takes it too.

Both are cheap and never block (the engine is made when the app is), so neither runs in a
thread; ``you`` is resolved after ``engine``, never beside it (see ``_you``)."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath

from engine import Engine
from web.auth import seat

TheEngine = NamedDependency[Engine]
You = NamedDependency[str]


def engine_of(request: Request[Any, Any, Any]) -> Engine:
    """The engine of the server's store (for what is no handler: a guard, a page's helper)."""
    engine: Engine = request.app.state.engines.get()
    return engine


def _you(request: Request[Any, Any, Any], campaign: FromPath[str], engine: TheEngine) -> str:
    # ``engine`` is not used: asking for it orders this dependency after the engine's, so
    # Litestar resolves the two one after the other instead of in a task group of their own
    # (an anyio task group a request costs about a tenth of a roll's CPU on the event loop).
    del engine
    return seat(request, campaign)


DEPENDENCIES: dict[str, Provide] = {
    "engine": Provide(engine_of, sync_to_thread=False),
    "you": Provide(_you, sync_to_thread=False),
}
