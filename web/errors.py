"""How a request ends when it does not succeed: the one error body,
``{"error": {"code": CODE, "message": line, "data": {...}}}`` (the CLI's ``--json`` and Discord
give the same), with the HTTP status its kind says (``domain.errors.ErrorKind``, ``STATUS``):

- 401 ``NOT_SIGNED_IN``: no credential, or one that is unknown, used, expired or revoked;
- 403 ``NOT_ALLOWED``: the table's policy said no (``NOT_ALLOWED``, ``NOT_A_MEMBER``), a
  credential of another campaign (``SIGNED_IN_ELSEWHERE``), or a cookie-signed write without its
  CSRF token (``CSRF_FAILED``);
- 404 ``NOT_FOUND``: no such campaign, no such page;
- 413 ``TOO_LARGE``: a body over ``domain.limits.MAX_BODY`` bytes (``BODY_TOO_LARGE``);
- 422 ``BAD_INPUT``: the request itself is wrong: an unknown verb or parameter, a bad value, dice
  that do not fit, a name that names no one, a text over the limits, a body nested too deep;
- 409 ``REFUSED_BY_RULE``: a rule refused the command (``DESTINATION_MARKED``...);
- 503 ``FAULT``: the store failed (a full disk, an unreachable server); 500 ``UNEXPECTED``: a bug.
"""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import (
    HTTPException,
    NotAuthorizedException,
    NotFoundException,
    PermissionDeniedException,
    ValidationException,
)
from litestar.openapi.datastructures import ResponseSpec

from domain.errors import CodedError, DomainError, ErrorKind, Fault
from domain.limits import MAX_BODY, MAX_BODY_DEPTH, nests_deeper
from engine import NotSignedIn, one_line, store_fault
from web.shapes import ErrorOut

log = logging.getLogger("campaign.web")


class SignedInElsewhere(DomainError):
    kind = ErrorKind.NOT_ALLOWED
    template = (
        "signed in to {signed}, not to {asked!r}: ask its GM for a sign-in link "
        "(`campaign member invite`), which adds it"
    )


class UnknownVerb(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "{verb!r} is not a verb of {where} (GET the campaign's verbs to see them)"


class CsrfFailed(DomainError):
    kind = ErrorKind.NOT_ALLOWED
    template = (
        "a write signed in by cookie needs the CSRF token: send the csrftoken cookie's value "
        "in the x-csrftoken header"
    )


class InvalidRequest(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "{problem}"


class BodyTooLarge(DomainError):
    kind = ErrorKind.TOO_LARGE
    template = "the request body is over {limit:,} bytes, the most the server reads"


class BodyNestedTooDeep(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "the request body's JSON nests deeper than {limit} levels, the most the server parses "
        "(a command's body nests three)"
    )


class NotFound(DomainError):
    kind = ErrorKind.NOT_FOUND
    template = "nothing at {path}"


class Unexpected(Fault):
    kind = ErrorKind.UNEXPECTED
    template = "the server stopped on an unexpected {kind}: {problem} (please report it)"


# The one mapping: an error's kind -> its status.
STATUS: dict[ErrorKind, int] = {
    ErrorKind.NOT_SIGNED_IN: 401,
    ErrorKind.NOT_ALLOWED: 403,
    ErrorKind.NOT_FOUND: 404,
    ErrorKind.TOO_LARGE: 413,
    ErrorKind.BAD_INPUT: 422,
    ErrorKind.REFUSED_BY_RULE: 409,
    ErrorKind.FAULT: 503,
    ErrorKind.UNEXPECTED: 500,
}

# What the OpenAPI schema says each refusal's body is, on every route that may give it.
RESPONSES = {
    status: ResponseSpec(data_container=ErrorOut, description=what)
    for status, what in (
        (401, "Not signed in (NOT_SIGNED_IN)"),
        (403, "The table's policy refused (NOT_ALLOWED, NOT_A_MEMBER, ...) or CSRF_FAILED"),
        (404, "No such campaign or page"),
        (413, "The body is too large (BODY_TOO_LARGE)"),
        (409, "A rule refused the command (its code names the rule)"),
        (422, "The request is wrong: an unknown verb or parameter, a bad value"),
        (503, "The store failed (a full disk, an unreachable server): try again later"),
    )
}


BODIED = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def body_within_limits(request: Request[Any, Any, Any]) -> None:
    """Before any route reads its body: one over ``MAX_BODY`` bytes is refused as it is read
    (Litestar's ``request_max_body_size``, 413), one nested deeper than ``MAX_BODY_DEPTH``
    before it is parsed (a parser would recurse into it)."""
    if request.method in BODIED and nests_deeper(await request.body(), MAX_BODY_DEPTH):
        raise BodyNestedTooDeep(limit=MAX_BODY_DEPTH)


def status_of(error: CodedError) -> int:
    """The HTTP status of a refusal or a fault: its kind's (see the module docstring)."""
    return STATUS[error.kind]


def body(error: CodedError) -> dict[str, Any]:
    return {"error": error.body()}


def refusal(error: CodedError) -> Response[Any]:
    return Response(body(error), status_code=status_of(error), media_type="application/json")


def from_domain(request: Request[Any, Any, Any], error: CodedError) -> Response[Any]:
    return refusal(error)


def from_http(request: Request[Any, Any, Any], error: HTTPException) -> Response[Any]:
    """Litestar's own refusals (routing, validation, authentication, CSRF) in our body."""
    problem: DomainError
    if isinstance(error, NotAuthorizedException):
        problem = NotSignedIn(why=str(error.detail))
    elif isinstance(error, PermissionDeniedException):
        problem = CsrfFailed()
    elif isinstance(error, NotFoundException):
        path = request.url.path
        head, _, verb = path.partition("/commands/")
        if head.startswith("/api/campaigns/") and verb:
            problem = UnknownVerb(verb=verb.replace("/", " "), where="any system")
        else:
            problem = NotFound(path=path)
    elif error.status_code == 413:
        problem = BodyTooLarge(limit=MAX_BODY)
    elif isinstance(error, ValidationException) or error.status_code in (400, 422):
        extra = error.extra if isinstance(error.extra, list) else []
        details = "; ".join(
            f"{e.get('key', '')}: {e.get('message', '')}" for e in extra if isinstance(e, dict)
        )
        problem = InvalidRequest(problem=f"{error.detail}{': ' + details if details else ''}")
    else:
        return Response(
            {
                "error": {
                    "code": f"HTTP_{error.status_code}",
                    "message": one_line_of(str(error.detail)),
                    "data": {},
                }
            },
            status_code=error.status_code,
            media_type="application/json",
        )
    return refusal(problem)


def from_anything(request: Request[Any, Any, Any], error: Exception) -> Response[Any]:
    """A store's fault as the fault it is; anything else one line (logged with its trace)."""
    fault = store_fault(error, request.app.state.db)
    if fault is not None:
        return refusal(fault)
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return refusal(Unexpected(kind=type(error).__name__, problem=one_line(error)))


def one_line_of(text: str) -> str:
    return " ".join(text.split())


HANDLERS: dict[int | type[Exception], Any] = {
    CodedError: from_domain,
    HTTPException: from_http,
    Exception: from_anything,
}
