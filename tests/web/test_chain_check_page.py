"""The dice page checks the member's own copy of the log in the browser (web/static/chain_check.js,
in Chromium): every link walked from its genesis (a withheld row through its digest), every
seal, the copy's digest; held to the test vectors, and naming a rewrite. The file it checks is
the one the page's download link gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.audience import GMS, Member
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from domain.posts import WritePost
from domain.table import AddMember
from engine import Engine
from tests.web.servers import CHROMIUM, serving_in_thread
from tests.web.test_amend_dice_page import ORIGIN
from tests.web.test_dice_check import Server, sign_in

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
VECTORS = ROOT / "docs" / "vectors"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)


def checked(browser: Any, text: str) -> dict[str, Any]:
    """What chain_check.js makes of a file, on a blank page of a local origin."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route(
            f"{ORIGIN}/**",
            lambda route: route.fulfill(content_type="text/html", body="<!doctype html><p>"),
        )
        page.goto(f"{ORIGIN}/check")
        page.add_script_tag(content=(STATIC / "dice_check.js").read_text(encoding="utf-8"))
        page.add_script_tag(content=(STATIC / "chain_check.js").read_text(encoding="utf-8"))
        found: dict[str, Any] = page.evaluate("(text) => chainCheck.check(text)", text)
        return found
    finally:
        context.close()


def test_the_browser_checks_the_vectors_as_the_format_page_says(browser: Any) -> None:
    text = (VECTORS / "campaign.jsonl").read_text(encoding="utf-8")
    vectors = json.loads((VECTORS / "vectors.json").read_text(encoding="utf-8"))
    found = checked(browser, text)
    assert [] == found["problems"]
    assert vectors["header"]["digest"] == found["digest"]
    assert vectors["header"]["events"] == found["events"]
    assert [s["digest"] for s in vectors["seals"]] == [s["digest"] for s in found["seals"]]


def test_a_changed_word_breaks_its_stream_at_that_line(browser: Any) -> None:
    lines = (VECTORS / "campaign.jsonl").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if '"name":"ana"' in line.replace(" ", ""))
    lines[at] = lines[at].replace('"ana"', '"anna"', 1)
    found = checked(browser, "\n".join(lines) + "\n")
    assert any(f"line {at + 1} " in p and "changed or moved" in p for p in found["problems"])


def lab(db: str) -> None:
    """ana and bo; a hidden roll, bo's private post to the GM, a public roll; a session ended."""
    with Engine(db) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm="Rosa")
        for name in ("ana", "bo"):
            engine.execute("Lab", AddMember(member=name, role=Role.PLAYER))
        engine.execute("Lab", StartSession())
        engine.execute("Lab", RollFreely(expression="1d20", why="the guard"), hidden=True)
        secret = WritePost(by="bo", text="a secret for the GM", to=("Rosa",), ooc=True)
        engine.execute("Lab", secret, actor="bo")
        engine.execute("Lab", RollFreely(expression="2d6", why="the jump"), actor="ana")
        engine.execute("Lab", EndSession())


def test_a_members_copy_holds_and_a_withheld_digest_changed_does_not(
    browser: Any, tmp_path: Path
) -> None:
    db = str(tmp_path / "lab.db")
    lab(db)
    with Engine(db) as engine:
        copy = "\n".join(engine.member_copy("Lab", "ana", audience=GMS)) + "\n"
        whole = [json.loads(line) for line in engine.export("Lab", audience=GMS)]
    found = checked(browser, copy)
    assert [] == found["problems"]
    assert found["withheld"] > 0
    assert whole[0]["digest"] == found["digest"]
    assert "a secret for the GM" not in copy
    lines = copy.splitlines()
    at = next(i for i, line in enumerate(lines) if '"withheld"' in line)
    row = json.loads(lines[at])
    row["withheld"]["digest"] = "00" * 32
    lines[at] = json.dumps(row)
    broken = checked(browser, "\n".join(lines) + "\n")
    assert any(f"line {at + 1} " in p for p in broken["problems"])


def test_the_dice_page_checks_the_signed_in_members_copy(browser: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "lab.db")
    lab(db)
    with serving_in_thread(db) as base:
        page = sign_in(browser, Server(base, db), "Lab", "ana")
        try:
            page.goto(f"{base}/campaigns/Lab/dice-check?session=1")
            link = page.get_attribute("#own-copy a[download]", "href")
            assert link == page.get_attribute("#check-chains", "data-copy")  # the same file
            page.click("#check-chains")
            page.wait_for_selector("#chain-check[data-status='intact']")
            summary = page.inner_text("#chain-summary")
            with Engine(db) as engine:
                digest = json.loads(next(iter(engine.export("Lab", audience=GMS))))["digest"]
                mine = "\n".join(engine.member_copy("Lab", "ana", audience=Member("ana")))
            assert digest in summary
            assert "withheld from you" in summary
            assert mine.count('"withheld"') > 0
            assert [] == page.errors
        finally:
            page.context.close()
