"""Posting messages to a Discord-style webhook: one JSON ``{"content": ...}`` POST per part, in
order, a part sent only once the one before it was accepted.

A 429 is honoured: the wait Discord gives (``retry_after`` in the JSON body, in seconds, else the
``Retry-After`` header), then the same part again; a 5xx is tried again after a pause; both at
most ``ATTEMPTS`` times a part. Anything else (another 4xx, a redirect, no answer) stops the post
at that part, saying which and how many were posted. The URL holds the webhook's token: no
message here repeats it.
"""

from __future__ import annotations

import http.client
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from email.message import Message
from urllib.parse import urlsplit

from cli.render import clean
from domain.errors import DomainError, Fault

ENVVAR = "CAMPAIGN_WEBHOOK"
ATTEMPTS = 5  # tries of one part (the first and four more)
LONGEST_WAIT = 60.0  # seconds: a longer rate limit stops the post instead of hanging
TIMEOUT = 20.0  # seconds for one request
AGENT = "campaign-log (webhook poster)"  # Discord turns away Python's default User-Agent

pause: Callable[[float], None] = time.sleep  # the one sleep seam: tests put a recorder here


class InvalidWebhookUrl(DomainError):
    template = "--post needs the webhook's http:// or https:// URL: {problem}"


class PostFailed(Fault):
    template = (
        "part {part} of {parts} failed: {problem}; {sent} of {parts} posted before it, none after"
    )


class _Undelivered(Exception):
    """One part could not be delivered (why, in words)."""


def webhook_url(given: str | None) -> str:
    """The URL given to --post, or (--post alone) the one in $CAMPAIGN_WEBHOOK, if it is a
    web address."""
    url = given or os.environ.get(ENVVAR, "")
    if not url:
        raise InvalidWebhookUrl(problem=f"none given, and {ENVVAR} is not set")
    try:
        address = urlsplit(url)
        address.port  # noqa: B018 (a port that is not a number raises here, not when sending)
    except ValueError:
        raise InvalidWebhookUrl(problem="this one does not parse") from None
    if address.scheme not in ("http", "https") or not address.hostname:
        raise InvalidWebhookUrl(problem=f"got a {address.scheme or 'schemeless'} address")
    return url


def post_parts(
    url: str, parts: Sequence[str], *, sleep: Callable[[float], None] | None = None
) -> int:
    """Post ``parts`` to the webhook at ``url`` in order; the number posted (all of them), or
    ``PostFailed`` naming the part that was not."""
    wait = sleep or pause
    target = _waiting(url)
    for number, content in enumerate(parts, 1):
        try:
            headers = _deliver(target, content, wait)
        except _Undelivered as why:
            problem = str(why)
            raise PostFailed(
                part=number, parts=len(parts), sent=number - 1, problem=problem
            ) from None
        if number < len(parts) and headers.get("X-RateLimit-Remaining") == "0":
            wait(min(_seconds(headers.get("X-RateLimit-Reset-After")), LONGEST_WAIT))
    return len(parts)


def _waiting(url: str) -> str:
    """Discord's ``?wait=true``: answer once the message is saved, or say why it was not."""
    if "wait=" in urlsplit(url).query:
        return url
    return url + ("&" if urlsplit(url).query else "?") + "wait=true"


def _deliver(url: str, content: str, wait: Callable[[float], None]) -> Message[str, str]:
    """Send one part until it is accepted (its answer's headers), or say why it was not."""
    for attempt in range(1, ATTEMPTS + 1):
        status, headers, body = _send(url, content)
        if 200 <= status < 300:
            return headers
        if status == 429:
            seconds = _seconds(_field(body, "retry_after") or headers.get("Retry-After"))
            if seconds > LONGEST_WAIT:
                raise _Undelivered(f"the webhook is rate limited for {seconds:g} seconds")
        elif status >= 500:
            seconds = 2.0 ** (attempt - 1)
        else:
            said = clean(_field(body, "message") or http.client.responses.get(status, ""))
            raise _Undelivered(f"the webhook answered {status} {said[:120]}".rstrip())
        if attempt < ATTEMPTS:
            wait(seconds)
    raise _Undelivered(f"the webhook still answered {status} after {ATTEMPTS} tries")


def _send(url: str, content: str) -> tuple[int, Message[str, str], bytes]:
    """POST one message; its status, headers and body (or ``_Undelivered`` with no answer)."""
    data = json.dumps({"content": content, "allowed_mentions": {"parse": []}}).encode()
    request = urllib.request.Request(
        url,
        data=data,
        method="POST",
        headers={"Content-Type": "application/json", "User-Agent": AGENT},
    )
    try:
        try:
            with _OPENER.open(request, timeout=TIMEOUT) as answer:
                return answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as error:
            headers: Message[str, str] = error.headers
            return error.code, headers, error.read()
    except (OSError, http.client.HTTPException) as error:
        reason = getattr(error, "reason", None) or error
        if isinstance(reason, TimeoutError):  # sent, perhaps saved: not sent again
            raise _Undelivered(f"no answer in {TIMEOUT:g} seconds (it may be posted)") from None
        text = getattr(reason, "strerror", None) or str(reason) or type(reason).__name__
        raise _Undelivered(f"the webhook did not answer ({clean(text)[:120]})") from None


def _field(body: bytes, key: str) -> str | None:
    """A field of a JSON object answer, as text (None when the answer is not one)."""
    try:
        value = json.loads(body)
    except ValueError:
        return None
    found = value.get(key) if isinstance(value, dict) else None
    return None if found is None else str(found)


def _seconds(text: str | None) -> float:
    """A wait in seconds (one second when it is missing or not a number)."""
    try:
        seconds = float(text or "")
    except ValueError:
        return 1.0
    return seconds if seconds >= 0 else 0.0  # NaN too is no wait worth taking


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer (a failure), not a place to re-send the message to."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)
