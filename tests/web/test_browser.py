"""The live pages in a real browser (Playwright driving the system's Chromium, never a
downloaded one): a GM and two players, each signed in through an invite link in a browser
context of their own, play a short scene of each system through the pages' forms. Players roll,
the GM rules, bob disputes alice's roll and the GM undoes it by resolving the dispute, then
undoes its own ruling (and amends one in Sprawl Goons); every page shows each step as it
happens, without a reload. A player never reads a GM-only note or another player's private
message; a character named like markup stays text and runs nothing. Screenshots of the table
page go to build/screenshots/ (1280 and 390 px wide).

One server (uvicorn in a thread, on 127.0.0.1 and a free port, stopped at the end) and one
browser for the module; one campaign per system."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.rulesets.sprawl_goons.commands import MakeActionRoll
from engine import DiceSpec, Engine
from tests.web.scenes import GM, SCENES, XSS, Move, Scene, character_of, seat
from tests.web.servers import CHROMIUM, serving_in_thread

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
SHOTS = Path(__file__).parents[2] / "build" / "screenshots"
WAIT = 15_000  # ms: the longest a page may take to show a step
GM_NOTE = "The Merovingian owes Smith a favour"
TO_BOB = "Bring me the ledger, Cypher."


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A store with one campaign per system, served on 127.0.0.1: (base URL, db)."""
    db = str(tmp_path_factory.mktemp("browser") / "tables.db")
    with Engine(db) as engine:
        for scene in SCENES:
            seat(engine, scene)
    with serving_in_thread(db) as base:
        yield base, db


class Seat:
    """One member's browser context, signed in by their invite link, on the table page."""

    def __init__(self, browser: Any, base: str, db: str, campaign: str, member: str) -> None:
        self.member = member
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        with Engine(db) as engine:
            secret = engine.invite(campaign, member)
        self.page.goto(f"{base}/join/{secret}")
        self.page.get_by_role("button", name="Sign in").click()
        self.page.wait_for_url(re.compile(r"/campaigns/"))
        self.page.locator("#live.on").wait_for(timeout=WAIT)  # the event stream is open

    def issue(self, move: Move) -> int:
        """Fill the verb's form, send it, and return the number of the ruling recorded."""
        key = slug(move.verb)
        details = self.page.locator(f"#d-{key}")
        group = details.locator("xpath=ancestor::details[contains(@class, 'group')]")
        if group.count() and not group.evaluate("d => d.open"):  # the GM's verbs, grouped
            group.locator("> summary").click()
        if not details.evaluate("d => d.open"):
            details.locator("summary").click()
        for name, value in move.fields.items():
            field = self.page.locator(f"#f-{key}-{slug(name)}")
            if value is True:
                field.check()
            elif field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
        if move.dice:
            self.page.locator(f"#f-{key}-dice").fill(move.dice)
        return self.send(details)

    def write(self, text: str, *, to: str = "") -> int:
        """Write a post in the composer (private to ``to``, when given); its ruling's number."""
        form = self.page.locator("#post-form")
        if to:
            form.locator("#f-post-to").select_option(to)
        form.locator("#f-post-text").fill(text)
        return self.send(form)

    def send(self, details: Any) -> int:
        details.locator("button[type=submit]").click()
        said = details.locator("output.said").filter(has_text=re.compile(r"recorded as #\d+|\w+: "))
        text = said.text_content(timeout=WAIT) or ""  # one read: the form may go once it is done
        found = re.search(r"recorded as #(\d+)", text)
        assert found, f"{self.member}: {text}"
        return int(found.group(1))

    def act(self, kind: str, number: int, **fields: str) -> int:
        """A ruling's or dispute's own form (dispute, undo, amend, resolve)."""
        details = self.page.locator(f"#d-{kind}-{number}")
        details.locator("summary").click()
        for name, value in fields.items():
            field = self.page.locator(f"#f-{kind}-{number}-{name}")
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
        return self.send(details)

    def sees(self, selector: str) -> None:
        self.page.locator(selector).first.wait_for(timeout=WAIT)

    def shot(self, name: str, width: int) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
        self.page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()


def _other_pages(seat_: Seat, scene: Scene) -> None:
    """A player's sheet, the recap, the dice statistics (and The Code's Exposure timeline) load
    from the table's links; the sheet stays live."""
    page = seat_.page
    table = page.url
    page.locator("ul.characters li.yours a").first.click()
    page.locator("#sheet section.drawn").first.wait_for(timeout=WAIT)
    page.locator("#live.on").wait_for(timeout=WAIT)
    for label, selector in (("Recap", "h1"), ("Dice", "h1"), ("Exposure", "svg")):
        if label == "Exposure" and scene.system != "the-code":
            continue
        page.get_by_role("link", name=label, exact=True).first.click()
        page.locator(selector).first.wait_for(timeout=WAIT)
    page.goto(table)


def _table(browser: Any, server: tuple[str, str], scene: Scene) -> dict[str, Seat]:
    base, db = server
    return {
        who: Seat(browser, base, db, scene.campaign, member)
        for who, member in (("gm", GM), ("alice", "alice"), ("bob", "bob"))
    }


@pytest.mark.parametrize("scene", SCENES, ids=[s.system for s in SCENES])
def test_a_scene_plays_live_on_every_page(
    browser: Any, server: tuple[str, str], scene: Scene
) -> None:
    """Alice and bob roll and the GM rules through the forms; bob disputes alice's roll and the
    GM undoes it; each step appears on all three pages without a reload."""
    seats = _table(browser, server, scene)
    try:
        everyone = list(seats.values())
        for seat_ in everyone:
            seat_.page.evaluate("window.loadedOnce = true")  # gone if the page reloads
        numbers = {}
        for move in (scene.alice_rolls, scene.bob_rolls, scene.gm_rules):
            numbers[move.who] = seats[move.who].issue(move)
            for seat_ in everyone:
                seat_.sees(f"#r-{numbers[move.who]}")
        rolled = numbers["alice"]
        dispute = seats["bob"].act("dispute", rolled, reason="the wall was Average, not Good")
        for seat_ in everyone:
            seat_.sees(f"#r-{rolled}.disputed")
            seat_.sees(f"#r-{dispute}")
        seats["gm"].sees("#d-resolve-1")
        undo = seats["gm"].act("resolve", 1, outcome="undone", reason="bob is right")
        for seat_ in everyone:
            seat_.sees(f"#r-{rolled}.undone")
            seat_.sees(f"#r-{undo}")
        ruled = numbers["gm"]
        undone = seats["gm"].act("undo", ruled, reason="not yet")
        for seat_ in everyone:
            seat_.sees(f"#r-{ruled}.undone")
            seat_.sees(f"#r-{undone}")
        if scene.amend_bob:
            bobs = numbers["bob"]
            amended = seats["gm"].act("amend", bobs, changes=scene.amend_bob, reason="a hard lock")
            for seat_ in everyone:
                seat_.sees(f"#r-{bobs}.amended-entry")
                seat_.sees(f"#r-{amended}")
        assert [True] * 3 == [s.page.evaluate("window.loadedOnce === true") for s in everyone]
        seats["gm"].shot(f"table-{scene.system}-gm", 1280)
        seats["alice"].shot(f"table-{scene.system}-alice", 390)
        seats["gm"].shot(f"table-{scene.system}-gm", 390)
        for seat_ in everyone:  # nothing wider than a phone
            seat_.page.set_viewport_size({"width": 390, "height": 844})
            assert seat_.page.evaluate("document.documentElement.scrollWidth") <= 390
        _other_pages(seats["alice"], scene)
        assert [] == [e for s in everyone for e in s.errors + s.dialogs]
    finally:
        for seat_ in seats.values():
            seat_.close()


def test_players_read_only_what_is_theirs_and_names_stay_text(
    browser: Any, server: tuple[str, str]
) -> None:
    """The Sims: the GM's private message to bob (a post to him) reaches bob's page alone, the
    GM-only note no player's; a character named like an image tag is shown as text and runs
    nothing."""
    scene = next(s for s in SCENES if s.system == "sims")
    seats = _table(browser, server, scene)
    try:
        gm, alice, bob = seats["gm"], seats["alice"], seats["bob"]
        note = gm.issue(Move("gm", "note", {"text": GM_NOTE, "gm_only": True}))
        message = gm.write(TO_BOB, to="bob")
        npc = {"character": XSS, "player": GM, "qualities": "Hacking:Mental:Good", "custom": True}
        created = gm.issue(Move("gm", "character create", npc))
        bob.sees(f"#r-{message}")
        for seat_ in seats.values():
            seat_.sees(f"#r-{created}")
        for seat_ in (alice, bob):
            assert 0 == seat_.page.locator(f"#r-{note}").count()
            assert GM_NOTE not in seat_.page.content()
        assert 0 == alice.page.locator(f"#r-{message}").count()
        assert TO_BOB not in alice.page.content()
        assert TO_BOB in bob.page.inner_text(f"#r-{message}")
        assert GM_NOTE in gm.page.inner_text(f"#r-{note}")
        for seat_ in seats.values():
            assert XSS in seat_.page.inner_text(f"#r-{created}")
            assert 0 == seat_.page.locator("img").count()
        alice.page.goto(alice.page.url)  # and once more, rendered whole by the server
        assert XSS in alice.page.inner_text("#panels")
        assert 0 == alice.page.locator("img").count()
        with Engine(server[1]) as engine:
            assert XSS == character_of(engine, scene.campaign, GM)
        assert [] == [e for s in seats.values() for e in s.errors + s.dialogs]
    finally:
        for seat_ in seats.values():
            seat_.close()


@pytest.mark.parametrize("page_name", ["recap", "dice"])
def test_the_recap_and_dice_pages_follow_the_table_live(
    browser: Any, server: tuple[str, str], page_name: str
) -> None:
    """Alice reads the recap (or the dice statistics); the GM records a roll meanwhile: the
    page shows it without a reload (the dice counts grow, the recap names it)."""
    base, db = server
    scene = next(s for s in SCENES if s.system == "sprawl-goons")
    seat_ = Seat(browser, base, db, scene.campaign, "alice")
    try:
        page = seat_.page
        page.goto(f"{page.url.split('#')[0].split('?')[0]}/{page_name}")
        page.locator("h1").first.wait_for(timeout=WAIT)
        page.evaluate("window.loadedOnce = true")
        with Engine(db) as engine:
            who = character_of(engine, scene.campaign, "alice")
            roll = MakeActionRoll(character=who, stat="reaction", ds="10")
            engine.execute(scene.campaign, roll, dice=DiceSpec(faces=(6, 5)))
        page.locator("body[data-refreshed]").wait_for(timeout=WAIT)
        assert page.evaluate("window.loadedOnce === true")  # swapped in place, not reloaded
        assert [] == seat_.errors + seat_.dialogs
    finally:
        seat_.close()
