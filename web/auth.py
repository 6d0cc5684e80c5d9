"""Who is asking: a browser's session cookie (set when a one-time invite is opened) or a bot's
``Authorization: Bearer`` token, both looked up hashed in the store (``Engine.who``), through
Litestar's authentication middleware. Cookie-signed writes also need Litestar's CSRF token
(double submit: the ``csrftoken`` cookie's value in the ``x-csrftoken`` header); a request that
carries no session cookie has nothing a forged cross-site request could borrow, and needs none.
"""

from __future__ import annotations

from typing import Any

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

from engine import SignedIn
from web.errors import SignedInElsewhere

SESSION_COOKIE = "campaign_session"
CSRF_COOKIE = "csrftoken"
CSRF_HEADER = "x-csrftoken"


def credential(connection: ASGIConnection[Any, Any, Any, Any]) -> tuple[str, str] | None:
    """``("bearer", token)`` from the Authorization header, else ``("cookie", secret)``."""
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return "bearer", token.strip()
    cookie = connection.cookies.get(SESSION_COOKIE)
    return ("cookie", cookie) if cookie else None


class SignInMiddleware(AbstractAuthenticationMiddleware):
    """Sets ``request.user`` to the ``SignedIn`` member, or refuses 401."""

    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        found = credential(connection)
        if found is None:
            raise NotAuthorizedException("no session cookie and no bearer token")
        engines = connection.app.state.engines
        signed = await sync_to_thread(lambda: engines.get().who(found[1]))  # on the pool
        if signed is None:
            raise NotAuthorizedException("that session or token is unknown, expired or revoked")
        return AuthenticationResult(user=signed, auth=found[0])


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


def signed_in(request: Request[Any, Any, Any]) -> SignedIn:
    user: SignedIn = request.user
    return user


def seat(request: Request[Any, Any, Any], campaign: str) -> str:
    """The signed-in member's name, when the credential is for ``campaign`` (else 403)."""
    user = signed_in(request)
    if user.campaign != campaign:
        raise SignedInElsewhere(signed=user.campaign, asked=campaign)
    return user.member
