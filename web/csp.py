"""The Content-Security-Policy of every response, set in one place (a hook on every message the
app sends, so refusals, 404s and the pages' error pages have it too).

Our pages need only what is ours: scripts from ``/static`` (no inline script: a page's data is a
``<script type="application/json">`` block, which is never run), the one stylesheet inline in
the page (and a chart's style attributes), ``data:`` images (the empty favicon), fetches and
event streams to the same server, forms that post to it. The API's browsable docs (``/schema``)
are Redoc's script, from its CDN, reading ``/schema/openapi.json``; they allow that and nothing
of ours can run there.
"""

from __future__ import annotations

from litestar.datastructures import MutableScopeHeaders
from litestar.types import Message, Scope

HEADER = "content-security-policy"
PAGES = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' "
    "data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_SCRIPT = "https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js"
DOCS = (
    "default-src 'none'; script-src https://cdn.redoc.ly; style-src 'unsafe-inline'; "
    "img-src data:; connect-src 'self'; worker-src blob:; form-action 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
DOCS_PAGES = frozenset({"/schema", "/schema/"})


def policy_for(path: str) -> str:
    """The policy of the response to a request for ``path``."""
    return DOCS if path in DOCS_PAGES else PAGES


async def set_policy(message: Message, scope: Scope) -> None:
    """Litestar's ``before_send`` hook: the policy on every response that set none."""
    if message["type"] == "http.response.start":
        headers = MutableScopeHeaders.from_message(message)
        if HEADER not in headers:
            headers[HEADER] = policy_for(scope.get("path", ""))
