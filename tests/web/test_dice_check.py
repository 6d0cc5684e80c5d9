"""The dice check that does not trust the server: the page's script (web/static/dice_check.js)
recomputes a session's committed rolls in the player's browser, as engine.committed_dice does; a
roll tampered with in the store is marked as not matching. A real server on 127.0.0.1 and the
system's Chromium; skipped, saying why, without them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from attrs import frozen
from litestar.testing import TestClient

from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import AddEntropy, EndSession, StartSession
from engine import DiceSpec, Engine
from engine.committed_dice import commitment, face, key, mixed, replay
from engine.mapper import canonical_json
from tests.web.servers import CHROMIUM, chromium, serving_in_thread
from web import create_app
from web.dice_check import steps

CAMPAIGN = "Zion"
MADE = "domain.events:RulingMade"
ODD_WORDS = 'wörld "quoted" back\\slash\nline\ttab \u2028 \U0001f3b2 \x01 \x7f </script>'
# (expression, hidden): session 1's rolls, in order; the hidden one is alice's gap
ROLLS = (("2d6", False), ("1d20", False), ("1d6", True), ("3d10", False), ("d%", False))


@frozen
class Played:
    db: str
    rolls: dict[int, str]  # ruling -> expression, of the rolls alice reads
    undone: int  # a ruling alice reads, undone


def play(db: str) -> Played:
    """Session 1: committed, two players' entropy, committed rolls (one hidden, one undone),
    a roll with typed dice, ended (the seed revealed); session 2 running, its seed secret."""
    with Engine(db) as engine:
        members = {"alice": Role.PLAYER, "bob": Role.PLAYER}
        engine.create_campaign(CAMPAIGN, "sims", gm="Morpheus", members=members)
        engine.execute(CAMPAIGN, StartSession())
        engine.execute(CAMPAIGN, AddEntropy(words="hello", by="alice"), actor="alice")
        engine.execute(CAMPAIGN, AddEntropy(words=ODD_WORDS, by="bob"), actor="bob")
        rolls = {}
        for expression, hidden in ROLLS:
            result = engine.execute(
                CAMPAIGN, RollFreely(expression=expression, why="test"), hidden=hidden
            )
            if not hidden:
                rolls[result.number] = expression
        engine.execute(
            CAMPAIGN, RollFreely(expression="1d6", why="typed"), dice=DiceSpec(faces=(4,))
        )
        undone = engine.execute(CAMPAIGN, RollFreely(expression="1d8", why="undone")).number
        rolls[undone] = "1d8"
        engine.undo(CAMPAIGN, undone, reason="asked twice")
        engine.execute(CAMPAIGN, EndSession())
        engine.execute(CAMPAIGN, StartSession())
        engine.execute(CAMPAIGN, RollFreely(expression="1d6", why="secret yet"))
    return Played(db, rolls, undone)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(str(tmp_path_factory.mktemp("dice-check") / "zion.db"))


def test_the_page_sends_the_public_facts_only(played: Played) -> None:
    """The page's data is the log's commitment, entropy, rolls and reveal as alice reads it:
    the hidden roll is not among them, and a running session's seed is not revealed."""
    with Engine(played.db) as engine:
        shown = steps(engine.log(CAMPAIGN, session=1, reader="alice"))
        running = steps(engine.log(CAMPAIGN, session=2, reader="alice"))
    kinds = [s["step"] for s in shown]
    assert ["committed", "entropy", "entropy", *["roll"] * 5, "revealed"] == kinds
    assert sorted(played.rolls) == sorted(s["ruling"] for s in shown if s["step"] == "roll")
    assert ["committed", "roll"] == [s["step"] for s in running]


def test_the_page_needs_a_seat(played: Played) -> None:
    """Nobody signed in gets no page; the script itself is public."""
    with TestClient(create_app(played.db)) as client:
        assert 401 == client.get(f"/campaigns/{CAMPAIGN}/dice-check").status_code
        script = client.get("/static/dice_check.js")
    assert 200 == script.status_code
    assert "crypto.subtle" in script.text


# --- In the browser ----------------------------------------------------------------------------


@frozen
class Server:
    base: str


@pytest.fixture(scope="module")
def server(played: Played) -> Iterator[Server]:
    """The app on uvicorn in a thread, on a free port of 127.0.0.1, stopped after the tests."""
    with serving_in_thread(played.db) as base:
        yield Server(base)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: the browser tests of the dice check need it")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with chromium() as launched:
        yield launched


@pytest.fixture
def alice(played: Played, server: Server, browser: Any) -> Iterator[Any]:
    """A page signed in as alice, through an invite link the GM made."""
    with Engine(played.db) as engine:
        secret = engine.invite(CAMPAIGN, "alice")
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.base}/join/{secret}")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{server.base}/campaigns/{CAMPAIGN}")
    try:
        yield page
    finally:
        context.close()


def check_page(page: Any, server: Server, session: int) -> None:
    page.goto(f"{server.base}/campaigns/{CAMPAIGN}/dice-check?session={session}")
    page.wait_for_selector("#dice-summary:not([data-status='checking'])")


def statuses(page: Any) -> dict[int, str]:
    rows = page.locator("tr[data-ruling]")
    return {
        int(rows.nth(i).get_attribute("data-ruling")): rows.nth(i).get_attribute("data-status")
        for i in range(rows.count())
    }


def vectors() -> dict[str, Any]:
    """Fixed inputs and what engine.committed_dice makes of them."""
    secrets = [bytes(range(32)), b"\xff" * 32, bytes.fromhex("5489a413bbd397c5d31fa65ee592af5a")]
    added = [[], [["alice", "hello"]], [["alice", "hello"], ["bob", ODD_WORDS]]]
    sides = [6, 6, 20, 100, 129, 200, 255, 256, 1, 2, 3]
    blocks = [(b"\xff" * 31 + b"\x80", 129), (b"\xff" * 32, 129), (b"\xc8" * 32, 100), (b"\x07", 6)]
    cases = []
    for secret in secrets:
        for given in ("", "older words"):
            for entropy in added:
                mix = mixed(given, [(who, words) for who, words in entropy])
                derived = key(secret, mix)
                runs = [(start, replay(derived, start, tuple(sides))) for start in (0, 2**40 + 3)]
                cases.append(
                    {
                        "secret": secret.hex(),
                        "commitment": commitment(secret),
                        "given": given,
                        "added": entropy,
                        "mixed": mix,
                        "key": derived.hex(),
                        "runs": [[start, list(faces), draws] for start, (faces, draws) in runs],
                    }
                )
    faces = [[block.hex(), n, face(block, n)] for block, n in blocks]
    return {"cases": cases, "sides": sides, "faces": faces}


COMPUTE = """async ({cases, sides, faces}) => {
  const d = diceCheck;
  const out = [];
  for (const c of cases) {
    const secret = d.fromHex(c.secret);
    const mix = await d.mixed(c.given, c.added);
    const derived = await d.key(secret, mix);
    const runs = [];
    for (const [start] of c.runs) {
      const got = await d.replay(derived, start, sides);
      runs.push([start, got.faces, got.draws]);
    }
    out.push({secret: c.secret, commitment: await d.commitment(secret), given: c.given,
              added: c.added, mixed: mix, key: d.hex(derived), runs});
  }
  const found = faces.map(([block, n]) => [block, n, d.face(d.fromHex(block), n)]);
  return {cases: out, sides, faces: found};
}"""


def test_the_script_computes_what_committed_dice_computes(
    alice: Any, server: Server, played: Played
) -> None:
    """On fixed seeds, entropy (odd characters too) and counters (past 2**32), the script's
    commitment, mixed entropy, key, faces and counters used are engine.committed_dice's."""
    check_page(alice, server, 1)
    expected = vectors()
    assert expected == alice.evaluate(COMPUTE, json.loads(json.dumps(expected)))


def test_every_roll_is_verified_then_a_tampered_one_is_not(
    alice: Any, server: Server, played: Played
) -> None:
    """After the reveal every roll alice reads is verified in her browser (the hidden one is a
    gap); a face rewritten in the store is then marked as not matching, the others still hold."""
    check_page(alice, server, 1)
    assert dict.fromkeys(played.rolls, "verified") == statuses(alice)
    assert "verified" == alice.get_attribute("#dice-summary", "data-status")
    assert "verified" == alice.get_attribute("p.seed", "data-status")
    assert 1 == alice.locator("tr.gap").count()
    assert "(undone)" in alice.inner_text(f"tr[data-ruling='{played.undone}']")

    tampered = min(r for r, e in played.rolls.items() if e == "2d6")
    with sqlite3.connect(played.db) as store:
        for stream, version, state in store.execute(
            "SELECT originator_id, originator_version, state FROM stored_events WHERE topic=?",
            (MADE,),
        ):
            body = json.loads(state)
            if body["event"]["number"] == tampered:
                die = body["event"]["dice"][0]
                die["face"] = die["face"] % 6 + 1
                update = (
                    "UPDATE stored_events SET state=? "
                    "WHERE originator_id=? AND originator_version=?"
                )
                store.execute(update, (canonical_json(body), stream, version))
    alice.reload()
    alice.wait_for_selector("#dice-summary:not([data-status='checking'])")
    expected = dict.fromkeys(played.rolls, "verified") | {tampered: "mismatch"}
    assert expected == statuses(alice)
    assert "mismatch" == alice.get_attribute("#dice-summary", "data-status")
    assert "does not match" in alice.inner_text(f"tr[data-ruling='{tampered}']")


def test_a_running_session_waits_for_its_reveal(alice: Any, server: Server) -> None:
    """Session 2 is running: its seed is secret, so its roll waits for the reveal."""
    check_page(alice, server, 2)
    assert "waiting" == alice.get_attribute("#dice-summary", "data-status")
    assert ["waiting"] == list(statuses(alice).values())
