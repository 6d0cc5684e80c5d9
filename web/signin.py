"""Signing in: a one-time invite link (`campaign member invite NAME`) opens a page whose button
spends it and sets the session cookie (HttpOnly, SameSite=Strict, Secure over https, Path=/).

The link spends nothing when it is only opened, because chat apps fetch a posted link to show a
preview (which would spend a one-time link before its member clicks it); and the cookie is set
by a form on this site, because a SameSite=Strict cookie set while following a link from
another site is not sent on the redirect that follows it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from litestar import Request, Response, get, post
from litestar.datastructures import Cookie
from litestar.params import FromPath
from litestar.response import Redirect, Template

from web.auth import SESSION_COOKIE, credential
from web.commands import engine_of
from web.errors import RESPONSES

Req = Request[Any, Any, Any]


def _seconds_until(moment: datetime | None) -> int | None:
    return None if moment is None else int((moment - datetime.now(UTC)).total_seconds())


def page_of(campaign: str) -> str:
    return f"/campaigns/{quote(campaign, safe='')}"


@get("/join/{secret:str}", exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
def join_page(secret: FromPath[str]) -> Template:
    """The sign-in page of an invite: one button that spends it."""
    return Template("join.html", context={"action": f"/join/{quote(secret, safe='')}"})


@post(
    "/join/{secret:str}",
    exclude_from_auth=True,
    tags=["sign-in"],
    sync_to_thread=True,
    responses=RESPONSES,
)
def join(request: Req, secret: FromPath[str]) -> Redirect:
    """Spend a one-time invite: set the session cookie and go to the campaign's page."""
    signed = engine_of(request).sign_in(secret)
    redirect = Redirect(page_of(signed.campaign), status_code=303)
    redirect.set_cookie(
        Cookie(
            key=SESSION_COOKIE,
            value=signed.session,
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            max_age=_seconds_until(signed.expires),
        )
    )
    return redirect


@post("/api/sign-out", tags=["sign-in"], status_code=204, sync_to_thread=True, responses=RESPONSES)
def sign_out(request: Req) -> Response[None]:
    """End this browser's session (a bearer token stays valid: the GM revokes those)."""
    found = credential(request)
    if found is not None and found[0] == "cookie":
        engine_of(request).sign_out(found[1])
    response: Response[None] = Response(None, status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@get("/", exclude_from_auth=True, include_in_schema=False, sync_to_thread=True)
def home(request: Req) -> Template:
    """The front page, for a person: the campaign this browser is signed in to (a session is
    one member's seat in one campaign), or how to get an invite."""
    found = credential(request)
    signed = engine_of(request).who(found[1]) if found is not None else None
    return Template(
        "home.html",
        context={
            "signed": signed,
            "href": page_of(signed.campaign) if signed is not None else "",
        },
    )


def routes() -> list[Any]:
    return [home, join_page, join, sign_out]
