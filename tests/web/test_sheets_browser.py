"""The drawn sheets and the turn panel in a real browser (the system's Chromium under
Playwright): for a scene of each system with something owed (``tests.web.owed``), axe-core
finds no serious or critical violation on the table page and a sheet as the GM and as a player,
at 1280 and 390 px, and nothing is wider than the window; the panel follows the table live (a
turn passed on, a test rolled) without a reload, as the header does; with JavaScript off the
sheet is drawn and its text form opens. Screenshots go to build/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from domain.rulesets.code_green import commands as cg
from domain.rulesets.sims import commands as sims
from engine import DiceSpec, Engine
from tests.web.owed import seat_owing
from tests.web.scenes import GM, SCENES, character_of
from tests.web.servers import CHROMIUM, serving_in_thread, signed_in, wanting

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
SHOTS = Path(__file__).parents[2] / "build" / "screenshots"
WAIT = 15_000
SCENE = {s.system: s for s in SCENES}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    db = str(tmp_path_factory.mktemp("sheets") / "tables.db")
    with Engine(db) as engine:
        for scene in SCENES:
            seat_owing(engine, scene)
    with serving_in_thread(db) as base:
        yield base, db


def _alices(server: tuple[str, str], system: str) -> str:
    with Engine(server[1]) as engine:
        return character_of(engine, SCENE[system].campaign, "alice")


@pytest.mark.parametrize("member", [GM, "alice"])
@pytest.mark.parametrize("system", sorted(SCENE))
def test_the_drawn_sheet_and_the_turn_panel_pass_axe_and_fit_a_phone(
    browser: Any, server: tuple[str, str], system: str, member: str
) -> None:
    """axe-core over the table (with its turn panel) and alice's drawn sheet, at 1280 and
    390 px: no serious or critical violation, nothing wider than the window."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_module.Axe()
    context, page = signed_in(browser, *server, SCENE[system].campaign, member)
    table = page.url.split("#")[0]
    sheet = f"/characters/{quote(_alices(server, system), safe='')}"
    found: list[str] = []
    try:
        for path in ("", sheet):
            for width in (1280, 390):
                page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
                page.goto(table + path)
                page.locator("#turns li").first.wait_for(timeout=WAIT)
                violations = axe.run(page).response["violations"]
                found += wanting(violations, page, f"{path or '/'} {width}", width)
                if path:
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    shot = SHOTS / f"sheet-{system}-{member.lower()}-{width}.png"
                    page.screenshot(path=str(shot), full_page=True)
        assert [] == found, "\n".join(found)
    finally:
        context.close()


def test_the_turn_panel_follows_the_table_live(browser: Any, server: tuple[str, str]) -> None:
    """Alice's table and Neo's sheet are open when the GM ends Neo's turn: both panels say it
    is Cypher's, without a reload."""
    scene = SCENE["sims"]
    context, page = signed_in(browser, *server, scene.campaign, "alice")
    sheet = context.new_page()
    try:
        sheet.goto(page.url.split("#")[0] + "/characters/Neo")
        for shown in (page, sheet):
            shown.locator("#live.on").wait_for(timeout=WAIT)
            assert "Neo" in shown.locator("#turns li.now").inner_text()
            shown.evaluate("window.loadedOnce = true")
        with Engine(server[1]) as engine:
            engine.execute(scene.campaign, sims.EndTurn())
        for shown in (page, sheet):
            shown.locator("#turns li.now", has_text="Cypher").wait_for(timeout=WAIT)
            assert shown.evaluate("window.loadedOnce === true")
        assert 0 == page.locator("#turns li.now", has_text="Neo").count()
    finally:
        context.close()


def test_a_drawn_sheet_needs_no_javascript(browser: Any, server: tuple[str, str]) -> None:
    """Scripts off: alice's Code Green sheet draws the Profile Grid and the open test, the
    panel says her test is open, and the text form opens from its summary."""
    name = _alices(server, "code-green")
    context, page = signed_in(
        browser, *server, SCENE["code-green"].campaign, "alice", java_script_enabled=False
    )
    try:
        page.goto(page.url.split("#")[0] + f"/characters/{quote(name, safe='')}")
        grid = page.get_by_role("table")
        assert "R1C1" in grid.inner_text()
        assert page.locator("#turns li.now", has_text=f"{name}").count() == 1
        text = page.locator("pre.sheet")
        assert not text.is_visible()
        page.locator("details.sheet-text > summary").click()
        assert text.is_visible()
        assert "o token" in text.inner_text()
        with Engine(server[1]) as engine:  # roll it: the page says so once reloaded
            engine.execute(SCENE["code-green"].campaign, cg.RollTest(), dice=DiceSpec(faces=(6,)))
        page.reload()
        page.locator("#turns li.now", has_text="must adapt after test 1").wait_for(timeout=WAIT)
    finally:
        context.close()
