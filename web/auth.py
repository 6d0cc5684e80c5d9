"""Who is asking: a browser's session cookie (set when a one-time invite is opened) or a bot's
``Authorization: Bearer`` token, both looked up hashed in the store (``Engine.who``), through
Litestar's authentication middleware. Cookie-signed writes also need Litestar's CSRF token
(double submit: the ``csrftoken`` cookie's value in the ``x-csrftoken`` header); a request that
carries no session cookie has nothing a forged cross-site request could borrow, and needs none.

A browser may be signed in to several campaigns at once: its one session cookie holds a session
per campaign (their secrets, newest first, joined by ``.``), each signing in one member of one
campaign as before; a bot's token signs in one. ``seat(request, campaign)`` picks the one for
the campaign asked about.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from attrs import frozen
from litestar import Request
from litestar.concurrency import sync_to_thread
from litestar.connection import ASGIConnection
from litestar.enums import ScopeType
from litestar.exceptions import NotAuthorizedException
from litestar.middleware.authentication import (
    AbstractAuthenticationMiddleware,
    AuthenticationResult,
)
from litestar.middleware.csrf import CSRFMiddleware
from litestar.types import Receive, Scope, Send

from engine import Engine, SignedIn
from web.errors import SignedInElsewhere

ON_ITS_THREAD = "signs_in_on_its_thread"  # a route's opt: see ``SignInMiddleware``
SESSION_COOKIE = "campaign_session"
CSRF_COOKIE = "csrftoken"
CSRF_HEADER = "x-csrftoken"
SEPARATOR = "."  # between a cookie's sessions (a secret is URL-safe base64: never a dot)
MOST_HELD = 20  # the campaigns one browser holds at once (the oldest sign-in gives way)


@frozen
class Held:
    """One credential the request carries that still signs in: its secret and whom."""

    secret: str
    signed: SignedIn


@frozen
class Holder:
    """What a request's credential signs in: ``via`` a bot's ``bearer`` token, one member of
    one campaign; via a browser's ``cookie``, a member in each campaign it signed in to
    (newest first). ``request.user`` of every signed-in request."""

    via: str
    held: tuple[Held, ...]

    def of(self, campaign: str) -> Held | None:
        return next((h for h in self.held if h.signed.campaign == campaign), None)

    @property
    def campaigns(self) -> tuple[str, ...]:
        return tuple(h.signed.campaign for h in self.held)


@frozen
class Unchecked:
    """A request's credential not yet looked up: its route signs in on its handler's worker
    thread (``holder`` looks it up there, with the route's own store work)."""

    via: str
    secrets: tuple[str, ...]


def cookie_secrets(connection: ASGIConnection[Any, Any, Any, Any]) -> list[str]:
    """The session secrets of the browser's cookie, newest first (an old cookie holds one)."""
    value = connection.cookies.get(SESSION_COOKIE, "")
    return [s for s in value.split(SEPARATOR) if s][:MOST_HELD]


def cookie_value(secrets: Sequence[str]) -> str:
    return SEPARATOR.join(secrets[:MOST_HELD])


def credential(connection: ASGIConnection[Any, Any, Any, Any]) -> tuple[str, list[str]] | None:
    """``("bearer", [token])`` from the Authorization header, else ``("cookie", secrets)``."""
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return "bearer", [token.strip()]
    secrets = cookie_secrets(connection)
    return ("cookie", secrets) if secrets else None


def holder_of(engine: Engine, via: str, secrets: Sequence[str]) -> Holder:
    """Whom ``secrets`` still sign in, one per campaign (the newest), in their order: those
    unknown, expired, signed out or revoked left out."""
    held: list[Held] = []
    for secret in secrets:
        signed = engine.who(secret)
        if signed is not None and all(h.signed.campaign != signed.campaign for h in held):
            held.append(Held(secret=secret, signed=signed))
    return Holder(via=via, held=tuple(held))


def signing_in(engine: Engine, via: str, secrets: Sequence[str]) -> Holder:
    """``holder_of`` the credential, refused 401 when it signs in nobody."""
    found = holder_of(engine, via, secrets)
    if not found.held:
        raise NotAuthorizedException("that session or token is unknown, expired or revoked")
    return found


class SignInMiddleware(AbstractAuthenticationMiddleware):
    """Sets ``request.user`` to the ``Holder`` of the request's credential, or refuses 401.

    A route whose opt says ``ON_ITS_THREAD`` (a write, ``/api/me``: sync handlers that do their
    work on a worker thread anyway) gets the credential ``Unchecked``: its handler looks it up
    on its own thread (``holder``, 401 as here), with its seat check and its command in one
    block of the engine (``Engine.checked_once``): one trip to a worker thread a request, not
    two, and one read of the campaign's head."""

    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        found = credential(connection)
        if found is None:
            raise NotAuthorizedException("no session cookie and no bearer token")
        via, secrets = found
        if connection.route_handler.opt.get(ON_ITS_THREAD):
            return AuthenticationResult(user=Unchecked(via, tuple(secrets)), auth=via)
        engines = connection.app.state.engines
        holder = await sync_to_thread(lambda: signing_in(engines.get(), via, secrets))  # pool
        return AuthenticationResult(user=holder, auth=via)


class CookieCsrfMiddleware(CSRFMiddleware):
    """Litestar's CSRF check, for requests that carry the session cookie (bearer-signed ones
    and anonymous ones have no ambient credential to forge with)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == ScopeType.HTTP:
            request: Request[Any, Any, Any] = Request(scope)
            unsafe = request.method not in self.config.safe_methods
            if unsafe and SESSION_COOKIE not in request.cookies:
                await self.app(scope, receive, send)
                return
        await super().__call__(scope, receive, send)


def holder(request: Request[Any, Any, Any]) -> Holder:
    """The signed-in request's ``Holder`` (set by ``SignInMiddleware``; for a route that signs
    in on its thread, looked up here the first time, on that thread: 401 as the middleware)."""
    user: Holder | Unchecked = request.user
    if isinstance(user, Unchecked):
        user = signing_in(request.app.state.engines.get(), user.via, user.secrets)
        request.scope["user"] = user
    return user


def holder_if_any(request: Request[Any, Any, Any]) -> Holder | None:
    """The ``Holder`` of a request the middleware signed in; None for one it did not (a route
    open to all, a request refused before its route, or one whose route signs in on its thread
    and has not yet)."""
    user = request.scope.get("user")
    return user if isinstance(user, Holder) else None


def listed(campaigns: Sequence[str]) -> str:
    """Campaigns' names for a sentence: ``'A'``, ``'A' and 'B'``, ``'A', 'B' and 'C'``."""
    quoted = [repr(c) for c in campaigns]
    return " and ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)


def signed_in(request: Request[Any, Any, Any], campaign: str) -> SignedIn:
    """Whom the request's credential signs in to ``campaign`` (else 403
    ``SIGNED_IN_ELSEWHERE``, naming the campaigns it does sign in to)."""
    user = holder(request)
    found = user.of(campaign)
    if found is None:
        raise SignedInElsewhere(signed=listed(user.campaigns), asked=campaign)
    return found.signed


def seat(request: Request[Any, Any, Any], campaign: str) -> str:
    """The signed-in member's name in ``campaign`` (else 403 ``SIGNED_IN_ELSEWHERE``)."""
    return signed_in(request, campaign).member


Done = TypeVar("Done")


def seated(
    request: Request[Any, Any, Any], engine: Engine, campaign: str, work: Callable[[str], Done]
) -> Done:
    """On the worker thread of a route that signs in there (``ON_ITS_THREAD``): ``work`` as the
    member the request signs in to ``campaign`` (``seat``: 401 or 403 as before the handler),
    the sign-in's seat check and the work reading the campaign's head once between them
    (``Engine.checked_once``)."""
    with engine.checked_once():
        return work(seat(request, campaign))
