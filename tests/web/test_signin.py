"""Sign-in: one-time invites, sessions in an HttpOnly SameSite=Strict cookie, bearer tokens,
secrets kept only as their SHA-256, CSRF on cookie-signed writes, revocation with the seat."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from freezegun import freeze_time
from litestar.testing import TestClient

from cli.main import campaign
from domain.errors import NotAllowed, NotAMember
from domain.events import Role
from domain.lifecycle import AddNote
from domain.table import RemoveMember
from engine import Engine, InvalidServerAddress, NotSignedIn, ServerAddress
from tests.stores import engine_on
from tests.web.conftest import API, CAMPAIGN, Table, build_table
from web import create_app
from web.auth import MOST_HELD


def invite(table: Table, member: str = "alice") -> str:
    with Engine(table.db) as engine:
        return engine.invite(CAMPAIGN, member)


def test_an_invite_signs_in_once_with_a_strict_http_only_cookie(
    client: TestClient[Any], table: Table
) -> None:
    """Opening the link spends nothing (a chat's link preview must not); its button does, once:
    the session cookie is HttpOnly, SameSite=Strict, Path=/, and the page then knows alice."""
    secret = invite(table)
    assert 200 == client.get(f"/join/{secret}").status_code
    assert 200 == client.get(f"/join/{secret}").status_code  # still unspent
    joined = client.post(f"/join/{secret}", follow_redirects=False)
    assert 303 == joined.status_code
    assert f"/campaigns/{CAMPAIGN}" == joined.headers["location"]
    cookie = joined.headers["set-cookie"]
    assert "campaign_session=" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    assert "Path=/" in cookie
    me = client.get("/api/me").json()
    seat = {"campaign": CAMPAIGN, "member": "alice", "role": "player"}
    assert seat | {"via": "session", "campaigns": [seat]} == me
    assert "alice" in client.get(f"/campaigns/{CAMPAIGN}").text
    with TestClient(client.app) as other:
        again = other.post(f"/join/{secret}", follow_redirects=False)
        assert 401 == again.status_code
        assert "NOT_SIGNED_IN" == again.json()["error"]["code"]


def test_secrets_are_kept_only_as_their_hashes(client: TestClient[Any], table: Table) -> None:
    """The access table holds SHA-256 digests, never an invite, session or token itself."""
    secret = invite(table)
    client.post(f"/join/{secret}", follow_redirects=False)
    session = client.cookies["campaign_session"]
    plain = [secret, session, *table.tokens.values()]
    with sqlite3.connect(table.db) as connection:
        rows = connection.execute("SELECT * FROM access_secrets").fetchall()
    dump = repr(rows)
    assert [] == [s for s in plain if s in dump]
    digests = {row[0] for row in rows}
    assert hashlib.sha256(session.encode()).hexdigest() in digests
    assert all(hashlib.sha256(t.encode()).hexdigest() in digests for t in table.tokens.values())


def test_cookie_signed_writes_need_the_csrf_token(client: TestClient[Any], table: Table) -> None:
    """A write signed in by cookie without the CSRF header is refused CSRF_FAILED (403) and
    appends nothing; with the csrftoken cookie's value in x-csrftoken it is recorded; a bearer
    token's write needs none."""
    client.post(f"/join/{invite(table)}", follow_redirects=False)
    note = {"params": {"text": "Tea?"}}
    before = table.events()
    refused = client.post(API + "/commands/note", json=note)
    assert 403 == refused.status_code
    assert "CSRF_FAILED" == refused.json()["error"]["code"]
    assert before == table.events()
    client.get(f"/campaigns/{CAMPAIGN}")  # a page sets the csrftoken cookie, as a browser gets it
    token = client.cookies["csrftoken"]
    assert (
        201
        == client.post(
            API + "/commands/note", json=note, headers={"x-csrftoken": token}
        ).status_code
    )
    with TestClient(client.app) as bot:
        assert (
            201
            == bot.post(
                API + "/commands/note", json=note, headers=table.headers("player")
            ).status_code
        )


def test_removing_a_member_revokes_their_sign_ins(client: TestClient[Any], table: Table) -> None:
    """Once bob is unseated, his token signs nobody in (401)."""
    assert 200 == client.get("/api/me", headers=table.headers("other")).status_code
    removed = client.post(
        API + "/commands/member/remove",
        json={"params": {"member": "bob"}},
        headers=table.headers("gm"),
    )
    assert 201 == removed.status_code
    assert 401 == client.get("/api/me", headers=table.headers("other")).status_code


def test_only_the_gm_invites_and_only_members(table: Table) -> None:
    """A player cannot invite or mint tokens (NOT_ALLOWED); nobody invites a stranger
    (NOT_A_MEMBER); a made-up secret signs nobody in."""
    with Engine(table.db) as engine:
        with pytest.raises(NotAllowed):
            engine.invite(CAMPAIGN, "bob", actor="alice")
        with pytest.raises(NotAllowed):
            engine.token(CAMPAIGN, "bob", actor="alice")
        with pytest.raises(NotAMember):
            engine.invite(CAMPAIGN, "mallory")
        with pytest.raises(NotSignedIn):
            engine.sign_in("not-a-secret")
        assert engine.who("not-a-secret") is None


def _credential(engine: Engine, secret: str) -> str:
    signed = engine.who(secret)
    assert signed is not None
    return signed.credential


def test_only_the_credentials_that_still_sign_in_are_held(table: Table) -> None:
    """A revoked token, a signed-out session, an expired one and the tokens of a removed member
    no longer sign in; the GM's token and a live session still do; a made-up name never did."""
    with Engine(table.db) as engine:
        gm, alice, bob, olly = (
            _credential(engine, table.tokens[role])
            for role in ("gm", "player", "other", "observer")
        )
        kept = engine.sign_in(engine.invite(CAMPAIGN, "alice"))
        gone = engine.sign_in(engine.invite(CAMPAIGN, "alice"))
        session, left = _credential(engine, kept.session), _credential(engine, gone.session)
        asked = {gm, alice, bob, olly, session, left, "0" * 64}
        assert asked - {"0" * 64} == engine.still_signed_in(asked)
        engine.revoke(CAMPAIGN, "olly")
        engine.sign_out(gone.session)
        engine.execute(CAMPAIGN, RemoveMember(member="bob"))
        assert {gm, alice, session} == engine.still_signed_in(asked)
        assert kept.expires is not None
        with freeze_time(kept.expires + timedelta(seconds=1)):
            assert {gm, alice} == engine.still_signed_in(asked)
        assert set() == engine.still_signed_in(())


def test_the_cli_prints_a_link_and_a_token(table: Table) -> None:
    """`member invite NAME --url BASE` prints BASE/join/SECRET (naming the campaign on
    stderr), which signs NAME in; `member token NAME` prints a token that does."""
    runner = CliRunner()
    base = ["--db", table.db, "--campaign", CAMPAIGN]
    link = runner.invoke(
        campaign, [*base, "member", "invite", "alice", "--url", "https://t.example/"]
    )
    assert 0 == link.exit_code, link.output
    assert link.stdout.startswith("https://t.example/join/")
    assert f"alice's sign-in link to {CAMPAIGN} (once, for a week):\n" == link.stderr
    token = runner.invoke(campaign, [*base, "member", "token", "olly"]).output.strip()
    refused = runner.invoke(campaign, [*base, "--as", "alice", "member", "token", "bob"])
    assert 2 == refused.exit_code
    with Engine(table.db) as engine:
        assert "alice" == engine.sign_in(link.stdout.strip().rsplit("/", 1)[1]).member
        signed = engine.who(token)
        assert signed is not None
        assert "olly" == signed.member


@pytest.mark.postgres
def test_sign_ins_are_kept_on_postgresql_too() -> None:
    """The access table beside a PostgreSQL store: an invite signs in once, a token until its
    member is removed (a server's check of its streams' credentials then finds neither), and
    the servers of one database share one CSRF key."""
    from domain.events import Role
    from tests.postgres import fresh_schema

    with fresh_schema() as url, Engine(url) as engine:
        engine.create_campaign(CAMPAIGN, "sims", gm="Morpheus", members={"bob": Role.PLAYER})
        signed = engine.sign_in(engine.invite(CAMPAIGN, "bob"))
        with pytest.raises(NotSignedIn):
            engine.sign_in(signed.session)
        token = engine.token(CAMPAIGN, "bob")
        assert "bob" == getattr(engine.who(signed.session), "member", None)
        with Engine(url) as other:
            assert other.server_key("csrf") == engine.server_key("csrf")
        held = {_credential(engine, token), _credential(engine, signed.session)}
        assert held == engine.still_signed_in({*held, "0" * 64})
        engine.execute(CAMPAIGN, RemoveMember(member="bob"))
        assert engine.who(token) is None
        assert engine.who(signed.session) is None
        assert set() == engine.still_signed_in(held)


# --- One browser, every campaign --------------------------------------------------------------

NEON = "Neon Alley"
NEON_PAGE, NEON_API = "/campaigns/Neon%20Alley", "/api/campaigns/Neon%20Alley"
# What Chromium asks for when it opens a page.
BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
PAGES = ("", "/characters/Neo", "/recap?session=1", "/dice", "/dice-check")


def with_neon(db: str) -> str:
    """A second campaign in the store: Neon Alley (Sprawl Goons), GM Rosa, alice and ana."""
    with Engine(db) as engine:
        members = {"alice": Role.PLAYER, "ana": Role.PLAYER}
        engine.create_campaign(NEON, "sprawl-goons", gm="Rosa", members=members)
    return db


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def two(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A store of two campaigns, Zion (the server tests' table) and Neon Alley: a SQLite file
    or a schema on the test PostgreSQL server."""
    if request.param == "sqlite":
        yield with_neon(build_table(str(tmp_path / "two.db")).db)
        return
    from tests.postgres import fresh_schema

    with fresh_schema() as url:
        yield with_neon(build_table(url).db)


def _csrf(html: str) -> dict[str, str]:
    """A page's form's hidden CSRF field, as the browser posts it."""
    found = re.search(r'name="_csrf_token" value="([^"]+)"', html)
    return {"_csrf_token": found.group(1)} if found else {}


def join(client: TestClient[Any], db: str, campaign: str = "", member: str = "", **at: str) -> Any:
    """Open an invite link of ``member`` of ``campaign`` (or the link ``at["secret"]``) and
    press Sign in, as a browser does: the answer to the button's form."""
    secret = at.get("secret", "")
    if not secret:
        with Engine(db) as engine:
            secret = engine.invite(campaign, member)
    page = client.get(f"/join/{secret}", headers=BROWSER)
    return client.post(
        f"/join/{secret}", data=_csrf(page.text), headers=BROWSER, follow_redirects=False
    )


def campaigns_of(client: TestClient[Any]) -> list[tuple[str, str]]:
    """The campaigns ``/api/me`` says the browser signs in to, with its member in each."""
    return [(c["campaign"], c["member"]) for c in client.get("/api/me").json()["campaigns"]]


def test_one_browser_signs_in_to_two_campaigns(two: str) -> None:
    """A second campaign's link adds it: ``/`` lists both, each linking to its table; each
    table and the API read and write as that campaign's member, the writes with the CSRF
    token alone."""
    with TestClient(create_app(two)) as client:
        assert f"/campaigns/{CAMPAIGN}" == join(client, two, CAMPAIGN, "alice").headers["location"]
        assert NEON_PAGE == join(client, two, NEON, "ana").headers["location"]
        home = client.get("/", headers=BROWSER)
        assert (200, "text/html") == (home.status_code, home.headers["content-type"][:9])
        assert "<h1>Your campaigns</h1>" in home.text
        for href, name, member in (
            (NEON_PAGE, NEON, "ana"),
            (f"/campaigns/{CAMPAIGN}", CAMPAIGN, "alice"),
        ):
            assert f'<a href="{href}">{name}</a>' in home.text
            assert f"as <strong>{member}</strong> (player)" in home.text
        assert home.text.index(NEON) < home.text.index(f">{CAMPAIGN}<")  # the newest first
        assert "alice (player)" in client.get(f"/campaigns/{CAMPAIGN}").text
        assert "ana (player)" in client.get(NEON_PAGE).text
        assert [(NEON, "ana"), (CAMPAIGN, "alice")] == campaigns_of(client)
        note = {"params": {"text": "Tea?"}}
        token = {"x-csrftoken": client.cookies["csrftoken"]}
        for api, member in ((API, "alice"), (NEON_API, "ana")):
            assert 403 == client.post(api + "/commands/note", json=note).status_code
            written = client.post(api + "/commands/note", json=note, headers=token)
            assert (201, member) == (written.status_code, written.json()["actor"])


def test_a_link_of_a_campaign_the_browser_holds_replaces_its_seat_there(table: Table) -> None:
    """Signed in to Zion as alice, the browser opens bob's link of Zion: it is bob there now
    (one seat per campaign), and alice's session in this browser is ended, not left behind."""
    with TestClient(create_app(with_neon(table.db))) as client:
        join(client, table.db, NEON, "ana")
        join(client, table.db, CAMPAIGN, "alice")
        alices = client.cookies["campaign_session"].split(".")[0]
        page = client.get(f"/join/{invite(table, 'bob')}", headers=BROWSER)
        assert "signed in to Zion as alice now: it will be bob there instead" in page.text
        join(client, table.db, CAMPAIGN, "bob")
        assert [(CAMPAIGN, "bob"), (NEON, "ana")] == campaigns_of(client)
    with Engine(table.db) as engine:
        assert engine.who(alices) is None


def test_signing_out_of_one_campaign_keeps_the_others(two: str) -> None:
    """`sign out` on a campaign's page ends that campaign's session alone (its pages then say
    how to sign in there again, listing the other); the front page's button ends them all and
    its plain form comes back to it; neither is done without the CSRF token."""
    with TestClient(create_app(two)) as client:
        join(client, two, CAMPAIGN, "alice")
        join(client, two, NEON, "ana")
        page = client.get(f"/campaigns/{CAMPAIGN}", headers=BROWSER).text
        action = f'action="/api/sign-out?campaign={CAMPAIGN}"'
        assert action in page
        assert 403 == client.post(f"/api/sign-out?campaign={CAMPAIGN}").status_code
        assert 2 == len(campaigns_of(client))
        out = client.post(
            f"/api/sign-out?campaign={CAMPAIGN}",
            headers={"x-csrftoken": client.cookies["csrftoken"]},
        )
        assert 204 == out.status_code
        assert [(NEON, "ana")] == campaigns_of(client)
        there = client.get(f"/campaigns/{CAMPAIGN}", headers=BROWSER)
        assert (403, "text/html") == (there.status_code, there.headers["content-type"][:9])
        assert f'<a href="{NEON_PAGE}">{NEON}</a>' in there.text
        assert 200 == client.get(NEON_PAGE).status_code
        home = client.get("/", headers=BROWSER).text
        assert "Sign out of every campaign" in home
        gone = client.post(
            "/api/sign-out", data=_csrf(home), headers=BROWSER, follow_redirects=False
        )
        assert (303, "/") == (gone.status_code, gone.headers["location"])
        assert "campaign_session" not in client.cookies
        assert 401 == client.get("/api/me").status_code
        assert "this browser is not signed in" in client.get("/", headers=BROWSER).text


def test_a_browser_holds_twenty_campaigns_the_oldest_giving_way(tmp_path: Path) -> None:
    """A cookie holds up to 20 sessions (its size stays far under a browser's 4 KB): the 21st
    campaign's link signs the browser out of the one it signed in to first."""
    db = str(tmp_path / "many.db")
    names = [f"Table {n:02}" for n in range(MOST_HELD + 1)]
    first = ""
    with Engine(db, create=True) as engine:
        for name in names:
            engine.create_campaign(name, "sims", gm="Rosa", members={"ana": Role.PLAYER})
    with TestClient(create_app(db)) as client:
        for name in names:
            assert 303 == join(client, db, name, "ana").status_code
            first = first if name != names[0] else client.cookies["campaign_session"]
        assert names[:0:-1] == [campaign for campaign, _ in campaigns_of(client)]
        assert MOST_HELD == len(client.cookies["campaign_session"].split("."))
        assert len(client.cookies["campaign_session"]) < 1000
    with Engine(db) as engine:
        assert engine.who(first) is None


def test_the_front_page_drops_a_revoked_campaign_from_the_cookie(table: Table) -> None:
    """Revoked in Zion (the GM's `member revoke`), the browser's front page lists Neon Alley
    alone, and its cookie keeps Neon Alley's session alone."""
    with TestClient(create_app(with_neon(table.db))) as client:
        join(client, table.db, CAMPAIGN, "alice")
        join(client, table.db, NEON, "alice")
        with Engine(table.db) as engine:
            engine.revoke(CAMPAIGN, "alice")
        home = client.get("/", headers=BROWSER)
        assert f'<a href="{NEON_PAGE}">{NEON}</a>' in home.text
        assert f">{CAMPAIGN}</a>" not in home.text
        assert 1 == len(client.cookies["campaign_session"].split("."))
        assert [(NEON, "alice")] == campaigns_of(client)


def test_a_page_the_browser_is_not_signed_in_for_says_the_next_step(table: Table) -> None:
    """Every page of a campaign, asked for by a browser that is not signed in there, is a page
    (never the API's JSON): 401 with no sign-in at all, 403 when signed in to another campaign
    (listed, linked); it names the campaign and says to ask its GM for a link. A program keeps
    the API's one JSON body."""
    with TestClient(create_app(with_neon(table.db))) as client:
        for path in PAGES:
            page = client.get(f"/campaigns/{CAMPAIGN}{path}", headers=BROWSER)
            assert (401, "text/html") == (page.status_code, page.headers["content-type"][:9]), path
            assert "not signed in to <strong>Zion</strong>" in page.text
            assert "ask the GM of Zion for an invite link" in page.text
        join(client, table.db, NEON, "ana")
        for path in PAGES:
            page = client.get(f"/campaigns/{CAMPAIGN}{path}", headers=BROWSER)
            assert (403, "text/html") == (page.status_code, page.headers["content-type"][:9]), path
            assert "not signed in to <strong>Zion</strong>" in page.text
            assert f'<a href="{NEON_PAGE}">{NEON}</a>' in page.text
        form = {"_do": "post", "speaker": "ooc", "text": "hi"} | _csrf(client.get("/").text)
        acted = client.post(f"/campaigns/{CAMPAIGN}/act", data=form, headers=BROWSER)
        assert (403, "text/html") == (acted.status_code, acted.headers["content-type"][:9])
        for accept in ("application/json", "*/*"):  # a program: fetch, curl, a bot
            api = client.get(API, headers={"accept": accept})
            error = api.json()["error"]
            assert (403, "SIGNED_IN_ELSEWHERE") == (api.status_code, error["code"])
            assert f"signed in to {NEON!r}, not to {CAMPAIGN!r}" in error["message"]


def test_a_spent_or_expired_link_is_a_page_with_the_next_step(table: Table) -> None:
    """A link used already (here, by this very browser), one over a week old and one whose
    member lost their seat: opening it, and pressing its button, is a page (401) saying to ask
    the GM for a new one, listing the campaigns the browser is signed in to; a program posting
    it gets the one JSON body."""
    with Engine(table.db) as engine:
        used = engine.invite(CAMPAIGN, "alice")
        with freeze_time(datetime.now(UTC) - timedelta(days=8)):
            old = engine.invite(CAMPAIGN, "bob")
        unseated = engine.invite(CAMPAIGN, "olly")
        engine.execute(CAMPAIGN, RemoveMember(member="olly"))
    with TestClient(create_app(table.db)) as client:
        assert 303 == join(client, table.db, secret=used).status_code
        form = _csrf(client.get("/").text)  # as the join page had it, opened in time
        for secret in (used, old, unseated):
            opened = client.get(f"/join/{secret}", headers=BROWSER)
            pressed = client.post(f"/join/{secret}", data=form, headers=BROWSER)
            for answer in (opened, pressed):
                assert (401, "text/html") == (
                    answer.status_code,
                    answer.headers["content-type"][:9],
                ), secret
                assert "This sign-in link no longer works" in answer.text
                assert "ask your GM for a new link" in answer.text
                assert f'<a href="/campaigns/{CAMPAIGN}">{CAMPAIGN}</a>' in answer.text
        token = {"x-csrftoken": client.cookies["csrftoken"]}
        program = client.post(f"/join/{used}", headers=token)
        assert (401, "NOT_SIGNED_IN") == (program.status_code, program.json()["error"]["code"])


def test_the_join_page_names_the_campaign_and_the_member(table: Table) -> None:
    """Opening a link (spending nothing) shows whom it signs in, to which campaign."""
    with TestClient(create_app(table.db)) as client:
        page = client.get(f"/join/{invite(table)}", headers=BROWSER)
    assert "<h1>Sign in to Zion</h1>" in page.text
    assert "to <strong>Zion</strong> (Sims: Role Playing Game (PDQ)) as <strong>alice</strong>" in (
        page.text
    )


def test_revoking_a_member_in_one_campaign_ends_only_that_campaigns_stream(tmp_path: Path) -> None:
    """One browser follows Zion's and Neon Alley's tables (one cookie, two sessions); `member
    revoke alice` in Zion ends the Zion stream within a second while the Neon Alley one still
    receives its next ruling; Zion's table is then refused, Neon Alley's still read."""
    from tests.web.servers import serving_in_thread
    from tests.web.test_revoked_streams import WITHIN, following

    db = with_neon(build_table(str(tmp_path / "two.db")).db)
    with Engine(db) as engine:
        zion = engine.sign_in(engine.invite(CAMPAIGN, "alice")).session
        neon = engine.sign_in(engine.invite(NEON, "alice")).session
        after = {name: engine.campaign(name).rulings for name in (CAMPAIGN, NEON)}
    cookie = {"cookie": f"campaign_session={neon}.{zion}"}
    with serving_in_thread(db) as base:
        with (
            following(
                f"{base}/campaigns/{CAMPAIGN}/events?after={after[CAMPAIGN]}", cookie
            ) as zions,
            following(
                f"{base}{NEON_PAGE}/events?after={after[NEON]}",
                cookie,
                lambda got: any(e.get("id") == str(after[NEON] + 1) for e in got),
            ) as neons,
            Engine(db) as engine,
        ):
            assert 2 == engine.revoke(CAMPAIGN, "alice")  # her token, this session
            revoked = time.monotonic()
            zions.join()
            assert zions.ended is not None
            assert zions.ended - revoked < WITHIN
            engine.execute(NEON, AddNote(text="The rain keeps on"))
        assert neons.ended is not None
        assert 403 == httpx.get(f"{base}/campaigns/{CAMPAIGN}", headers=cookie).status_code
        assert 200 == httpx.get(f"{base}{NEON_PAGE}", headers=cookie).status_code


# --- Where the server is reached --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_servers_address_is_kept_in_the_store(kind: str, tmp_path: Path) -> None:
    """Where a server listened is kept until a public address is given; the public one then
    stands whatever later servers listen on, until another replaces it; every engine of the
    store reads it."""
    with engine_on(kind, tmp_path) as engine:
        assert engine.server_address() is None
        engine.keep_server_address("http://127.0.0.1:8123/", public=False)
        assert ServerAddress(url="http://127.0.0.1:8123", public=False) == engine.server_address()
        engine.keep_server_address("https://table.example.org", public=True)
        engine.keep_server_address("http://127.0.0.1:9000", public=False)
        public = ServerAddress(url="https://table.example.org", public=True)
        assert public == engine.server_address()
        with Engine(engine.db) as other:
            assert public == other.server_address()
        engine.keep_server_address("https://play.example.org:8443/", public=True)
        moved = ServerAddress(url="https://play.example.org:8443", public=True)
        assert moved == engine.server_address()
        with pytest.raises(InvalidServerAddress):
            engine.keep_server_address("play.example.org", public=True)
        assert moved == engine.server_address()


@pytest.mark.parametrize(
    "url",
    [
        "table.example.org",
        "ftp://table.example.org",
        "https://",
        "https://table.example.org/table",
        "https://table.example.org/?x=1",
        "https://table.example.org/#top",
        "https://rosa:secret@table.example.org",
        "https://table.example.org:99999",
        "https://table example.org",
    ],
)
def test_an_address_no_browser_opens_is_refused(url: str) -> None:
    """An address is http(s)://HOST[:PORT]: no path (the pages link from the root), no query,
    no fragment, no password."""
    with Engine() as engine, pytest.raises(InvalidServerAddress) as refused:
        engine.keep_server_address(url, public=True)
    assert "INVALID_SERVER_ADDRESS" == refused.value.code


def test_the_campaign_list_counts_what_is_new_to_the_member(
    client: TestClient[Any], table: Table
) -> None:
    """`/` shows, beside each campaign, how many entries of its latest session are new to the
    member (as the table page counts them), and none once the member has read the table."""
    client.post(f"/join/{invite(table)}", follow_redirects=False)
    with Engine(table.db) as engine:
        engine.execute(CAMPAIGN, AddNote(text="The rain starts."))
    listed = client.get("/", headers={"accept": "text/html"}).text
    assert re.search(r"[1-9][0-9]* unread", listed), listed
    client.get(f"/campaigns/{CAMPAIGN}", headers={"accept": "text/html"})  # read
    assert "unread" not in client.get("/", headers={"accept": "text/html"}).text
