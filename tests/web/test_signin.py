"""Sign-in: one-time invites, sessions in an HttpOnly SameSite=Strict cookie, bearer tokens,
secrets kept only as their SHA-256, CSRF on cookie-signed writes, revocation with the seat."""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import timedelta
from typing import Any

import pytest
from click.testing import CliRunner
from freezegun import freeze_time
from litestar.testing import TestClient

from cli.main import campaign
from domain.errors import NotAllowed, NotAMember
from domain.table import RemoveMember
from engine import Engine, NotSignedIn
from tests.web.conftest import API, CAMPAIGN, Table


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
    assert {"campaign": CAMPAIGN, "member": "alice", "role": "player", "via": "session"} == me
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
    """`member invite NAME --url BASE` prints BASE/join/SECRET, which signs NAME in;
    `member token NAME` prints a token that does."""
    runner = CliRunner()
    base = ["--db", table.db, "--campaign", CAMPAIGN]
    link = runner.invoke(
        campaign, [*base, "member", "invite", "alice", "--url", "https://t.example/"]
    )
    assert 0 == link.exit_code, link.output
    assert link.output.startswith("https://t.example/join/")
    token = runner.invoke(campaign, [*base, "member", "token", "olly"]).output.strip()
    refused = runner.invoke(campaign, [*base, "--as", "alice", "member", "token", "bob"])
    assert 2 == refused.exit_code
    with Engine(table.db) as engine:
        assert "alice" == engine.sign_in(link.output.strip().rsplit("/", 1)[1]).member
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
