"""The app's handlers of every refusal, answered to whoever asked: a browser (its Accept header
names HTML before JSON) gets a page with the next step (``web.browser``: a mistyped address says
nothing is there, with a way back; a page it is not signed in for, or a spent link, says how to
sign in); an API client, and one that accepts anything, the JSON body of every refusal
(``web.errors``). They hold anywhere on the server, the sign-in middleware's refusals
included."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException

from domain.errors import CodedError
from web.browser import page_for, wants_html
from web.errors import from_anything, from_domain, from_http

Req = Request[Any, Any, Any]


def refused(request: Req, error: Exception) -> Response[Any]:
    """The JSON answer of ``error`` (``web.errors``)."""
    if isinstance(error, HTTPException):
        return from_http(request, error)
    if isinstance(error, CodedError):
        return from_domain(request, error)
    return from_anything(request, error)


def answer(request: Req, error: Exception) -> Response[Any]:
    """A browser's page of ``error``, else its JSON."""
    json = refused(request, error)
    return page_for(request, error, json) if wants_html(request) else json


def as_page(request: Req, error: Exception) -> Response[Any]:
    """``error`` as a page, whoever asked (a route that is a page: ``web.pages``)."""
    return page_for(request, error, refused(request, error))


HANDLERS: dict[int | type[Exception], Any] = {
    CodedError: answer,
    HTTPException: answer,
    Exception: answer,
}
