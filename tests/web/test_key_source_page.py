"""Where a key came from, on the dice page: a key put on bo's seat at the GM's keyboard (`--as
bo` on the GM's machine) is listed as such in bo's key box, and the words it signs are listed,
not counted, in every player's browser as `verify-dice` lists them; ana's key, put on her seat
from her own signed-in client, is listed as hers and her words count. A real server on
127.0.0.1 and the system's Chromium; skipped, saying why, without them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from domain.table import AddMember, RegisterKey
from engine import Engine
from tests.integration.players import Player
from tests.web.servers import CHROMIUM, chromium, serving_in_thread
from tests.web.test_dice_check import Server, sign_in
from web.dice_check import facts

GM = "Rosa"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    """ana's key from her client, bo's at the GM's keyboard; both add signed words; a roll;
    the session ends. The store, and the ruling of bo's words."""
    db = str(tmp_path_factory.mktemp("keys") / "lab.db")
    with Engine(db) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        ana = Player("ana").seated(engine)
        bo = Player("bo")
        engine.execute("Lab", AddMember(member="bo", role=Role.PLAYER))
        engine.execute("Lab", RegisterKey(member="bo", key=bo.public), actor="bo")  # the CLI
        engine.execute("Lab", StartSession())
        ana.adds(engine, "pancakes")
        words = bo.adds(engine, "tide at 4:12")
        engine.execute("Lab", RollFreely(expression="1d20", why="to hit"))
        engine.execute("Lab", EndSession())
    return db, words


def test_the_page_says_where_each_key_came_from(played: tuple[str, int]) -> None:
    db, _ = played
    with Engine(db) as engine:
        bo = facts(engine, "Lab", 1, "bo")
        ana = facts(engine, "Lab", 1, "ana")
    assert (True, False) == (bo["me"]["key_at_keyboard"], ana["me"]["key_at_keyboard"])
    keys = {s["name"]: s["signed_in"] for s in ana["steps"] if s["step"] == "key"}
    assert {"ana": True, "bo": False} == keys


@pytest.fixture(scope="module")
def server(played: tuple[str, int]) -> Iterator[Server]:
    with serving_in_thread(played[0]) as base:
        yield Server(base, played[0])


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: the browser tests of the dice check need it")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with chromium() as launched:
        yield launched


def opened(browser: Any, server: Server, member: str) -> Any:
    page = sign_in(browser, server, "Lab", member)
    page.goto(f"{server.base}/campaigns/Lab/dice-check?session=1")
    page.wait_for_selector("#dice-summary:not([data-status='checking'])")
    page.wait_for_selector("#dice-warnings:not([data-count=''])")
    return page


def test_in_the_browser_a_keyboard_key_is_listed_and_its_words_not_counted(
    played: tuple[str, int], server: Server, browser: Any
) -> None:
    _, words = played
    bo = opened(browser, server, "bo")
    try:
        assert [] == bo.errors
        assert "keyboard" == bo.get_attribute("#key-source", "data-source")
        assert "at the GM's keyboard" in bo.inner_text("#key-source")
    finally:
        bo.context.close()
    ana = opened(browser, server, "ana")
    try:
        assert "client" == ana.get_attribute("#key-source", "data-source")
        entropy = ana.inner_text("p.entropy")
        assert "ana pancakes (signed, counted)" in entropy
        assert "bo tide at 4:12 (not counted)" in entropy
        listed = ana.locator("#dice-warnings li[data-kind='keyboard key']")
        assert 1 == listed.count()
        assert f"{words}" == listed.get_attribute("data-ruling")
        shown = listed.inner_text()
        with Engine(server.db) as engine:
            (check,) = engine.verify("Lab").dice
        said = next(w for w in check.warnings if "at the GM's keyboard" in w)
        assert said.replace("'tide at 4:12'", "“tide at 4:12”") == shown
        assert "verified" == ana.get_attribute("#dice-summary", "data-status")
    finally:
        ana.context.close()
