"""A Content-Security-Policy on every response (web.csp): every GET route of the app, the error
pages, refusals and 404s carry the pages' policy (no inline script, nothing from elsewhere); the
API docs at /schema theirs (Redoc's script from its CDN, no inline script). In Chromium, the
pages' scripts run under it with no violation: the table's, the dice check's (on /dice-check,
which had none), the recap's and the docs page's (its CDN script stood in for, as there is no
network here)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.routes import HTTPRoute
from litestar.testing import TestClient

from engine import Engine
from tests.web.conftest import CAMPAIGN, Table
from tests.web.servers import CHROMIUM, chromium, serving_in_thread
from web import create_app
from web.csp import DOCS, DOCS_SCRIPT, PAGES

HEADER = "content-security-policy"
# A value for each path parameter of the app's routes.
VALUES = {
    "campaign": CAMPAIGN,
    "name": "Neo",
    "ref": "Neo",
    "secret": "not-an-invite",
    "path": "x",
    "token": "not-a-token",
}


def get_paths(table: Table) -> list[str]:
    app = create_app(table.db)
    paths = []
    for route in app.routes:
        if isinstance(route, HTTPRoute) and "GET" in route.methods:
            path = re.sub(r"\{(\w+):\w+\}", lambda m: VALUES[m.group(1)], route.path)
            if not path.endswith("/events"):  # an event stream stays open
                paths.append(path)
    return sorted(set(paths))


def test_every_get_route_answers_with_a_policy(client: TestClient[Any], table: Table) -> None:
    """Every page, script, read and schema of the app, signed in and not."""
    paths = get_paths(table)
    assert {"/campaigns/Zion", "/campaigns/Zion/dice-check", "/join/not-an-invite"} <= set(paths)
    for path in paths:
        for headers in (table.headers("player"), {}):
            response = client.get(path, headers=headers)
            expected = DOCS if path == "/schema" else PAGES
            assert expected == response.headers.get(HEADER), (path, response.status_code)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/campaigns/Nowhere"),
        ("GET", "/no/such/page"),
        ("GET", "/api/campaigns/Zion/characters/Nobody"),
        ("POST", "/api/campaigns/Zion/commands/fly"),
        ("POST", "/api/campaigns/Zion/commands/note"),
    ],
)
def test_refusals_and_missing_pages_carry_it_too(
    client: TestClient[Any], table: Table, method: str, path: str
) -> None:
    response = client.request(method, path, headers=table.headers("player"), json={})
    assert response.status_code >= 400
    assert PAGES == response.headers[HEADER]


def test_the_pages_policy_lets_run_only_scripts_of_ours() -> None:
    directives = dict(d.strip().split(" ", 1) for d in PAGES.split(";"))
    assert "'self'" == directives["script-src"]
    assert "'none'" == directives["default-src"]
    assert "unsafe" not in directives["script-src"]
    assert "http" not in PAGES


def test_the_docs_page_has_no_inline_script(client: TestClient[Any]) -> None:
    page = client.get("/schema").text
    assert re.findall(r"<script[^>]*>", page) == [f'<script src="{DOCS_SCRIPT}">']
    assert '<redoc spec-url="/schema/openapi.json">' in page
    assert "script-src https://cdn.redoc.ly;" in DOCS
    assert 200 == client.get("/schema/openapi.json").status_code


# --- In the browser ----------------------------------------------------------------------------

# A stand-in for Redoc's bundle that does what it does under the policy: read the schema, add a
# style element, start a worker from a blob (its search), and draw.
REDOC_STANDIN = """
(async () => {
  const spec = await (await fetch(document.querySelector("redoc").getAttribute("spec-url"))).json();
  const style = document.createElement("style");
  style.textContent = "h1 { font-size: 2em }";
  document.head.append(style);
  const code = new Blob(["postMessage('ready')"], {type: "text/javascript"});
  const worker = new Worker(URL.createObjectURL(code));
  await new Promise((done) => { worker.onmessage = done; });
  document.body.dataset.drawn = spec.info.title;
})();
"""
WATCH = """() => { window.violations = [];
  document.addEventListener("securitypolicyviolation",
    (e) => window.violations.push(e.violatedDirective + " " + e.blockedURI)); }"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: the browser checks of the policy need it")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(table: Table, browser: Any) -> Iterator[tuple[Any, str, list[str]]]:
    """alice's page, signed in through an invite; what the browser reported against the
    policy is gathered (console and page errors too)."""
    with serving_in_thread(table.db) as base:
        with Engine(table.db) as engine:
            secret = engine.invite(CAMPAIGN, "alice")
        context = browser.new_context()
        context.add_init_script(f"({WATCH})()")
        page = context.new_page()
        said: list[str] = []
        page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: said.append(str(e)))
        page.goto(f"{base}/join/{secret}")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{base}/campaigns/{CAMPAIGN}")
        try:
            yield page, base, said
        finally:
            context.close()


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.violations")
    return found


def test_the_pages_scripts_run_under_the_policy(page: tuple[Any, str, list[str]]) -> None:
    """The table (its event stream opens: table.js ran), the dice check (its script reads the
    page's data block and checks: the summary leaves 'checking'), the recap (follow.js)."""
    tab, base, said = page
    tab.locator("#live.on").wait_for(timeout=15_000)
    assert [] == violations(tab)
    tab.goto(f"{base}/campaigns/{CAMPAIGN}/dice-check")
    tab.wait_for_selector("#dice-summary:not([data-status='checking'])", timeout=15_000)
    assert [] == violations(tab)
    tab.goto(f"{base}/campaigns/{CAMPAIGN}/recap")
    tab.wait_for_load_state("load")
    assert [] == violations(tab)
    assert not [s for s in said if "Content Security Policy" in s], said


def test_an_inline_script_is_refused_on_our_pages(page: tuple[Any, str, list[str]]) -> None:
    """What the policy is for: markup that slipped in could not run a script."""
    tab, _, _ = page
    tab.evaluate(
        """() => { const s = document.createElement("script");
        s.textContent = "window.ran = true"; document.body.append(s); }"""
    )
    assert tab.evaluate("window.ran === undefined")
    assert any(v.startswith("script-src") for v in violations(tab))


def test_the_docs_page_works_under_its_policy(page: tuple[Any, str, list[str]]) -> None:
    tab, base, said = page
    tab.route(
        DOCS_SCRIPT,
        lambda route: route.fulfill(body=REDOC_STANDIN, content_type="text/javascript"),
    )
    tab.goto(f"{base}/schema")
    tab.wait_for_selector("body[data-drawn]", state="attached", timeout=15_000)
    assert "campaign-log table server" == tab.get_attribute("body", "data-drawn")
    assert [] == violations(tab)
    assert not [s for s in said if "Content Security Policy" in s], said
