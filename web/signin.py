"""Signing in: a one-time invite link (`campaign member invite NAME`) opens a page whose button
spends it and sets the session cookie (HttpOnly, SameSite=Strict, Secure over https, Path=/).

The link spends nothing when it is only opened, because chat apps fetch a posted link to show a
preview (which would spend a one-time link before its member clicks it); and the cookie is set
by a form on this site, because a SameSite=Strict cookie set while following a link from
another site is not sent on the redirect that follows it.

One browser holds a session per campaign (``web.auth``): a link of another campaign adds its
session to the cookie, one of a campaign it holds replaces that campaign's. ``/`` lists them;
signing out ends one campaign's session, or all of them. A link that no longer signs in (used,
expired, its member unseated) is a page saying to ask the GM for a new one (``web.browser``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any
from urllib.parse import quote

from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.datastructures import Cookie
from litestar.params import FromPath, FromQuery
from litestar.response import Redirect, Template

from domain.audience import Member
from engine import Engine, NotSignedIn, SignedIn
from projections.describe import system_title
from web.auth import (
    MOST_HELD,
    SESSION_COOKIE,
    Holder,
    cookie_secrets,
    cookie_value,
    holder,
    holder_of,
)
from web.browser import listed, page_of, signin_page, wants_html
from web.dependencies import TheEngine, engine_of
from web.errors import RESPONSES

Req = Request[Any, Any, Any]
COOKIE_LIFETIME = timedelta(days=30)  # a session's (engine: SESSION_LIFETIME), the newest's

__all__ = ["page_of", "routes"]


def _seconds_until(moment: datetime | None) -> int:
    if moment is None:
        return int(COOKIE_LIFETIME.total_seconds())
    return int((moment - datetime.now(UTC)).total_seconds())


def _set_sessions(
    response: Response[Any], request: Req, secrets: list[str], expires: datetime | None = None
) -> None:
    """The browser's cookie holds ``secrets`` (newest first), or is deleted for none."""
    if not secrets:
        response.delete_cookie(SESSION_COOKIE, path="/")
        return
    response.set_cookie(
        Cookie(
            key=SESSION_COOKIE,
            value=cookie_value(secrets),
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            max_age=_seconds_until(expires),
        )
    )


def _browser(request: Req) -> Holder:
    """The campaigns this browser's cookie signs in to (a route open to all reads it itself)."""
    return holder_of(engine_of(request), "cookie", cookie_secrets(request))


def campaign_entry(engine: Engine, signed: SignedIn) -> dict[str, Any]:
    """One campaign of the browser's list on ``/``: its name, its table, the member and role it
    signs in as, its system, and how many entries of its latest session are new to the member
    (``unread``, as the table page counts them; the list shows it when there are any)."""
    state = engine.campaign(signed.campaign)
    seat = state.member(signed.member)
    role = str(seat.role) if seat is not None else ""
    new = engine.unread(signed.campaign, audience=Member(signed.member)).count if seat else 0
    return listed(signed, role=role, system=system_title(state.system)) | {"unread": new}


def _join_page(request: Req, engine: Engine, secret: str) -> Template | Response[str]:
    invited = engine.invited(secret)
    browser = _browser(request)
    if invited is None:
        held = [listed(h.signed) for h in browser.held]
        return signin_page(request, why="spent", held=held, status=401)
    held_there = browser.of(invited.campaign)
    context = {
        "action": f"/join/{quote(secret, safe='')}",
        "campaign": invited.campaign,
        "member": invited.member,
        "system": system_title(engine.campaign(invited.campaign).system),
        "replaces": None if held_there is None else held_there.signed.member,
    }
    return Template("join.html", context=context)  # with its form's CSRF field


# Async, its store work on the pool: Litestar registers a path's first handler again when a
# second one joins it, and wraps a sync_to_thread handler twice then.
@get("/join/{secret:str}", exclude_from_auth=True, include_in_schema=False)
async def join_page(
    request: Req, engine: TheEngine, secret: FromPath[str]
) -> Template | Response[str]:
    """The sign-in page of an invite: which campaign and member it signs in, and one button
    that spends it; a link that no longer signs in, a page saying so (401)."""
    return await sync_to_thread(partial(_join_page, request, engine, secret))


@post(
    "/join/{secret:str}",
    exclude_from_auth=True,
    tags=["sign-in"],
    sync_to_thread=True,
    responses=RESPONSES,
)
def join(request: Req, engine: TheEngine, secret: FromPath[str]) -> Redirect | Response[str]:
    """Spend a one-time invite: add its session to the browser's cookie (replacing one of the
    same campaign; the others stay, up to ``MOST_HELD``) and go to the campaign's page."""
    browser = _browser(request)
    try:
        signed = engine.sign_in(secret)
    except NotSignedIn:
        if not wants_html(request):
            raise
        held = [listed(h.signed) for h in browser.held]
        return signin_page(request, why="spent", held=held, status=401)
    replaced = browser.of(signed.campaign)
    others = [h.secret for h in browser.held if h is not replaced]
    ended = others[MOST_HELD - 1 :] + ([replaced.secret] if replaced is not None else [])
    for secret in ended:  # the seat replaced, and the oldest past the most a cookie holds
        engine.sign_out(secret)
    redirect = Redirect(page_of(signed.campaign), status_code=303)
    _set_sessions(redirect, request, [signed.session, *others[: MOST_HELD - 1]], signed.expires)
    return redirect


@post("/api/sign-out", tags=["sign-in"], status_code=204, sync_to_thread=True, responses=RESPONSES)
def sign_out(
    request: Req, engine: TheEngine, campaign: FromQuery[str | None] = None
) -> Response[None]:
    """End this browser's session in ``campaign``, or without it every one it holds (a bearer
    token stays valid: the GM revokes those). A browser's form is sent to ``/`` after it."""
    signed = holder(request)
    kept: list[str] = []
    if signed.via == "cookie":
        chosen = signed.of(campaign) if campaign is not None else None
        ending = cookie_secrets(request) if campaign is None else []
        ending += [chosen.secret] if chosen is not None else []
        for secret in ending:
            engine.sign_out(secret)
        if campaign is not None:
            kept = [h.secret for h in signed.held if h is not chosen]
    response: Response[None] = (  # a browser's plain form goes on to its campaigns
        Response(None, status_code=303, headers={"location": "/"})
        if wants_html(request)
        else Response(None, status_code=204)
    )
    _set_sessions(response, request, kept)
    return response


@get("/", exclude_from_auth=True, include_in_schema=False, sync_to_thread=True)
def home(request: Req, engine: TheEngine) -> Template:
    """The front page, for a person: the campaigns this browser is signed in to, each with its
    table, or how to get an invite. A session that no longer signs in leaves the cookie."""
    browser = _browser(request)
    page = Template(
        "home.html",
        context={"held": [campaign_entry(engine, h.signed) for h in browser.held]},
    )
    if len(browser.held) < len(cookie_secrets(request)):
        _set_sessions(page, request, [h.secret for h in browser.held])
    return page


def routes() -> list[Any]:
    return [home, join_page, join, sign_out]
