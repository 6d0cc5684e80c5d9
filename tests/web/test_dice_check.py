"""The dice check that does not trust the server: the page's script (web/static/dice_check.js)
checks a session's committed dice in the player's browser as engine.audit.dice does (protocol 2:
signed entropy, each member's counters, hidden rolls under a Merkle root; protocol 1 as older
logs wrote it), and lists what a player must see as `verify` does; a roll tampered with in the
store is marked as not matching; a hidden roll never revealed is listed, and nothing its dice
could be computed from reaches the page. A player makes their key in the browser, registers it,
signs their entropy and sees it counted. A real server on 127.0.0.1 and the system's Chromium;
skipped, saying why, without them."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from attrs import frozen
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from litestar.testing import TestClient

from domain.audience import GMS
from domain.events import DiceCommitted, EntropyAdded, Role
from domain.free_rolls import RollFreely
from domain.lifecycle import AddEntropy, EndSession, StartSession
from domain.posts import WritePost
from domain.signatures import entropy_message, signature_holds
from domain.table import RegisterKey, RevealRuling
from engine import DiceSpec, Engine
from engine.audit.dice import LISTED
from engine.dice.committed import (
    commitment,
    face,
    hidden_proof,
    hidden_root,
    key,
    lane,
    leaf_key,
    mixed,
    mixed_signed,
    new_secret,
    replay,
    root_from,
)
from engine.store.mapper import canonical_json
from engine.write.ledger import Ledger
from tests.integration.players import close_entropy
from tests.web.servers import CHROMIUM, chromium, serving_in_thread
from web import create_app
from web.dice_check import facts

ZION = "Zion"  # protocol 2
OLDTOWN = "Oldtown"  # protocol 1, as older logs wrote it
SHIP = "Nebuchadnezzar"  # the key flow, in the browser
TYPIST = "Typist"  # more typed rolls in a session than verify lists one by one
GM = "Morpheus"
MADE = "domain.events:RulingMade"
ODD_WORDS = 'wörld "quoted" back\\slash\nline\ttab \u2028 \U0001f3b2 \x01 \x7f </script>'
HIDDEN_SIDES = 997  # the never-revealed roll's die: nowhere else in the campaign
HIDDEN_WHY = "the guard's secret"
HIDDEN_TYPED_WHY = "a secret typed"


def public_hex(private: Ed25519PrivateKey) -> str:
    raw = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return raw.hex()


@frozen
class Played:
    db: str
    public: dict[int, str]  # ruling -> expression: session 1's public committed rolls
    shown: tuple[int, int]  # hidden rolls revealed (in session 1, after it ended)
    never: int  # a hidden roll never revealed
    hidden_typed: int  # a hidden roll of typed faces
    typed: int  # the GM's --dice roll
    seeded: int  # the GM's --seed roll
    undone: int  # alice's roll, undone by the GM
    hidden_seed: bytes  # session 1's (the GM's machine's secret)
    old_rolls: tuple[int, ...]  # Oldtown's committed rolls alice reads
    old_undone: int


def protocol_one(self: Ledger, campaign: Any, number: int, entropy: str) -> DiceCommitted:
    """How older versions committed a session's dice: SHA-256 of the seed alone, one counter."""
    self.dice_secrets.put(campaign.id, number, new_secret(), entropy)
    kept = self.dice_secrets.get(campaign.id, number)
    assert kept is not None
    return DiceCommitted(session=number, seed_hash=commitment(kept[0]), entropy=entropy)


def signed(engine: Engine, campaign: str, who: str, words: str, private: Any) -> None:
    committed = engine.campaign(campaign).commitment or ""
    signature = private.sign(entropy_message(committed, who, words)).hex()
    engine.execute(campaign, AddEntropy(words=words, by=who, signature=signature), actor=who)


def roll(engine: Engine, expression: str, why: str = "test", **how: Any) -> int:
    return engine.execute(ZION, RollFreely(expression=expression, why=why), **how).number


def play(db: str) -> Played:
    """Zion, protocol 2. Session 1: alice's key registered before it, bob's in it; both sign
    their entropy, carol's is unsigned; public rolls of the GM, alice and bob (a d1000 too;
    rerolls and a die added by ``ra``, each one more draw; a post's rolls);
    hidden rolls revealed in the session and after it, one never; a hidden roll and a GM's roll
    of typed faces, a GM's --seed roll; alice's roll undone by the GM; ended (the seed
    revealed). Session 2: alice's entropy, the session started again, her entropy again, ended
    with no roll. Session 3 running, its seed secret. Oldtown, protocol 1: entropy given and
    added, rolls (one hidden, one undone), ended."""
    keys = {who: Ed25519PrivateKey.generate() for who in ("alice", "bob")}
    with Engine(db) as engine:
        members = {"alice": Role.PLAYER, "bob": Role.PLAYER, "carol": Role.PLAYER}
        engine.create_campaign(ZION, "sims", gm=GM, members=members)
        alices = RegisterKey(member="alice", key=public_hex(keys["alice"]))
        engine.execute(ZION, alices, actor="alice", signed_in=True)  # from her browser
        engine.execute(ZION, StartSession())
        bobs = RegisterKey(member="bob", key=public_hex(keys["bob"]))
        engine.execute(ZION, bobs, actor="bob", signed_in=True)
        signed(engine, ZION, "alice", "hello", keys["alice"])
        signed(engine, ZION, "bob", ODD_WORDS, keys["bob"])
        engine.execute(ZION, AddEntropy(words="mine", by="carol"), actor="carol")
        public = {}
        rolls = (("2d6", GM), ("1d20", "alice"), ("3d10", "bob"), ("1d1000", GM))
        for expression, who in (*rolls, ("2d6ro<7", "alice"), ("1d8ra>0", "bob")):
            public[roll(engine, expression, actor=who)] = expression  # ro, ra: one more die each
        post = WritePost(text="I climb [1d6ro<7] and [2d4ra>0 for luck]", by="alice", ooc=True)
        public[engine.execute(ZION, post, actor="alice").number] = "post"
        first = roll(engine, "1d6", hidden=True)
        later = roll(engine, "1d300", hidden=True)
        never = roll(engine, f"1d{HIDDEN_SIDES}", HIDDEN_WHY, hidden=True)
        hidden_typed = roll(engine, "1d6", HIDDEN_TYPED_WHY, hidden=True, dice=DiceSpec(faces=(5,)))
        typed = roll(engine, "1d6", "typed", dice=DiceSpec(faces=(4,)))
        seeded = roll(engine, "1d6", "seeded", dice=DiceSpec(seed=7))
        public[roll(engine, "d%", actor="alice")] = "d%"
        undone = roll(engine, "1d8", "undone", actor="alice")
        public[undone] = "1d8"
        engine.undo(ZION, undone, reason="asked twice")
        engine.execute(ZION, RevealRuling(ruling=first))
        engine.execute(ZION, EndSession())
        engine.execute(ZION, RevealRuling(ruling=later))
        start = engine.execute(ZION, StartSession()).number
        signed(engine, ZION, "alice", "again", keys["alice"])
        engine.undo(ZION, start, reason="started too soon", with_dependents=True)
        engine.execute(ZION, StartSession())
        signed(engine, ZION, "alice", "again", keys["alice"])
        engine.execute(ZION, EndSession())
        engine.execute(ZION, StartSession())
        close_entropy(engine, ZION)  # the players add no words tonight
        roll(engine, "1d6", "secret yet")
        kept = engine.ledger.dice_secrets.get(engine.campaign(ZION).id, 1)
        assert kept is not None

        engine.create_campaign(OLDTOWN, "sims", gm=GM, members={"alice": Role.PLAYER})
        with mock.patch.object(Ledger, "_committed", protocol_one):
            engine.execute(OLDTOWN, StartSession(entropy="older words"))
        assert 1 == engine.campaign(OLDTOWN).dice_protocol
        engine.execute(OLDTOWN, AddEntropy(words=ODD_WORDS, by="alice"), actor="alice")
        old = [engine.execute(OLDTOWN, RollFreely(expression="2d6", why="old")).number]
        engine.execute(OLDTOWN, RollFreely(expression="1d6", why="old hidden"), hidden=True)
        old.append(engine.execute(OLDTOWN, RollFreely(expression="3d10", why="old")).number)
        old_undone = engine.execute(OLDTOWN, RollFreely(expression="1d8", why="old")).number
        old.append(old_undone)
        engine.undo(OLDTOWN, old_undone, reason="asked twice")
        engine.execute(OLDTOWN, EndSession())

        engine.create_campaign(SHIP, "sims", gm=GM, members={"trinity": Role.PLAYER})
        engine.execute(SHIP, StartSession())

        engine.create_campaign(TYPIST, "sims", gm=GM, members={"alice": Role.PLAYER})
        engine.execute(TYPIST, StartSession())
        close_entropy(engine, TYPIST)
        typed_roll = RollFreely(expression="1d6", why="typed")
        for _ in range(LISTED + 3):
            engine.execute(TYPIST, typed_roll, dice=DiceSpec(faces=(4,)))
        engine.execute(TYPIST, EndSession())
    return Played(
        db,
        public,
        (first, later),
        never,
        hidden_typed,
        typed,
        seeded,
        undone,
        kept[0][32:],
        tuple(old),
        old_undone,
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(str(tmp_path_factory.mktemp("dice-check") / "zion.db"))


def page_data(db: str, campaign: str, session: int, member: str) -> dict[str, Any]:
    with Engine(db) as engine:
        return facts(engine, campaign, session, member)


def of_ruling(data: dict[str, Any], ruling: int) -> list[dict[str, Any]]:
    return [s for s in data["steps"] if s["ruling"] == ruling and s["step"] != "hidden key"]


def test_the_page_sends_the_public_facts_only(played: Played) -> None:
    """The page's data is the log's commitment, seats' keys, signed entropy, rolls and reveals
    as alice reads them; of a hidden roll never revealed only its ruling, who and its leaf; of a
    hidden roll of typed faces who and where they came from; a running session's seed not."""
    data = page_data(played.db, ZION, 1, "alice")
    kinds = [s["step"] for s in data["steps"]]
    seats = ["seated"] * 3  # the campaign's creation seated them
    assert [*seats, "key", "committed", "key", "entropy", "entropy", "entropy"] == kinds[:9]
    assert 2 == kinds.count("hidden key")
    assert ["ended", "revealed"] == [k for k in kinds if k in ("revealed", "ended")]
    never = of_ruling(data, played.never)
    assert [
        {
            "step": "unread",
            "ruling": played.never,
            "by": GM,
            "hidden": True,
            "leaf": 2,
            "counter": 0,
            "lane": None,
            "undone": None,
        }
    ] == never
    typed = of_ruling(data, played.hidden_typed)
    assert [
        {
            "step": "uncommitted",
            "ruling": played.hidden_typed,
            "by": GM,
            "provenance": "physical",
            "hidden": True,
            "undone": None,
        }
    ] == typed
    undone = of_ruling(data, played.undone)[0]
    assert {"by": GM, "ruling": played.undone + 1} == undone["undone"]
    assert ("alice", "alice") == (undone["by"], undone["lane"])
    keys = {s["ruling"] for s in data["steps"] if s["step"] == "hidden key"}
    assert {*played.shown, played.never} - keys == {played.never}  # one revealed after the end
    running = page_data(played.db, ZION, 3, "alice")["steps"]
    assert ["committed", "roll"] == [s["step"] for s in running]


def test_every_die_a_roll_drew_is_on_the_page(played: Played) -> None:
    """A reroll, a die ``ra`` adds, the dice of a post's rolls: each a draw of its own, so the
    page checks as many dice as the roll drew, each the face its event records."""
    data = page_data(played.db, ZION, 1, "alice")
    with Engine(played.db) as engine:
        logged = {e.ruling.number: e for e in engine.log(ZION, session=1, audience=GMS)}
    drawn = {"2d6ro<7": (6, 6, 6, 6), "1d8ra>0": (8, 8), "post": (6, 6, 4, 4, 4)}
    for number, expression in played.public.items():
        if expression not in drawn:
            continue
        (step,) = of_ruling(data, number)
        events = [r.event for r in logged[number].standing]
        faces = [f for e in events for f in getattr(e, "faces", ())]
        faces += [f for e in events for roll in getattr(e, "rolls", ()) for f in roll.faces]
        assert faces == [d["face"] for d in step["dice"]]
        assert drawn[expression] == tuple(d["sides"] for d in step["dice"])


def test_the_page_needs_a_seat(played: Played) -> None:
    """Nobody signed in gets no page; the script itself is public."""
    with TestClient(create_app(played.db)) as client:
        assert 401 == client.get(f"/campaigns/{ZION}/dice-check").status_code
        script = client.get("/static/dice_check.js")
    assert 200 == script.status_code
    assert "crypto.subtle" in script.text


# --- In the browser ----------------------------------------------------------------------------


@frozen
class Server:
    base: str
    db: str


@pytest.fixture(scope="module")
def server(played: Played) -> Iterator[Server]:
    """The app on uvicorn in a thread, on a free port of 127.0.0.1, stopped after the tests."""
    with serving_in_thread(played.db) as base:
        yield Server(base, played.db)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: the browser tests of the dice check need it")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with chromium() as launched:
        yield launched


def sign_in(browser: Any, server: Server, campaign: str, member: str) -> Any:
    """A page signed in as ``member``, through an invite link the GM made."""
    with Engine(server.db) as engine:
        secret = engine.invite(campaign, member)
    context = browser.new_context()
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.base}/join/{secret}")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/campaigns/"))
    return page


@pytest.fixture
def alice(server: Server, browser: Any) -> Iterator[Any]:
    page = sign_in(browser, server, ZION, "alice")
    try:
        yield page
    finally:
        page.context.close()


def check_page(page: Any, server: Server, campaign: str, session: int) -> None:
    page.goto(f"{server.base}/campaigns/{campaign}/dice-check?session={session}")
    page.wait_for_selector("#dice-summary:not([data-status='checking'])")
    page.wait_for_selector("#dice-warnings:not([data-count=''])")


def statuses(page: Any) -> dict[int, str]:
    rows = page.locator("tr[data-ruling]")
    return {
        int(rows.nth(i).get_attribute("data-ruling")): rows.nth(i).get_attribute("data-status")
        for i in range(rows.count())
    }


def warnings(page: Any) -> list[tuple[str, int | None]]:
    items = page.locator("#dice-warnings li")
    found = []
    for i in range(items.count()):
        ruling = items.nth(i).get_attribute("data-ruling")
        found.append((items.nth(i).get_attribute("data-kind"), int(ruling) if ruling else None))
    return found


KINDS = (
    ("unsigned", "is unsigned"),
    ("uncommitted", "not drawn from the commitment"),
    ("undone", "were set aside, undone"),
    ("hidden", "never revealed"),
    ("no-signed", "no signed entropy"),
    ("restarted", "started again"),
    ("ended", "ended after players added entropy"),
)


def audited(db: str, campaign: str, session: int) -> tuple[list[tuple[str, int | None]], Any]:
    """What `campaign verify` lists of a session, as (kind, ruling) in its order."""
    with Engine(db) as engine:
        checks = [d for d in engine.verify(campaign).dice if d.session == session]
    listed = []
    for check in checks:
        for warning in check.warnings:
            kind = next(k for k, words in KINDS if words in warning)
            found = re.match(r"(?:ruling (\d+)|\w+'s entropy .* \(ruling (\d+)\))", warning, re.S)
            number = next((int(g) for g in found.groups() if g), None) if found else None
            listed.append((kind, number))
    return listed, checks


def test_a_protocol_2_session_verifies_and_lists_what_verify_lists(
    alice: Any, server: Server, played: Played
) -> None:
    """Session 1 in alice's browser: the seats' keys hold the signatures of alice's and bob's
    entropy (carol's, unsigned, is not counted), every public roll and every revealed hidden
    roll (one revealed after the session ended) follows from the commitment; the warnings are
    the ones `verify` lists, in its order: the unsigned entropy, the GM's typed and seeded dice
    and the hidden typed ones, alice's roll undone by the GM, the hidden roll never revealed."""
    check_page(alice, server, ZION, 1)
    assert [] == alice.errors
    expected = dict.fromkeys([*played.public, *played.shown], "verified")
    assert expected | {played.never: "hidden"} == statuses(alice)
    assert "verified" == alice.get_attribute("#dice-summary", "data-status")
    assert "verified" == alice.get_attribute("p.seed", "data-status")
    assert "verified" == alice.get_attribute("p.counters", "data-status")
    entropy = alice.inner_text("p.entropy")
    assert "alice hello (signed, counted)" in entropy
    assert "carol mine (not counted)" in entropy
    listed, checks = audited(played.db, ZION, 1)
    assert listed == warnings(alice)
    assert [
        ("unsigned", 7),
        ("uncommitted", played.hidden_typed),
        ("uncommitted", played.typed),
        ("uncommitted", played.seeded),
        ("undone", played.undone),
        ("hidden", played.never),
    ] == listed
    assert () == checks[0].problems
    text = alice.inner_text("#dice-warnings")
    assert (
        f"ruling {played.undone} (by alice): its committed dice were set aside, undone by {GM}"
        in text
    )
    assert f"ruling {played.typed} (dice, by {GM}): its dice are physical" in text
    assert f"ruling {played.seeded} (dice, by {GM}): its dice are digital-seeded" in text
    assert f"ruling {played.never} (by {GM}): its hidden committed dice were never revealed" in text
    assert (
        alice.locator("#dice-warnings").bounding_box()["y"]
        < alice.locator("#dice-check").bounding_box()["y"]
    )


def test_past_the_limit_the_page_counts_as_verify_counts(browser: Any, server: Server) -> None:
    """A session of more typed rolls than ``LISTED``: the page lists the first ``LISTED`` one
    by one and counts the rest in one line naming the first and last, as `verify` does."""
    page = sign_in(browser, server, TYPIST, "alice")
    try:
        check_page(page, server, TYPIST, 1)
        listed, checks = audited(server.db, TYPIST, 1)
        assert listed == warnings(page)
        assert LISTED + 1 == sum(kind == "uncommitted" for kind, _ in listed)
        summary = checks[0].warnings[-1]
        assert summary.startswith("and 3 more rulings of session 1 whose dice are not drawn")
        assert summary in page.inner_text("#dice-warnings")
    finally:
        page.context.close()


def test_on_a_phone_the_rolls_stack_and_no_name_is_broken(alice: Any, server: Server) -> None:
    """At 390 px the page is no wider than the phone, it has the table's link bar, and every
    roll's cells stack under their columns' names: each name (who rolled) stands on one line,
    never broken mid-word ("Ro sa")."""
    alice.set_viewport_size({"width": 390, "height": 844})
    check_page(alice, server, ZION, 1)
    assert alice.evaluate("document.documentElement.scrollWidth") <= 390
    assert "Check the dice" in alice.inner_text("nav.bar [aria-current=page]")
    lines = alice.eval_on_selector_all(
        "table.rolls td[data-label=by]",
        """cells => cells.map(cell => {
            const words = document.createRange();
            words.selectNodeContents(cell);
            const tops = new Set([...words.getClientRects()].map(r => Math.round(r.top)));
            return [cell.textContent, tops.size];
        })""",
    )
    assert {GM, "alice", "bob"} <= {name for name, _ in lines}
    assert [] == [(name, count) for name, count in lines if count != 1]


def test_a_session_started_again_and_ended_without_a_roll_is_listed(
    alice: Any, server: Server, played: Played
) -> None:
    """Session 2: started again after alice's entropy, then ended before any committed roll:
    listed as `verify` lists it."""
    check_page(alice, server, ZION, 2)
    listed, _ = audited(played.db, ZION, 2)
    assert [("restarted", None), ("ended", None)] == listed
    assert listed == warnings(alice)


def test_a_protocol_1_session_verifies_as_before(
    server: Server, browser: Any, played: Played
) -> None:
    """Oldtown's session, as older versions wrote it (one counter, entropy given and added,
    unsigned): every roll alice reads follows from the seed, the hidden one is a gap, the undone
    one is listed as `verify` lists it."""
    page = sign_in(browser, server, OLDTOWN, "alice")
    try:
        check_page(page, server, OLDTOWN, 1)
        assert dict.fromkeys(played.old_rolls, "verified") | {
            played.old_rolls[0] + 1: "hidden"
        } == statuses(page)
        assert "verified" == page.get_attribute("#dice-summary", "data-status")
        assert 1 == page.locator("tr.gap").count()
        assert "protocol 1" in page.inner_text("p.seed")
        listed, checks = audited(played.db, OLDTOWN, 1)
        assert 1 == checks[0].protocol
        assert () == checks[0].problems
        assert [("undone", played.old_undone)] == listed == warnings(page)
    finally:
        page.context.close()


def test_a_running_session_waits_for_its_reveal(alice: Any, server: Server) -> None:
    """Session 3 is running: its seed is secret, so its roll waits for the reveal."""
    check_page(alice, server, ZION, 3)
    assert "waiting" == alice.get_attribute("#dice-summary", "data-status")
    assert ["waiting"] == list(statuses(alice).values())


def test_nothing_of_a_hidden_roll_never_revealed_reaches_the_page(
    alice: Any, server: Server, played: Played
) -> None:
    """The page alice is served, and the page once her browser checked it, hold no key of the
    hidden roll never revealed (nor the hidden seed), no die of it, none of its words; the keys
    of the revealed ones are there."""
    url = f"{server.base}/campaigns/{ZION}/dice-check?session=1"
    response = alice.context.request.get(url)
    served = response.text()
    assert "script-src 'self';" in response.headers["content-security-policy"]  # none inline
    assert all(s.get("src") or s.get("type") == "application/json" for s in scripts(served))
    check_page(alice, server, ZION, 1)
    shown = alice.content()
    never = leaf_key(played.hidden_seed, 2)
    data = page_data(played.db, ZION, 1, "alice")
    counted = [
        (s["by"], s["words"], s["signature"])
        for s in data["steps"]
        if s["step"] == "entropy" and s["signature"]
    ]
    secrets = {
        "the hidden seed": played.hidden_seed.hex(),
        "its leaf key": never.hex(),
        "its key": key(never, mixed_signed(counted)).hex(),
        "its words": HIDDEN_WHY,
        "a hidden typed roll's words": HIDDEN_TYPED_WHY,
    }
    for html in (served, shown):
        assert [] == [what for what, text in secrets.items() if text in html]
        # its die and its size, not as hex that happens to hold them (a signature, a key)
        assert not re.search(f"(?<![0-9a-f])1?d?{HIDDEN_SIDES}(?![0-9a-f])", html)
        assert leaf_key(played.hidden_seed, 0).hex() in html  # a revealed one's key is
        assert leaf_key(played.hidden_seed, 1).hex() in html  # revealed after the session


def scripts(html: str) -> list[dict[str, str]]:
    """The attributes of each <script> element of a page."""
    return [dict(re.findall(r'(\w+)="([^"]*)"', a)) for a in re.findall(r"<script\b([^>]*)>", html)]


def test_the_gm_reads_their_hidden_roll_and_has_no_key_box(
    server: Server, browser: Any, played: Played
) -> None:
    """The GM reads the hidden roll never revealed: still listed; a GM makes no player key."""
    page = sign_in(browser, server, ZION, GM)
    try:
        check_page(page, server, ZION, 1)
        assert "hidden" == statuses(page)[played.never]
        assert ("hidden", played.never) in warnings(page)
        assert page.locator("#my-key").is_hidden()
    finally:
        page.context.close()


def tamper(
    db: str, changes: dict[int, Callable[[dict[str, Any]], None]], topic: str = MADE
) -> None:
    """Rewrite Zion's event of ``topic`` about each of these rulings (its header, or what
    else names the ruling) in the store."""
    with Engine(db) as engine:
        stream = engine.campaign(ZION).id
    with sqlite3.connect(db) as store:
        rows = store.execute(
            "SELECT originator_id, originator_version, state FROM stored_events "
            "WHERE topic=? AND originator_id=?",
            (topic, stream.hex),
        ).fetchall()
        for stream, version, state in rows:
            body = json.loads(state)
            change = changes.get(body["event"].get("number", body["event"].get("ruling")))
            if change is not None:
                change(body["event"])
                update = (
                    "UPDATE stored_events SET state=? "
                    "WHERE originator_id=? AND originator_version=?"
                )
                store.execute(update, (canonical_json(body), stream, version))


def another_face(made: dict[str, Any]) -> None:
    die = made["dice"][0]
    die["face"] = die["face"] % die["sides"] + 1


def test_a_tampered_roll_is_not_verified(played: Played, browser: Any, tmp_path: Path) -> None:
    """Rewritten in the store: a face of a public roll, one of a revealed hidden roll, the key
    published for another hidden roll, the lane of bob's roll (alice's counters named instead).
    Each is marked as not matching, as `verify` finds it; the others still hold."""
    db = str(tmp_path / "tampered.db")
    for suffix in ("", "-wal", "-shm"):  # the store, the dice secrets and sign-ins with it
        if Path(played.db + suffix).exists():
            shutil.copy(played.db + suffix, db + suffix)
    public = min(r for r, e in played.public.items() if e == "2d6")
    bobs = next(r for r, e in played.public.items() if e == "3d10")
    tamper(
        db,
        {
            public: another_face,
            played.shown[0]: another_face,
            bobs: lambda m: m.update(lane="alice"),
        },
    )
    later = played.shown[1]
    tamper(db, {later: lambda e: e.update(leaf_key="00" * 32)}, "domain.events:HiddenDiceRevealed")
    with Engine(db) as engine:
        problems = next(d for d in engine.verify(ZION).dice if d.session == 1).problems
    wrong = {int(n) for n in re.findall(r"^ruling (\d+):", "\n".join(problems), re.M)}
    assert {public, played.shown[0], later, bobs} <= wrong  # and alice's rolls after bob's
    with serving_in_thread(db) as base:
        page = sign_in(browser, Server(base, db), ZION, "alice")
        try:
            check_page(page, Server(base, db), ZION, 1)
            expected = dict.fromkeys([*played.public, *played.shown], "verified")
            expected |= dict.fromkeys(wrong, "mismatch") | {played.never: "hidden"}
            assert expected == statuses(page)
            assert "mismatch" == page.get_attribute("#dice-summary", "data-status")
            assert "do not follow from the seed" in page.inner_text(f"tr[data-ruling='{public}']")
            shown = page.inner_text(f"tr[data-ruling='{played.shown[0]}']")
            assert "do not follow from its revealed key" in shown
            assert "made by bob but drew alice's" in page.inner_text(f"tr[data-ruling='{bobs}']")
            later_row = page.inner_text(f"tr[data-ruling='{later}']")
            assert "its revealed hidden key was not committed" in later_row
        finally:
            page.context.close()


# --- The script against engine.dice.committed ----------------------------------------------------


def vectors() -> dict[str, Any]:
    """Fixed inputs and what engine.dice.committed and domain.signatures make of them."""
    secrets = [bytes(range(32)), b"\xff" * 32, bytes.fromhex("5489a413bbd397c5d31fa65ee592af5a")]
    added = [[], [["alice", "hello"]], [["alice", "hello"], ["bob", ODD_WORDS]]]
    sides = [6, 6, 20, 100, 129, 200, 255, 256, 1, 2, 3, 257, 300, 999, 1000]
    blocks = [
        (b"\xff" * 31 + b"\x80", 129),
        (b"\xff" * 32, 129),
        (b"\xc8" * 32, 100),
        (b"\x07", 6),
        (b"\xff\xfe" * 15 + b"\x00\x05", 1000),  # 65534 is in the tail of a d1000
        (b"\xff" * 32, 1000),
        (b"\xff\xff\x05", 300),  # an odd block: its last value is one byte
    ]
    lanes = ["", "alice", "Mörpheus \U0001f3b2"]
    cases = []
    for secret in secrets:
        for given in ("", "older words"):
            for entropy in added:
                mix = mixed(given, [(who, words) for who, words in entropy])
                derived = key(secret, mix)
                runs = [
                    [start, name, *map(_listed, replay(derived, start, tuple(sides), lane(name)))]
                    for start in (0, 2**40 + 3)
                    for name in lanes
                ]
                cases.append(
                    {
                        "secret": secret.hex(),
                        "commitment": commitment(secret),
                        "given": given,
                        "added": entropy,
                        "mixed": mix,
                        "key": derived.hex(),
                        "runs": runs,
                    }
                )
    faces = [[block.hex(), n, face(block, n)] for block, n in blocks]
    return {
        "cases": cases,
        "sides": sides,
        "faces": faces,
        "signed": signed_vectors(),
        "trees": tree_vectors(),
        "strip": strip_vectors(),
    }


def _listed(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def signed_vectors() -> list[dict[str, Any]]:
    """mixed_signed over orders Python and JavaScript sort differently (a character past U+FFFF
    against one just below it), and Ed25519 signatures that hold and do not."""
    private = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    public = public_hex(private)
    committed = hashlib.sha256(b"a session").hexdigest()
    found = []
    for counted in (
        [],
        [["bob", "b", "00"], ["alice", "a", "11"]],
        [["\U0001f3b2", "x", "s"], ["\uffff", "y", "s"], ["\ufb01", "z", "s"]],
        [["alice", "\U0001f3b2", "s"], ["alice", "\uffff", "s"], ["alice", ODD_WORDS, "s"]],
    ):
        message = entropy_message(committed, "alice", ODD_WORDS)
        signature = private.sign(message).hex()
        found.append(
            {
                "counted": counted,
                "mixed": mixed_signed([tuple(c) for c in counted]),
                "committed": committed,
                "words": ODD_WORDS,
                "message": message.hex(),
                "checks": [
                    [k, m.hex(), s, signature_holds(k, m, s)]
                    for k, m, s in (
                        (public, message, signature),
                        (public, message, signature.upper()),
                        (public, message + b" ", signature),
                        (public.upper(), message, signature),
                        ("ab" * 32, message, signature),
                        (public, message, signature[:-2]),
                        (public, message, "zz" * 64),
                    )
                ],
            }
        )
    return found


def tree_vectors() -> list[dict[str, Any]]:
    """Merkle paths of a few leaves of two hidden seeds, and of one leaf with a wrong path."""
    found = []
    for hidden in (b"\x01" * 32, bytes(range(32, 64))):
        root = hidden_root(hidden)
        for index in (0, 1, 2, 511, 1022, 1023):
            leaf = leaf_key(hidden, index)
            proof = list(hidden_proof(hidden, index))
            found.append({"leaf": leaf.hex(), "index": index, "proof": proof, "root": root})
            wrong = [proof[1], proof[0], *proof[2:]]
            found.append(
                {
                    "leaf": leaf.hex(),
                    "index": index,
                    "proof": wrong,
                    "root": root_from(leaf, index, wrong),
                }
            )
        secret = bytes(range(32))
        found.append({"seed": secret.hex(), "root": root, "commitment": commitment(secret, root)})
    return found


def strip_vectors() -> list[list[str]]:
    """str.strip() around every character Python or JavaScript call whitespace."""
    spaces = [chr(c) for c in range(0x3001) if chr(c).isspace()] + ["\ufeff", "\u200b"]
    return [[f"{c}{c}a {c} b{c}", f"{c}{c}a {c} b{c}".strip()] for c in spaces]


COMPUTE = """async ({cases, sides, faces, signed, trees, strip}) => {
  const d = diceCheck;
  const out = [];
  for (const c of cases) {
    const secret = d.fromHex(c.secret);
    const mix = await d.mixed(c.given, c.added);
    const derived = await d.key(secret, mix);
    const runs = [];
    for (const [start, name] of c.runs) {
      const got = await d.replay(derived, start, sides, d.utf8.encode(name));
      runs.push([start, name, got.faces, got.draws]);
    }
    out.push({secret: c.secret, commitment: await d.commitment(secret), given: c.given,
              added: c.added, mixed: mix, key: d.hex(derived), runs});
  }
  const found = faces.map(([block, n]) => [block, n, d.face(d.fromHex(block), n)]);
  const signs = [];
  for (const s of signed) {
    const checks = [];
    for (const [k, m, sig] of s.checks) {
      checks.push([k, m, sig, await d.signatureHolds(k, d.fromHex(m), sig)]);
    }
    const message = d.hex(d.entropyMessage(s.committed, "alice", s.words));
    signs.push({counted: s.counted, mixed: await d.mixedSigned(s.counted),
                committed: s.committed, words: s.words, message, checks});
  }
  const grown = [];
  for (const t of trees) {
    if (t.seed) {
      grown.push({seed: t.seed, root: t.root,
                  commitment: await d.commitment(d.fromHex(t.seed), t.root)});
    } else {
      grown.push({leaf: t.leaf, index: t.index, proof: t.proof,
                  root: await d.rootFrom(d.fromHex(t.leaf), t.index, t.proof)});
    }
  }
  const stripped = strip.map(([text]) => [text, d.pyStrip(text)]);
  return {cases: out, sides, faces: found, signed: signs, trees: grown, strip: stripped};
}"""


def test_the_script_computes_what_committed_dice_computes(
    alice: Any, server: Server, played: Played
) -> None:
    """On fixed seeds, entropy (odd characters too), lanes (non-ASCII names), counters (past
    2**32) and dice of up to 1,000 sides, the script's commitment, mixed entropy (protocol 1's,
    and protocol 2's sorted by code point), key, faces and counters used are
    engine.dice.committed's; so are its Merkle roots (a wrong path too), its signature checks
    (domain.signatures') and its str.strip()."""
    check_page(alice, server, ZION, 1)
    expected = vectors()
    assert expected == alice.evaluate(COMPUTE, json.loads(json.dumps(expected)))


# --- The player's key, in the browser ------------------------------------------------------------


def test_a_player_makes_a_key_signs_entropy_and_sees_it_counted(
    server: Server, browser: Any, played: Played
) -> None:
    """trinity, in her browser: makes her key (the private half not extractable, kept in the
    browser; only the public half is sent), registers it on her seat, signs her entropy; the GM
    and she roll, the session ends: every roll verifies and her entropy is counted (as `verify`
    says too). The next session she adds none: NOT included."""
    page = sign_in(browser, server, SHIP, "trinity")
    sent: list[Any] = []
    page.on(
        "request",
        lambda r: (
            sent.append((r.url, r.post_data)) if r.method == "POST" and "/api/" in r.url else None
        ),
    )
    try:
        check_page(page, server, SHIP, 1)
        assert "none" == page.get_attribute("#key-status", "data-status")
        page.click("#make-key")
        page.wait_for_selector("#key-status[data-status='registered']")
        public = page.inner_text("#key-status code")
        with Engine(server.db) as engine:
            seat = engine.campaign(SHIP).member("trinity")
            assert seat is not None
            assert public == seat.key
        held = page.evaluate(
            """async () => {
              const data = JSON.parse(document.getElementById("dice-data").textContent);
              const k = await diceCheck.heldKey(data);
              return [k.public, k.privateKey.extractable, k.privateKey.type,
                      k.privateKey.algorithm.name, k.privateKey.usages];
            }"""
        )
        assert [public, False, "private", "Ed25519", ["sign"]] == held

        page.fill("#entropy-words", "  red pill \u3000")
        page.click("#entropy-form button[type=submit]")
        page.wait_for_selector("#your-entropy[data-status='counted']")
        assert "red pill" in page.inner_text("#your-entropy")
        with Engine(server.db) as engine:
            committed = engine.campaign(SHIP).commitment or ""
            added = [
                r.event
                for e in engine.log(SHIP, session=1, audience=GMS)
                for r in e.events
                if isinstance(r.event, EntropyAdded)
            ]
            assert ["red pill"] == [a.words for a in added]
            message = entropy_message(committed, "trinity", "red pill")
            assert signature_holds(public, message, added[0].signature)
            engine.execute(SHIP, RollFreely(expression="2d6", why="mine"), actor="trinity")
            engine.execute(SHIP, RollFreely(expression="1d300", why="the GM's"))
            engine.execute(SHIP, EndSession())
            check = next(d for d in engine.verify(SHIP).dice if d.session == 1)
        assert (("trinity", "red pill", public),) == check.counted
        bodies = [json.loads(body) for _, body in sent]
        assert [
            {"params": {"member": "trinity", "key": public}},
            {"params": {"words": "red pill", "signature": added[0].signature}},
        ] == bodies

        check_page(page, server, SHIP, 1)
        assert "verified" == page.get_attribute("#dice-summary", "data-status")
        assert ["verified", "verified"] == list(statuses(page).values())
        assert "counted" == page.get_attribute("#your-entropy", "data-status")
        assert 0 == page.locator("#entropy-form").count()  # the window closed with the roll
        assert [] == warnings(page)

        with Engine(server.db) as engine:
            engine.execute(SHIP, StartSession())
            close_entropy(engine, SHIP)  # trinity adds no words this time
            engine.execute(SHIP, RollFreely(expression="1d6", why="alone"))
            engine.execute(SHIP, EndSession())
        check_page(page, server, SHIP, 2)
        assert "missing" == page.get_attribute("#your-entropy", "data-status")
        assert "NOT included" in page.inner_text("#your-entropy")
        assert [("no-signed", None)] == warnings(page)
        assert [] == page.errors
    finally:
        page.context.close()
