"""Witnesses on the pages (issue 43, item 1), in Chromium: the table page shows the log's head and
the member's browser keeps it in IndexedDB, signed with the key it holds for them; after the store
is rewritten and resealed (each of the three rewrites `verify` cannot see, on SQLite, and on
PostgreSQL after an export and an import), the same browser's dice page compares the log with
every head it kept, and with a witness file chosen there, and names the first head the log no
longer holds, with who saw it and when. What the browser signed checks out in Python: the page's
script writes the bytes docs/format.md specifies."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from domain.free_rolls import RollFreely
from domain.lifecycle import AddNote
from engine import HOLDS, DiceSpec, Engine, read_statements
from tests.integration.test_tamper import NAME, Played, play
from tests.integration.witnesses import (
    REWRITES,
    Witness,
    copy_of,
    every_head,
    exported,
    imported,
    rewrite,
    store_of,
)
from tests.web.conftest import CAMPAIGN, build_table
from tests.web.servers import CHROMIUM, chromium, free_port
from web import create_app
from web.serving import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium")

MAKE_KEY = """async ([campaign, member]) => {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const made = { privateKey: pair.privateKey, publicKey: pair.publicKey };
  made.public = Array.from(raw, (b) => b.toString(16).padStart(2, "0")).join("");
  const db = await new Promise((done, failed) => {
    const opening = indexedDB.open("campaign-log-keys", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("keys");
    opening.onsuccess = () => done(opening.result);
    opening.onerror = () => failed(opening.error);
  });
  await new Promise((done, failed) => {
    const put = db.transaction("keys", "readwrite").objectStore("keys")
      .put(made, JSON.stringify([campaign, member]));
    put.onsuccess = done;
    put.onerror = () => failed(put.error);
  });
  db.close();
  return made.public;
}"""


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory.mktemp("witness-pages") / "played.db")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@contextmanager
def serving(db: str, port: int) -> Iterator[str]:
    """The app of ``db`` on ``port`` (the same origin before and after the rewrite: a browser
    keeps its IndexedDB per origin)."""
    app = create_app(db)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = Server(config, app.state.feed)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive(), "the server stopped as it started"
        assert time.monotonic() < deadline, "the server did not start in 30 s"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def sign_in(page: Any, base: str, db: str, member: str) -> None:
    with Engine(db) as engine:
        secret = engine.invite(NAME, member)
    page.goto(f"{base}/join/{secret}")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/campaigns/**")


def checked(page: Any, base: str) -> str:
    """The dice page's comparison, once done: its status and text."""
    page.goto(f"{base}/campaigns/{NAME}/dice-check")
    done = "#witness-check[data-status=held], #witness-check[data-status=fork]"
    page.wait_for_selector(done, timeout=20000)
    status = page.get_attribute("#witness-check", "data-status")
    return f"{status}: {page.inner_text('#witness-check')}"


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("name", sorted(REWRITES))
def test_the_dice_page_names_the_fork_of_each_rewrite(
    browser: Any, template: Played, tmp_path: Path, name: str, kind: str
) -> None:
    store = copy_of(template, tmp_path / "store")
    heads = every_head(str(store.db))
    port = free_port()
    context = browser.new_context()
    try:
        page = context.new_page()
        with serving(str(store.db), port) as base:
            sign_in(page, base, str(store.db), "Rosa")
            # the statement kept before the key: remembered before the key is made
            page.wait_for_selector("#witness-said[data-status=unsigned]", timeout=20000)
            key = page.evaluate(MAKE_KEY, [NAME, "Rosa"])
            page.goto(f"{base}/campaigns/{NAME}")
            page.wait_for_selector("#witness-said[data-status=signed]", timeout=20000)
            shown = page.inner_text("#witness")
            assert f"The log's head: ruling 21, {heads[-1].link[:16]}" in shown
            assert checked(page, base).startswith("held: ")
            with page.expect_download() as downloading:
                page.click("#witness-download")
            lines = Path(downloading.value.path()).read_bytes().splitlines()
        unsigned, kept = read_statements(lines, "the download")  # before the key, and after
        assert ("", key) == (unsigned.key, kept.key)
        assert (heads[-1], heads[-1]) == (unsigned.head, kept.head)
        assert ("Rosa", "the table page") == (kept.by, kept.seen)
        assert kept.holds()
        rewrite(store, name)
        export = exported(str(store.db), tmp_path / "doctored.jsonl")
        with store_of(kind, tmp_path / "copy") as db:
            served = str(store.db) if kind == "sqlite" else imported(export, db)
            with serving(served, port) as base:
                if kind != "sqlite":  # another store: its own sign-ins and CSRF key
                    context.clear_cookies()
                    sign_in(page, base, served, "Rosa")
                said = checked(page, base)
                assert said.startswith("fork: ")
                assert "FORK: ruling 21 (version 41), seen by Rosa at " in said
                assert "(the table page, unsigned), is not in the log: " in said
                ana = tmp_path / "ana.witness.jsonl"
                witness = Witness("ana")
                ana.write_text("".join(witness.saw(h).line() + "\n" for h in heads))
                page.set_input_files("#witness-file", str(ana))
                first = REWRITES[name]
                page.wait_for_function(
                    "(n) => document.getElementById('witness-summary')?.textContent"
                    ".startsWith(`FORK: ruling ${n} `) && document.getElementById("
                    "'witness-summary').textContent.includes('seen by ana')",
                    arg=first,
                    timeout=20000,
                )
                summary = page.inner_text("#witness-summary")
                assert (
                    f"FORK: ruling {first} (version {heads[first - 1].version}), seen by ana"
                    in (summary)
                )
        with Engine(str(store.db)) as engine:
            assert engine.verify(NAME).intact
            (found,) = engine.check_witnesses(NAME, [kept]).checked
        assert (HOLDS, True) == (found.signature, bool(found.problem))
    finally:
        context.close()


def test_a_players_browser_keeps_each_head_it_is_shown_live(browser: Any, tmp_path: Path) -> None:
    """alice's table page, open while the GM records rulings elsewhere: her browser keeps the
    head after each public ruling as it arrives, and none after a hidden roll (the head she is
    shown stays at the latest ruling she may read)."""
    db = build_table(str(tmp_path / "zion.db"))
    port = free_port()
    context = browser.new_context()
    try:
        page = context.new_page()
        with serving(db.db, port) as base:
            with Engine(db.db) as engine:
                secret = engine.invite(CAMPAIGN, "alice")
                campaign = str(engine.campaign(CAMPAIGN).id)
            page.goto(f"{base}/join/{secret}")
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_selector("#witness-said[data-status=unsigned]", timeout=20000)
            kept = "(c) => witness.kept(c).then((all) => all.map((s) => s.ruling))"
            first = sorted(page.evaluate(kept, campaign))
            with Engine(db.db) as engine:
                roll = RollFreely(expression="1d6", why="behind the screen")
                engine.execute(CAMPAIGN, roll, dice=DiceSpec(faces=(2,)), hidden=True)
            time.sleep(2)  # the live page had time to swap its sections (if it had anything new)
            assert first == sorted(page.evaluate(kept, campaign))  # nothing new for alice
            with Engine(db.db) as engine:
                engine.execute(CAMPAIGN, AddNote(text="the lights go out"))
                public = engine.campaign(CAMPAIGN).rulings
            page.wait_for_function(
                "(n) => document.getElementById('witness').textContent.includes(`ruling ${n},`)",
                arg=public,
                timeout=20000,
            )
            deadline = time.monotonic() + 10
            while public not in page.evaluate(kept, campaign) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert [*first, public] == sorted(page.evaluate(kept, campaign))
            assert f"ruling {public}," in page.inner_text("#witness")
    finally:
        context.close()
