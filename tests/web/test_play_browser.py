"""A scene of each system played at the table page in a real browser (Playwright driving the
system's Chromium) by the GM and two players, each in a browser context of their own, once with
JavaScript on and once with it off (``tests.web.plays``): posts are typed in the composer and
the actions beside it used through their forms. Each ruling lands in the thread of every member
who may read it (a private post in its reader's and the GM's alone); where the state waits for a
step, its form is the first offered and marked; a refusal by the rules shows its line in place
and records nothing. Screenshots go to build/screenshots/.

One server (uvicorn in a thread, on 127.0.0.1 and a free port) and one browser for the module;
a campaign per system and mode, and one on which the GM's actions follow the character chosen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from domain.rulesets.code_green import commands as cg
from engine import Engine
from tests.web.plays import PLAYS, Step
from tests.web.scenes import GM, SCENES, Scene, character_of, seat
from tests.web.servers import CHROMIUM, serving_in_thread

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
SHOTS = Path(__file__).parents[2] / "build" / "screenshots"
WAIT = 15_000  # ms: the longest a page may take to show a step
MODES = {"live": True, "plain": False}  # JavaScript on, off
MEMBERS = {"gm": GM, "alice": "alice", "bob": "bob"}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _scene(scene: Scene, mode: str) -> Scene:
    return attrs.evolve(scene, campaign=f"{scene.campaign} {mode}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A store with a campaign per system and mode, served on 127.0.0.1: (base URL, db)."""
    db = str(tmp_path_factory.mktemp("plays") / "tables.db")
    with Engine(db) as engine:
        for played in (_scene(scene, mode) for scene in SCENES for mode in MODES):
            seat(engine, played)
        chooser = _scene(SCENES[0], "chooser")  # Code Green, alice's test declared
        seat(engine, chooser)
        alice = character_of(engine, chooser.campaign, "alice")
        engine.execute(chooser.campaign, cg.DeclareTest(character=alice, form=None, function=None))
    with serving_in_thread(db) as base:
        yield base, db


class Member:
    """One member's browser context (scripts on or off), signed in by their invite link."""

    def __init__(self, browser: Any, server: tuple[str, str], campaign: str, who: str, js: bool):
        base, db = server
        self.who, self.js, self.db, self.campaign = who, js, db, campaign
        self.context = browser.new_context(
            viewport={"width": 1280, "height": 900}, java_script_enabled=js
        )
        # Signed in as the invite's form would (a POST of its link), then the table.
        invite = Engine(db)
        try:
            link = f"{base}/join/{invite.invite(campaign, MEMBERS[who])}"
        finally:
            invite.close()
        joined = self.context.request.post(link, max_redirects=0)
        self.table = base + str(joined.headers["location"])
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.table)
        self.seen = _rulings(db, campaign)  # the rulings the page was loaded after
        if js:
            self.page.locator("#live.on").wait_for(timeout=WAIT)

    def open(self, character: str = "") -> None:
        """The table, for the character's actions if one is named (scripts on: the page is
        live; off: loaded again when a ruling was recorded since)."""
        query = f"?character={character}" if character else ""
        if not character and (self.js or self.seen == _rulings(self.db, self.campaign)):
            return
        self._load(self.table + query.replace(" ", "%20"))

    def _load(self, url: str) -> None:
        self.seen = _rulings(self.db, self.campaign)
        self.page.goto(url)
        if self.js:
            self.page.locator("#live.on").wait_for(timeout=WAIT)

    def first_offered(self) -> tuple[str, bool]:
        """The first form beside the composer: its verb, and whether it is marked expected."""
        first = self.page.locator("#forms details.verb").first
        verb = first.locator("summary").evaluate("s => s.firstChild.textContent.trim()")
        return verb, "expected" in (first.get_attribute("class") or "")

    def do(self, step: Step, names: dict[str, str]) -> tuple[int | None, str]:
        """Send the step's form: the ruling it recorded, or None and the refusal shown in
        place (the line under that very form)."""
        if step.verb == "post":
            form = self.page.locator("#post-form")
            form.locator("#f-post-text").fill(step.fields["text"].format(**names))
            if step.to:
                form.locator("#f-post-to").select_option(MEMBERS[step.to])
            return self._send(form, form.get_by_role("button", name="Post", exact=True))
        key = _slug(step.verb)
        details = self.page.locator(f"#d-{key}")
        group = details.locator("xpath=ancestor::details[contains(@class, 'group')]")
        if group.count() and not group.evaluate("d => d.open"):
            group.locator("> summary").click()
        if not details.evaluate("d => d.open"):
            details.locator("> summary").click()
        for name, value in step.fields.items():
            field = self.page.locator(f"#f-{key}-{_slug(name)}")
            if value is True:
                field.check()
            elif field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(str(value))
            else:
                field.fill(str(value).format(**names))
        return self._send(details, details.locator("button[type=submit]"))

    def _send(self, form: Any, button: Any) -> tuple[int | None, str]:
        key = form.get_attribute("id")
        if self.js:
            button.click()
            said = form.locator("output.said").filter(
                has_text=re.compile(r"recorded as #\d+|\w+: ")
            )
            text = said.text_content(timeout=WAIT) or ""
            found = re.search(r"recorded as #(\d+)", text)
            return (int(found.group(1)), "") if found else (None, text)
        with self.page.expect_navigation():
            button.click()
        found = re.search(r"#r-(\d+)$", self.page.url)
        if found:
            self.seen = int(found.group(1))  # the table again, after the ruling it recorded
            return int(found.group(1)), ""
        refused = self.page.locator(f"#{key} output.said.refusal")  # the same form, re-rendered
        return None, refused.text_content(timeout=WAIT) or ""

    def reads(self, number: int) -> bool:
        """Whether the thread shows ruling ``number`` (scripts on: it arrives live)."""
        entry = self.page.locator(f"#r-{number}")
        if self.js:
            entry.wait_for(timeout=WAIT)
            return True
        if self.seen < number:
            self._load(self.table)
        return entry.count() == 1

    def misses(self, number: int) -> bool:
        """Whether, on the page loaded again, the thread does not show ruling ``number``."""
        self._load(self.table)
        return self.page.locator(f"#r-{number}").count() == 0

    def shot(self, name: str, width: int) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
        self.page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


def _rulings(db: str, campaign: str) -> int:
    with Engine(db) as engine:
        return engine.campaign(campaign).rulings


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("scene", SCENES, ids=[s.system for s in SCENES])
def test_a_scene_is_played_at_the_table(
    browser: Any, server: tuple[str, str], scene: Scene, mode: str
) -> None:
    """The GM, alice and bob play the system's scene through the composer and the actions:
    each ruling reaches its readers, the expected step is offered first, a refusal is shown
    in place and records nothing."""
    played = _scene(scene, mode)
    js = MODES[mode]
    members = {who: Member(browser, server, played.campaign, who, js) for who in MEMBERS}
    with Engine(server[1]) as engine:
        names = {p: character_of(engine, played.campaign, p) for p in ("alice", "bob")}
    try:
        for step in PLAYS[scene.system]:
            member = members[step.who]
            member.open(step.character)
            if step.first:
                assert (step.verb, True) == member.first_offered(), step
            before = _rulings(server[1], played.campaign)
            number, refusal = member.do(step, names)
            if step.refused:
                assert number is None, step
                assert refusal.strip(), step
                if js:  # the API's refusal names its code; the page's is the rule's line
                    assert refusal.startswith(f"{step.refused}: "), refusal
                assert before == _rulings(server[1], played.campaign), step
                continue
            assert number is not None, (step, refusal)
            readers = [w for w in MEMBERS if not step.to or w in ("gm", step.who, step.to)]
            for who in readers:
                assert members[who].reads(number), (who, step)
            for who in set(MEMBERS) - set(readers):
                assert members[who].misses(number), (who, step)
        members["gm"].shot(f"play-{scene.system}-{mode}-gm", 1280)
        members["alice"].shot(f"play-{scene.system}-{mode}-alice", 390)
        assert [] == [e for m in members.values() for e in m.errors]
    finally:
        for member in members.values():
            member.context.close()


def test_the_actions_follow_the_character_chosen_without_a_reload(
    browser: Any, server: tuple[str, str]
) -> None:
    """Scripts on, the GM's actions follow the character chosen beside them, or written as in
    the composer, in place: bob's assist, then alice's roll, first; the address keeps it."""
    played = _scene(SCENES[0], "chooser")
    gm = Member(browser, server, played.campaign, "gm", True)
    with Engine(server[1]) as engine:
        alice, bob = (character_of(engine, played.campaign, p) for p in ("alice", "bob"))
    try:
        gm.page.evaluate("window.loadedOnce = true")
        gm.page.locator("#f-for").select_option(bob)
        gm.page.locator("#forms p.meta", has_text=f"for {bob},").wait_for(timeout=WAIT)
        assert ("assist", True) == gm.first_offered()
        assert gm.page.url.split("#")[0].endswith(f"?character={bob}")  # (its place kept)
        gm.page.locator("#f-post-speaker").select_option(f"character:{alice}")
        gm.page.locator("#forms p.meta", has_text=f"for {alice},").wait_for(timeout=WAIT)
        assert ("roll", True) == gm.first_offered()
        assert alice == gm.page.locator("#f-for").input_value()
        assert gm.page.evaluate("window.loadedOnce === true")
        assert [] == gm.errors
    finally:
        gm.context.close()
