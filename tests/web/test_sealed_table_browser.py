"""A roll sealed on the table page (protocol 3): with the key her browser made on the dice page
on her seat, ana's roll asked for on the table page is sealed in her browser (the text the
server gives, signed there, the signature sent as the roll's seal), so its dice come from the
committed seed and her signature. Her browser keeps what it sealed, and the dice page lists a
sealed roll the log lacks: one the server never recorded, and one it refused."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.audience import GMS
from domain.events import Role, RulingMade
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from domain.signatures import seal_message, signature_holds
from domain.table import AddMember
from engine import Engine
from engine.dice.seals import args_text
from tests.web.servers import CHROMIUM, serving_in_thread
from tests.web.test_dice_check import Server, check_page, sign_in, warnings

CAMPAIGN = "Lab"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
WAIT = 15_000

JOURNAL = """async () => new Promise((done, failed) => {
  const opening = indexedDB.open("campaign-log-sealed", 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("sealed");
  opening.onerror = () => failed(opening.error);
  opening.onsuccess = () => {
    const request = opening.result.transaction("sealed").objectStore("sealed").getAll();
    request.onsuccess = () => done(request.result);
  };
})"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    db = str(tmp_path / "lab.db")
    with Engine(db) as engine:
        engine.create_campaign(CAMPAIGN, "sprawl-goons", gm="Rosa")
        engine.execute(CAMPAIGN, AddMember(member="ana", role=Role.PLAYER))
        engine.execute(CAMPAIGN, StartSession())
    with serving_in_thread(db) as base:
        yield Server(base, db)


def roll_on_table(page: Any, server: Server, expression: str) -> Any:
    page.goto(f"{server.base}/campaigns/{CAMPAIGN}")
    form = page.locator("form[data-verb='dice']")
    # the note says the browser holds the seat's key
    form.locator(".seal-note").wait_for(state="attached", timeout=WAIT)
    page.locator("#d-dice > summary").click()
    form.locator("[name=expression]").fill(expression)
    form.locator("button[type=submit]").click()
    return form.locator("output.said")


def made(server: Server) -> list[RulingMade]:
    with Engine(server.db) as engine:
        logged = engine.log(CAMPAIGN, session=1, audience=GMS)
        return [e.ruling for e in logged if e.ruling.command == "dice"]


def test_a_roll_asked_for_on_the_table_page_is_sealed_by_the_players_browser(
    server: Server, browser: Any
) -> None:
    page = sign_in(browser, server, CAMPAIGN, "ana")
    try:
        check_page(page, server, CAMPAIGN, 1)
        page.click("#make-key")
        page.wait_for_selector("#key-status[data-status='registered']")
        public = page.inner_text("#key-status code")
        page.fill("#entropy-words", "pancakes")
        page.click("#entropy-form button[type=submit]")
        page.wait_for_selector("#your-entropy[data-status='counted']")

        said = roll_on_table(page, server, "2d6")
        recorded = page.locator("form[data-verb='dice'] output.said", has_text="sealed by you")
        recorded.wait_for(timeout=WAIT)
        number = int(said.inner_text().split("#")[1].split(",")[0])

        (roll,) = made(server)
        with Engine(server.db) as engine:
            state = engine.campaign(CAMPAIGN)
            seat = state.member("ana")
            assert seat is not None
            assert public == seat.key
            args = args_text(RollFreely(expression="2d6", why=""))
            text = seal_message(state.commitment or "", "ana", 0, "dice", args)
        assert 0 == roll.sealed
        assert signature_holds(public, text, roll.seal)
        kept = page.evaluate(JOURNAL)
        assert [(roll.seal, f"#{number}", "ana", CAMPAIGN)] == [
            (k["seal"], k["answer"], k["member"], k["campaign"]) for k in kept
        ]
        assert text.decode() == kept[0]["text"]

        # The server drops the next sealed roll after seeing its seal; then it refuses one.
        page.route("**/commands/dice", lambda route: route.abort())
        roll_on_table(page, server, "1d20").filter(has_text="not sent").wait_for(timeout=WAIT)
        page.unroute("**/commands/dice")
        refusal = {"error": {"code": "NOT_ALLOWED", "message": "no", "data": {}}}
        page.route(
            "**/commands/dice",
            lambda route: route.fulfill(status=403, body=json.dumps(refusal)),
        )
        roll_on_table(page, server, "1d4").filter(has_text="NOT_ALLOWED").wait_for(timeout=WAIT)
        page.unroute("**/commands/dice")
        assert 1 == len(made(server))

        with Engine(server.db) as engine:
            engine.execute(CAMPAIGN, EndSession())
            assert [()] == [d.problems for d in engine.verify(CAMPAIGN).dice]
        check_page(page, server, CAMPAIGN, 1)
        assert "verified" == page.get_attribute(f"tr[data-ruling='{number}']", "data-status")
        assert [("sealed-missing", None), ("sealed-refused", None)] == warnings(page)
        listed = page.locator("#dice-warnings li").all_inner_texts()
        assert "sealed roll 1, dice" in listed[0]
        assert "1d20" in listed[0]
        assert "refused it (NOT_ALLOWED)" in listed[1]
        assert "1d4" in listed[1]
        # the browser logs the two requests it could not complete, and nothing else
        assert [] == [e for e in page.errors if "Failed to load resource" not in e]
    finally:
        page.context.close()
