"""The table page as a thread, in a real browser (the system's Chromium under Playwright):
with JavaScript off, a player signs in, writes a post as her character and rolls through the
plain forms (each answered by a redirect back); with it on, a page opened before the session
starts follows the header, and a hidden roll revealed after an undo takes its place in the
thread, without a reload; axe-core (vendored by axe-playwright-python) finds no serious or
critical violation on the table, sheet, recap, dice and dice-check pages as GM, player and
observer at 1280 and 390 px; nothing is wider than a phone; the page's first Tab stop is Write,
which puts the focus in the post box. The measured page heights and the Tabs to the composer go
to build/screenshots/measures.txt."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import AddNote, StartScene, StartSession
from domain.rulesets.sims import commands as sims
from domain.table import RevealRuling
from engine import DiceSpec, Engine
from tests.web.servers import (
    CHROMIUM,
    SERIOUS,
    serving_in_thread,
    signed_in,
    wanting,
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
SHOTS = Path(__file__).parents[2] / "build" / "screenshots"
WAIT = 15_000
GM = "Morpheus"
PLAYED = "Zion"  # a session running, a scene, rolls
FRESH = "Nebuchadnezzar"  # no session yet


def _setup(db: str) -> None:
    members = {"alice": Role.PLAYER, "bob": Role.PLAYER, "olly": Role.OBSERVER}
    with Engine(db) as engine:
        for name in (PLAYED, FRESH):
            engine.create_campaign(name, "sims", gm=GM, members=members)
            for who, character in (("alice", "Neo"), ("bob", "Trinity")):
                made = sims.CreateCharacter(
                    character=character,
                    player=who,
                    qualities=("Kung Fu:Combat:Good",),
                    custom=True,
                )
                engine.execute(name, made)
        engine.execute(PLAYED, StartSession())
        engine.execute(PLAYED, StartScene(stage="The rooftop"))
        for faces in ((3,), (5,)):
            engine.execute(
                PLAYED, RollFreely(expression="1d6", why="the agents"), dice=DiceSpec(faces=faces)
            )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    db = str(tmp_path_factory.mktemp("thread") / "tables.db")
    _setup(db)
    with serving_in_thread(db) as base:
        yield base, db


def _signed_in(browser: Any, server: tuple[str, str], campaign: str, member: str, **opts: Any):
    return signed_in(browser, *server, campaign, member, **opts)


def test_a_player_posts_and_rolls_with_javascript_off(
    browser: Any, server: tuple[str, str]
) -> None:
    """Scripts off: alice writes a post as Neo and rolls Kung Fu through the plain forms; each
    lands back on the table with its entry in the thread (the post under Neo and alice)."""
    context, page = _signed_in(browser, server, PLAYED, "alice", java_script_enabled=False)
    try:
        # no script ran: no live updates, and the badge does not claim the page is offline
        assert page.locator("#live").inner_text() == ""
        assert "reload for new posts" in page.locator("nav.bar").inner_text()
        page.locator("#f-post-text").fill("I *dodge* every bullet [2d6 for style]")
        page.get_by_role("button", name="Post", exact=True).click()
        page.wait_for_url(re.compile(r"#r-\d+$"))
        number = page.url.rsplit("-", 1)[1]
        post = page.locator(f"#r-{number}")
        assert "Neo (alice)" in post.locator(".head").inner_text()
        assert "dodge" == post.locator(".text em").inner_text()
        page.locator("#d-roll > summary").click()
        page.locator("#f-roll-qualities").fill("Kung Fu")
        page.locator("#f-roll-difficulty").select_option("Good")
        page.locator("#d-roll button[type=submit]").click()
        page.wait_for_url(re.compile(rf"#r-(?!{number}$)\d+$"))
        rolled = page.url.rsplit("-", 1)[1]
        card = page.locator(f"#r-{rolled}")
        assert "roll" in card.locator(".command").inner_text()
        assert card.locator(".die-face").count() >= 1
        page.locator("#d-roll > summary").click()  # a refusal: the page again, its line in place
        page.locator("#f-roll-qualities").fill("Hacking")
        page.locator("#f-roll-difficulty").select_option("Good")
        page.locator("#d-roll button[type=submit]").click()
        assert page.locator("#d-roll output.said.refusal").inner_text().strip()
    finally:
        context.close()


def test_a_page_opened_before_the_session_follows_its_header(
    browser: Any, server: tuple[str, str]
) -> None:
    """Alice's page, opened before the session starts, says session 1 and the scene once the
    GM starts them, without a reload."""
    context, page = _signed_in(browser, server, FRESH, "alice")
    try:
        page.locator("#live.on").wait_for(timeout=WAIT)
        assert "no session running" in page.locator("#where").inner_text()
        page.evaluate("window.loadedOnce = true")
        with Engine(server[1]) as engine:
            engine.execute(FRESH, StartSession())
            engine.execute(FRESH, StartScene(stage="The docks"))
        page.locator("#where", has_text="scene 1: The docks").wait_for(timeout=WAIT)
        assert "session 1" in page.locator("#where").inner_text()
        assert page.evaluate("window.loadedOnce === true")
    finally:
        context.close()


def test_a_hidden_roll_revealed_after_an_undo_takes_its_place(
    browser: Any, server: tuple[str, str]
) -> None:
    """The GM rolls hidden, records a note, undoes the note, then reveals the roll: on alice's
    live page the revealed roll stands before the note, as in the thread, without a reload."""
    context, page = _signed_in(browser, server, PLAYED, "alice")
    try:
        page.locator("#live.on").wait_for(timeout=WAIT)
        page.evaluate("window.loadedOnce = true")
        with Engine(server[1]) as engine:
            secret = RollFreely(expression="1d6", why="the sentinels")
            hidden = engine.execute(PLAYED, secret, dice=DiceSpec(faces=(6,)), hidden=True).number
            note = engine.execute(PLAYED, AddNote(text="the phone rings")).number
        page.locator(f"#r-{note}").wait_for(timeout=WAIT)
        assert 0 == page.locator(f"#r-{hidden}").count()
        with Engine(server[1]) as engine:
            engine.undo(PLAYED, note, reason="not yet", actor=GM)
            engine.execute(PLAYED, RevealRuling(ruling=hidden))
        page.locator(f"#r-{hidden}").wait_for(timeout=WAIT)
        page.locator(f"#r-{note}.undone").wait_for(timeout=WAIT)
        order = page.eval_on_selector_all("#log > li", "items => items.map(i => i.id)")
        assert order.index(f"r-{hidden}") < order.index(f"r-{note}")
        assert page.evaluate("window.loadedOnce === true")
    finally:
        context.close()


def _tabs_to(page: Any, selector: str, limit: int = 200) -> int:
    """How many Tab presses from the top of the page reach ``selector``."""
    page.goto(page.url.split("#")[0] + "#table")  # focus starts at the top again
    page.locator("h1").first.wait_for(timeout=WAIT)
    # Write floats until the post box is in sight (an IntersectionObserver says so, a moment
    # after the page moved): the count starts once it has said so at the top
    page.locator("#write-now:not(.by)").wait_for(timeout=WAIT)
    for count in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return count
    return -1


@pytest.mark.parametrize("member", [GM, "alice", "olly"])
def test_every_page_passes_axe_at_a_desktops_and_a_phones_width(
    browser: Any, server: tuple[str, str], member: str
) -> None:
    """axe-core over every page of the member (table, a sheet, recap, dice, dice check), at
    1280 and 390 px: no serious or critical violation, nothing wider than the window."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_module.Axe()
    context, page = _signed_in(browser, server, PLAYED, member)
    table = page.url.split("#")[0]
    measures = []
    try:
        found: list[str] = []
        for path in ("", "/characters/Neo", "/recap", "/dice", "/dice-check"):
            for width in (1280, 390):
                page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
                page.goto(table + path)
                page.locator("h1").first.wait_for(timeout=WAIT)
                violations = axe.run(page).response["violations"]
                for v in violations:
                    if v["impact"] not in SERIOUS:
                        measures.append(
                            f"{member} {path or '/'} {width}px: axe {v['id']} ({v['impact']})"
                        )
                found += wanting(violations, page, f"{path or '/'} {width}", width)
                height = page.evaluate("document.documentElement.scrollHeight")
                measures.append(f"{member} {path or '/'} {width}px: {height} px tall")
                if path == "":
                    whole = _tabs_to(page, "#f-post-text")
                    assert 1 == _tabs_to(page, "#write-now")  # the first stop: Write
                    page.keyboard.press("Enter")
                    assert page.evaluate("document.activeElement.id") == "f-post-text"
                    measures.append(
                        f"{member} / {width}px: {whole} Tabs to the post box, or Write (the"
                        " first) and Enter"
                    )
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(
                        path=str(SHOTS / f"thread-{member}-{width}.png"), full_page=True
                    )
        assert [] == found, "\n".join(found)
    finally:
        context.close()
        SHOTS.mkdir(parents=True, exist_ok=True)
        with (SHOTS / "measures.txt").open("a") as out:
            out.write("\n".join(measures) + "\n")
