"""The thread one returns to, in a real browser (the system's Chromium under Playwright), on the
Sprawl Goons table of ``tests.web.long_table`` (38 rulings; each member read up to ruling 30):
the page opens at what is new to the member, scripts on or off, on a phone; Write (a tap, or the
access key W) puts the focus in the post box from wherever the page is, and stays in a corner
until the post box (the one a refresh swapped in too) is in view; a refused form answers
at itself with its line focused and in view; the live page marks read what it shows while it is
looked at, and not while it is hidden; an author edits their post and the GM posts hidden
through the page's forms; axe-core finds no serious or critical violation on the table (new
entries marked, an amended ruling's was and now) and the dice check, at 390 and 1280 px, and
nothing is wider than the window. Each test has its own copy of the table."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from domain.events import Role
from domain.posts import WritePost
from domain.table import AddMember
from engine import Engine
from tests.web import long_table
from tests.web.long_table import ANA, BEN, GM, READ_UP_TO
from tests.web.measure_table import access_key
from tests.web.servers import CHROMIUM, SERIOUS, serving_in_thread, wanting

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
WAIT = 15_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
COPIES = itertools.count()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    db = str(tmp_path_factory.mktemp("thread-browser") / "long.db")
    with Engine(db) as engine:
        engine.create_campaign("Unused", "sims", gm=GM)  # the store exists before it serves
    with serving_in_thread(db) as base:
        yield base, db


class Visit:
    """A member's browser context on a fresh copy of the long table (they read up to ruling
    30), signed in (the invite posted, its redirect not followed), not on the table yet."""

    def __init__(self, browser: Any, server: tuple[str, str], member: str, **opts: Any) -> None:
        self.base, self.db = server
        self.campaign = f"{long_table.CAMPAIGN} {next(COPIES)}"
        long_table.built(self.db, self.campaign)
        with Engine(self.db) as engine:
            for who in (GM, ANA, BEN):
                engine.mark_read(self.campaign, 1, READ_UP_TO, member=who)
            secret = engine.invite(self.campaign, member)
        self.member = member
        self.context = browser.new_context(**({"viewport": PHONE} | opts))
        joined = self.context.request.post(f"{self.base}/join/{secret}", max_redirects=0)
        self.table = self.base + str(joined.headers["location"])
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def __enter__(self) -> Visit:
        return self

    def __exit__(self, *exc: object) -> None:
        self.context.close()

    def position(self) -> int:
        with Engine(self.db) as engine:
            return engine.read_position(self.campaign, 1, member=self.member)

    def execute(self, command: Any, who: str) -> int:
        with Engine(self.db) as engine:
            return engine.execute(self.campaign, command, actor=who).number

    def focused(self) -> str:
        return str(self.page.evaluate("document.activeElement.id"))

    def in_view(self, selector: str) -> bool:
        return bool(
            self.page.eval_on_selector(
                selector,
                """el => { const r = el.getBoundingClientRect();
                    return r.top >= 0 && r.bottom <= innerHeight; }""",
            )
        )


@pytest.mark.parametrize("js", [True, False], ids=["scripts", "no-scripts"])
def test_the_page_opens_at_what_is_new_and_write_reaches_the_post_box(
    browser: Any, server: tuple[str, str], js: bool
) -> None:
    """On a phone, ana's table opens with the first entry new to her in view (scripts: at the
    address the sign-in gives; without: at the table's link, ``#new``), its title counting
    them; tapping Write puts the focus in the post box, and so does Alt+W from the top."""
    with Visit(browser, server, ANA, java_script_enabled=js) as visit:
        page = visit.page
        page.goto(visit.table + ("" if js else "#new"))
        page.locator("#new").wait_for(timeout=WAIT)
        page.wait_for_function("location.hash === '#new'", timeout=WAIT)
        assert visit.in_view("#new")
        assert visit.in_view("#r-33 .head")
        assert page.title().startswith("(4 new) ")
        page.evaluate("scrollTo(0, 0)")  # wherever the page is: at its top
        page.locator("#write-now").click()
        assert "f-post-text" == visit.focused()
        assert visit.in_view("#f-post-text")
        page.goto(visit.table + "#table")
        access_key(page, "w")
        page.wait_for_function("document.activeElement.id === 'f-post-text'", timeout=WAIT)
        assert 38 == visit.position()
        assert [] == visit.errors


def test_write_stays_in_a_corner_until_the_composer_shows(
    browser: Any, server: tuple[str, str]
) -> None:
    """Scripts on, the GM's Write button is on screen while the post box is not, and leaves
    once the post box is in view."""
    with Visit(browser, server, GM) as visit:
        page = visit.page
        page.goto(visit.table + "#r-1")
        write = page.locator("#write-now")
        write.wait_for(state="visible", timeout=WAIT)
        assert visit.in_view("#write-now")
        page.locator("#f-post-text").scroll_into_view_if_needed()
        write.wait_for(state="hidden", timeout=WAIT)


def test_write_follows_the_post_box_a_refresh_swapped_in(
    browser: Any, server: tuple[str, str]
) -> None:
    """A member seated while the GM's page is open changes its post box (whom a post may go to):
    the refresh swaps the box in, and Write still leaves when the new box is in view and comes
    back when it is not."""
    with Visit(browser, server, GM) as visit:
        page = visit.page
        page.goto(visit.table + "#r-1")
        write = page.locator("#write-now")
        write.wait_for(state="visible", timeout=WAIT)
        old = page.evaluate_handle("document.getElementById('f-post-text')")
        with Engine(visit.db) as engine:
            engine.execute(visit.campaign, AddMember(member="cy", role=Role.OBSERVER))
        page.locator("#f-post-to option[value='cy']").wait_for(state="attached", timeout=WAIT)
        assert not page.evaluate("box => box.isConnected", old)  # the box was swapped
        page.locator("#f-post-text").scroll_into_view_if_needed()
        write.wait_for(state="hidden", timeout=WAIT)
        page.evaluate("scrollTo(0, 0)")
        write.wait_for(state="visible", timeout=WAIT)
        assert [] == visit.errors


def test_a_refusal_without_scripts_is_at_its_form_focused_and_in_view(
    browser: Any, server: tuple[str, str]
) -> None:
    """Scripts off, on a phone, ana's roll against a DS that is none: the page answers with the
    roll's line focused and in view (it opened at the top before, thousands of pixels away)."""
    with Visit(browser, server, ANA, java_script_enabled=False) as visit:
        page = visit.page
        page.goto(visit.table + "#new")
        page.locator("#d-roll > summary").click()
        page.locator("#f-roll-ds").fill("sideways")
        page.locator("#d-roll button[type=submit]").click()
        page.locator("#refused").wait_for(timeout=WAIT)
        page.wait_for_function("document.activeElement.id === 'refused'", timeout=WAIT)
        assert visit.in_view("#refused")
        assert "Difficulty Score" in page.locator("#d-roll #refused").inner_text()


def test_a_refusal_with_scripts_is_focused_at_its_form(
    browser: Any, server: tuple[str, str]
) -> None:
    """Scripts on, the same refusal comes back from the API: its line under the form, focused."""
    with Visit(browser, server, ANA) as visit:
        page = visit.page
        page.goto(visit.table)
        page.locator("#live.on").wait_for(timeout=WAIT)
        page.locator("#d-roll > summary").click()
        page.locator("#f-roll-ds").fill("sideways")
        page.locator("#d-roll button[type=submit]").click()
        page.locator("#d-roll output.said.refusal").wait_for(timeout=WAIT)
        focused = page.evaluate("document.activeElement.matches('#d-roll output.said')")
        assert focused
        assert visit.in_view("#d-roll output.said")


def test_the_live_page_marks_read_what_it_shows_while_looked_at(
    browser: Any, server: tuple[str, str]
) -> None:
    """ben's post reaches ana's live page, marked new and counted in the title; while the page
    is looked at, showing it marks it read; while it is hidden, nothing is marked until the
    page is looked at again."""
    with Visit(browser, server, ANA, viewport=DESKTOP) as visit:
        page = visit.page
        page.goto(visit.table)
        page.locator("#live.on").wait_for(timeout=WAIT)
        assert 38 == visit.position()
        post = WritePost(text="Katya whistles.", by=BEN, character="Katya")
        seen = visit.execute(post, BEN)
        page.locator(f"#r-{seen}.new").wait_for(timeout=WAIT)
        page.wait_for_function("document.title.startsWith('(5 new)')", timeout=WAIT)
        page.wait_for_function(f"document.getElementById('r-{seen}') !== null", timeout=WAIT)
        _until(lambda: visit.position() == seen)
        page.evaluate(
            """() => { Object.defineProperty(document, "visibilityState",
                { value: "hidden", configurable: true });
              document.dispatchEvent(new Event("visibilitychange")); }"""
        )
        away = visit.execute(WritePost(text="Katya waits.", by=BEN, character="Katya"), BEN)
        page.locator(f"#r-{away}.new").wait_for(timeout=WAIT)
        page.wait_for_timeout(300)
        assert seen == visit.position()
        page.evaluate(
            """() => { Object.defineProperty(document, "visibilityState",
                { value: "visible", configurable: true });
              document.dispatchEvent(new Event("visibilitychange")); }"""
        )
        _until(lambda: visit.position() == away)
        assert [] == visit.errors


def _until(check: Any, seconds: float = 10.0) -> None:
    import time

    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.1)


def test_an_author_edits_a_post_and_the_gm_posts_hidden_through_the_page(
    browser: Any, server: tuple[str, str]
) -> None:
    """Scripts on: ana edits her post 7 through its edit form (the API's amend); the GM writes
    a hidden post in the composer, which ana's live page never shows."""
    with Visit(browser, server, ANA, viewport=DESKTOP) as visit:
        gm = visit.context.browser.new_context(viewport=DESKTOP)
        try:
            with Engine(visit.db) as engine:
                secret = engine.invite(visit.campaign, GM)
            joined = gm.request.post(f"{visit.base}/join/{secret}", max_redirects=0)
            rosa = gm.new_page()
            rosa.goto(visit.base + str(joined.headers["location"]))
            page = visit.page
            page.goto(visit.table)
            page.locator("#live.on").wait_for(timeout=WAIT)
            rosa.locator("#live.on").wait_for(timeout=WAIT)
            page.locator("#d-edit-7 > summary").click()
            page.locator("#f-edit-7-text").fill("Tanner keeps low.")
            page.locator("#f-edit-7-reason").fill("shorter")
            page.locator("#d-edit-7 button[type=submit]").click()
            page.locator("#d-edit-7 output.said", has_text="recorded as #").wait_for(timeout=WAIT)
            page.locator("#r-7 .text", has_text="Tanner keeps low.").wait_for(timeout=WAIT)
            page.locator("#r-7 .amended", has_text="Edited by").wait_for(timeout=WAIT)
            rosa.locator("#f-post-text").fill("The crates tick, softly.")
            rosa.locator("#f-post-hidden").check()
            rosa.locator("#post-form button[type=submit]").click()
            said = rosa.locator("#post-form output.said", has_text="recorded as #")
            number = int(re.findall(r"#(\d+)", said.inner_text(timeout=WAIT))[0])
            rosa.locator(f"#r-{number}.hidden-entry").wait_for(timeout=WAIT)
            edit = WritePost(text="Tanner listens.", by=ANA, character="Tanner")
            after = visit.execute(edit, ANA)
            page.locator(f"#r-{after}").wait_for(timeout=WAIT)
            assert 0 == page.locator(f"#r-{number}").count()
            assert "tick, softly" not in page.content()
        finally:
            gm.close()


@pytest.mark.parametrize("member", [GM, ANA])
def test_the_thread_and_the_dice_check_pass_axe_on_a_phone_and_a_desktop(
    browser: Any, server: tuple[str, str], member: str
) -> None:
    """axe-core over the table (new entries marked, ruling 20's was and now) and the dice check
    at 390 and 1280 px: no serious or critical violation, nothing wider than the window."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_module.Axe()
    with Visit(browser, server, member) as visit:
        page = visit.page
        found: list[str] = []
        for path in ("", "/dice-check"):
            for size in (PHONE, DESKTOP):
                page.set_viewport_size(size)
                page.goto(visit.table + path + f"?since={READ_UP_TO}")
                page.locator("h1").first.wait_for(timeout=WAIT)
                violations = axe.run(page).response["violations"]
                found += wanting(violations, page, f"{path or '/'} {size['width']}", size["width"])
        assert [] == found, "\n".join(found)
        assert [] == [v for v in found if any(s in v for s in SERIOUS)]
