"""One browser, every campaign, in the system's Chromium (Playwright, never a downloaded
browser) against the app on uvicorn (127.0.0.1, a free port, stopped by the test): one browser
signs in to Zion and to Neon Alley by their links and keeps both; the front page lists them; it
signs out of one (with scripts, and without); the page of the campaign it left, a used link and
a stranger's visit are pages saying what to do next. axe-core finds no serious or critical
violation on those pages (the front page, a link's sign-in page, a spent link's, the sign-in
page of a campaign, signed in elsewhere and not at all) at 1280 and 390 px, and none is wider
than the window (axe runs its script in the page: in a browser with scripts on)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine import Engine
from tests.web.conftest import CAMPAIGN, build_table
from tests.web.servers import CHROMIUM, serving_in_thread, wanting
from tests.web.test_signin import NEON, NEON_PAGE, with_neon

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
WAIT = 15_000
WIDTHS = (1280, 390)
ZION_PAGE = f"/campaigns/{CAMPAIGN}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Zion (the server tests' table) and Neon Alley in one store, served: (base URL, db)."""
    db = with_neon(build_table(str(tmp_path_factory.mktemp("signin") / "two.db")).db)
    with serving_in_thread(db) as base:
        yield base, db


def _link(db: str, campaign: str, member: str) -> str:
    with Engine(db) as engine:
        return f"/join/{engine.invite(campaign, member)}"


def _axe(page: Any, where: str) -> list[str]:
    """What axe-core and the window's width find wanting on the page, at each width."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    found: list[str] = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
        page.locator("h1").first.wait_for(timeout=WAIT)
        found += wanting(axe.run(page).response["violations"], page, f"{where} {width}", width)
    return found


def test_one_browser_signs_in_to_two_campaigns_and_keeps_both(
    browser: Any, server: tuple[str, str]
) -> None:
    """alice opens Zion's link and signs in, then ana's link of Neon Alley: both are listed on
    the front page, each leading to its table as its member; `sign out` on Zion's table comes
    back to the front page with Neon Alley alone; Zion's table then asks for a link, listing
    Neon Alley; the used link says it no longer works. Every one of those pages passes axe."""
    base, db = server
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    wanting_pages: list[str] = []
    try:
        used = _link(db, CAMPAIGN, "alice")
        page.goto(base + used)
        assert "Sign in to Zion" == page.locator("h1").inner_text()
        wanting_pages += _axe(page, "join")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(re.compile(rf"{ZION_PAGE}$"))
        page.goto(base + _link(db, NEON, "ana"))
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(re.compile(rf"{re.escape(NEON_PAGE)}$"))
        assert "ana (player)" in page.locator("nav.bar").inner_text()

        page.goto(base + "/")
        assert "Your campaigns" == page.locator("h1").inner_text()
        listed = page.locator("ul.campaigns > li > a").all_inner_texts()
        assert [NEON, CAMPAIGN] == listed
        wanting_pages += _axe(page, "/")
        page.get_by_role("link", name=CAMPAIGN, exact=True).click()
        page.wait_for_url(re.compile(rf"{ZION_PAGE}$"))
        assert "alice (player)" in page.locator("nav.bar").inner_text()

        page.locator("#live.on").wait_for(timeout=WAIT)  # the script runs: it signs out
        page.get_by_role("button", name="sign out").click()
        page.wait_for_url(re.compile(r"/$"))
        assert [NEON] == page.locator("ul.campaigns > li > a").all_inner_texts()

        answer = page.goto(base + ZION_PAGE)
        assert answer is not None
        assert 403 == answer.status
        assert "Sign in to Zion" == page.locator("h1").inner_text()
        assert [NEON] == page.locator("ul.campaigns > li > a").all_inner_texts()
        wanting_pages += _axe(page, "signed in elsewhere")

        answer = page.goto(base + used)
        assert answer is not None
        assert 401 == answer.status
        assert "This sign-in link no longer works" == page.locator("h1").inner_text()
        wanting_pages += _axe(page, "spent link")
    finally:
        context.close()
    assert [] == wanting_pages


def test_a_stranger_gets_the_sign_in_page(browser: Any, server: tuple[str, str]) -> None:
    """A browser signed in nowhere gets the sign-in page for a table (401) and the front page's
    hint; both pass axe."""
    base, _ = server
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    wanting_pages: list[str] = []
    try:
        answer = page.goto(base + ZION_PAGE + "/recap")
        assert answer is not None
        assert 401 == answer.status
        assert "not signed in to Zion" in page.locator("main").inner_text()
        wanting_pages += _axe(page, "not signed in")
        page.goto(base + "/")
        assert "Ask your GM for an invite link" in page.locator("main").inner_text()
        wanting_pages += _axe(page, "/ signed in nowhere")
    finally:
        context.close()
    assert [] == wanting_pages


def test_two_campaigns_without_javascript(browser: Any, server: tuple[str, str]) -> None:
    """With scripts off, signing in to two campaigns and signing out of one (the table's
    plain form) keep the other, and come back to the front page."""
    base, db = server
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, java_script_enabled=False
    )
    page = context.new_page()
    try:
        for campaign, member, lands in ((CAMPAIGN, "bob", ZION_PAGE), (NEON, "alice", NEON_PAGE)):
            page.goto(base + _link(db, campaign, member))
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url(re.compile(rf"{re.escape(lands)}$"))
        page.get_by_role("button", name="sign out").click()  # Neon Alley's, as a plain form
        page.wait_for_url(re.compile(r"/$"))
        assert [CAMPAIGN] == page.locator("ul.campaigns > li > a").all_inner_texts()
    finally:
        context.close()
