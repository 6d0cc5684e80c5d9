"""The Notices page and the page of a mail's link, in a real browser (the system's Chromium
under Playwright), JavaScript off: a player reaches Notices from the table, chooses what she is
told and gives an address (a bad one answered at the field, focused); axe-core finds no serious
or critical violation on either page at 1280 and 390 px, and neither is wider than a phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import Engine
from tests.web.conftest import CAMPAIGN, build_table
from tests.web.servers import CHROMIUM, serving_in_thread, signed_in, wanting

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
WAIT = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    db = str(tmp_path_factory.mktemp("notices") / "zion.db")
    build_table(db)
    with serving_in_thread(db) as base:
        yield base, db


def test_a_player_chooses_her_notices_with_javascript_off(
    browser: Any, server: tuple[str, str]
) -> None:
    base, db = server
    context, page = signed_in(browser, base, db, CAMPAIGN, "alice", java_script_enabled=False)
    try:
        page.get_by_role("link", name="Notices").first.click()
        page.locator("h1", has_text="Notices").wait_for(timeout=WAIT)
        page.get_by_label("it is my character's turn", exact=False).uncheck()
        page.locator("#email").fill("alice@home")  # the browser lets it through, the server not
        page.get_by_role("button", name="Save").click()
        page.locator("#email-refused").wait_for(timeout=WAIT)
        assert "not an email address" in page.locator("#email-refused").inner_text()
        assert "email" == page.evaluate("document.activeElement.id")  # the field, to correct
        page.locator("#email").fill("alice@example.org")
        page.get_by_role("button", name="Save").click()
        page.get_by_text("Saved.").wait_for(timeout=WAIT)
    finally:
        context.close()
    with Engine(db) as engine:
        chosen = engine.notice_choices(CAMPAIGN, "alice")
    assert (("private", "dispute"), "alice@example.org") == (chosen.kinds, chosen.email)


def test_the_notices_pages_pass_axe_at_both_widths(browser: Any, server: tuple[str, str]) -> None:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_module.Axe()
    base, db = server
    with Engine(db) as engine:
        engine.choose_notices(CAMPAIGN, "bob", kinds=["turn"], discord=True, email="b@o.org")
        token = engine.unsubscribe_token(CAMPAIGN, "bob", "b@o.org")
    context, page = signed_in(browser, base, db, CAMPAIGN, "bob")
    stranger = browser.new_context()
    found: list[str] = []
    try:
        visits = ((page, f"{base}/campaigns/{CAMPAIGN}/notices"),)
        visits += ((stranger.new_page(), f"{base}/unsubscribe/{token}"),)
        for visitor, url in visits:
            for width in (1280, 390):
                visitor.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
                visitor.goto(url)
                visitor.locator("h1").first.wait_for(timeout=WAIT)
                found += wanting(axe.run(visitor).response["violations"], visitor, url, width)
    finally:
        context.close()
        stranger.close()
    assert [] == found
