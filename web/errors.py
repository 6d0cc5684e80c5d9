"""How a request ends when it does not succeed: one table from the domain's refusals to HTTP
statuses, and the one body every refusal has, ``{"error": {"code": CODE, "message": line}}``.

- 401 ``NOT_SIGNED_IN``: no credential, or one that is unknown, used, expired or revoked;
- 403: the table's policy said no (``NOT_ALLOWED``, ``NOT_A_MEMBER``), a credential of another
  campaign (``SIGNED_IN_ELSEWHERE``), or a cookie-signed write without its CSRF token
  (``CSRF_FAILED``);
- 404: no such campaign, no such page;
- 413 ``BODY_TOO_LARGE``: a body over ``domain.limits.MAX_BODY`` bytes;
- 422: the request itself is wrong: an unknown verb or parameter, a bad value, dice that do not
  fit, a name that names no one, a text over the limits, a body nested too deep (``INPUT``,
  below);
- 409: a rule refused the command (every other refusal: ``DESTINATION_MARKED``...);
- 503: the store failed (a full disk, an unreachable server); 500: anything unexpected.
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

from domain.errors import (
    AmbiguousCharacter,
    CommandTextTooLong,
    DiceNotFromCommitment,
    DomainError,
    EmptyText,
    InvalidDieFace,
    InvalidHouseRule,
    InvalidMemberName,
    InvalidParameter,
    NotAllowed,
    NotAMember,
    NotEnoughDice,
    TextTooLong,
    TooManyDice,
    UnknownCampaign,
    UnknownCharacter,
    UnknownParameter,
    UnreadableDice,
)
from domain.free_rolls import UnreadableDiceNotation, UnsupportedDiceNotation
from domain.limits import MAX_BODY, MAX_BODY_DEPTH, nests_deeper
from engine import NoSuchPoint, NotSignedIn, StoreFault, one_line, store_fault
from web.shapes import ErrorOut

log = logging.getLogger("campaign.web")


class SignedInElsewhere(DomainError):
    template = "signed in to campaign {signed!r}, not {asked!r}: open {asked!r}'s own link"


class UnknownVerb(DomainError):
    template = "{verb!r} is not a verb of {where} (GET the campaign's verbs to see them)"


class CsrfFailed(DomainError):
    template = (
        "a write signed in by cookie needs the CSRF token: send the csrftoken cookie's value "
        "in the x-csrftoken header"
    )


class InvalidRequest(DomainError):
    template = "{problem}"


class BodyTooLarge(DomainError):
    template = "the request body is over {limit:,} bytes, the most the server reads"


class BodyNestedTooDeep(DomainError):
    template = (
        "the request body's JSON nests deeper than {limit} levels, the most the server parses "
        "(a command's body nests three)"
    )


class NotFound(DomainError):
    template = "nothing at {path}"


class Unexpected(DomainError):
    template = "the server stopped on an unexpected {kind}: {problem} (please report it)"


# The one table: a refusal's class -> its status. A class not named is a rule's refusal (409).
INPUT = (
    UnknownVerb,
    UnknownParameter,
    InvalidParameter,
    InvalidRequest,
    BodyNestedTooDeep,
    UnreadableDice,
    InvalidDieFace,
    NotEnoughDice,
    TooManyDice,
    UnknownCharacter,
    AmbiguousCharacter,
    EmptyText,
    TextTooLong,
    CommandTextTooLong,
    InvalidMemberName,
    InvalidHouseRule,
    UnreadableDiceNotation,
    UnsupportedDiceNotation,
    NoSuchPoint,
)
STATUS: tuple[tuple[tuple[type[DomainError], ...], int], ...] = (
    ((NotSignedIn,), 401),
    ((NotAllowed, NotAMember, DiceNotFromCommitment, SignedInElsewhere, CsrfFailed), 403),
    ((UnknownCampaign, NotFound), 404),
    ((BodyTooLarge,), 413),
    (INPUT, 422),
    ((StoreFault,), 503),
    ((Unexpected,), 500),
)
REFUSED = 409
# Codes of refusals the engine does not name in its public API, by their code.
INPUT_CODES = frozenset(
    {
        "CONFLICTING_DICE_OPTIONS",
        "NOT_THE_CODE",
        "NOT_A_HERO",
        "SEARCH_QUERY_EMPTY",
        "SEARCH_QUERY_TOO_LONG",
        "SEARCH_LIMIT_OUT_OF_BOUNDS",
    }
)

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
    )
}


BODIED = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def body_within_limits(request: Request[Any, Any, Any]) -> None:
    """Before any route reads its body: one over ``MAX_BODY`` bytes is refused as it is read
    (Litestar's ``request_max_body_size``, 413), one nested deeper than ``MAX_BODY_DEPTH``
    before it is parsed (a parser would recurse into it)."""
    if request.method in BODIED and nests_deeper(await request.body(), MAX_BODY_DEPTH):
        raise BodyNestedTooDeep(limit=MAX_BODY_DEPTH)


def status_of(error: DomainError) -> int:
    """The HTTP status of a refusal (see the module docstring)."""
    for classes, status in STATUS:
        if isinstance(error, classes):
            return status
    return 422 if error.code in INPUT_CODES else REFUSED


def body(error: DomainError) -> dict[str, Any]:
    return {"error": {"code": error.code, "message": one_line(error)}}


def refusal(error: DomainError) -> Response[Any]:
    return Response(body(error), status_code=status_of(error), media_type="application/json")


def from_domain(request: Request[Any, Any, Any], error: DomainError) -> Response[Any]:
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
            {"error": {"code": f"HTTP_{error.status_code}", "message": str(error.detail)}},
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


HANDLERS: dict[int | type[Exception], Any] = {
    DomainError: from_domain,
    HTTPException: from_http,
    Exception: from_anything,
}
