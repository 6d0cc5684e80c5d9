"""Each session's seal, posted by the app in the campaign's linked Discord channels as soon as
the store records it (issue 43, item 1), through a local stand-in of Discord's API: once per
channel whichever server process sees it first, on SQLite and PostgreSQL, with the head of the
log as a witness statement a member keeps (`campaign witness import`); a log rewritten and
resealed afterwards no longer holds that head. No token, no post."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.lifecycle import EndScene, EndSession, StartSession
from domain.links import LinkChannel
from engine import APP, UNSIGNED, Engine, Statement, read_statements
from tests.integration.test_tamper import Forger, Played
from tests.web.conftest import CAMPAIGN, build_table
from tests.web.discord_standin import StandIn, discord_api
from web import create_app
from web.discord import voices

CHANNELS = ("1100000000000000001", "1100000000000000002")


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    with discord_api() as stand_in:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", stand_in.url)
        monkeypatch.setenv("CAMPAIGN_DISCORD_TOKEN", "the-bot-token")
        voices.forget()
        yield stand_in
    voices.forget()


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    from tests.postgres import fresh_schema

    if request.param == "sqlite":
        yield str(tmp_path / "zion.db")
        return
    with fresh_schema() as url:
        yield url


def linked(db: str) -> str:
    build_table(db)
    with Engine(db) as engine:
        for channel in CHANNELS:
            engine.execute(CAMPAIGN, LinkChannel(channel=channel))
    return db


def posts(api: StandIn, count: int, timeout: float = 15) -> list[Any]:
    """The messages posted through the app's webhooks, once ``count`` of them arrived (and a
    moment more, for one too many)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(_posted(api)) < count:
        time.sleep(0.1)
    time.sleep(1.5)
    return _posted(api)


def _posted(api: StandIn) -> list[Any]:
    return [h for h in api.heard if h.method == "POST" and "/webhooks/7700" in h.path]


def ended(db: str) -> None:
    with Engine(db) as engine:
        engine.execute(CAMPAIGN, EndScene())
        engine.execute(CAMPAIGN, EndSession())


def test_each_seal_is_posted_once_in_each_linked_channel(api: StandIn, db: str) -> None:
    """Two server processes' apps on one store: session 1's seal, recorded by a third party
    (as `campaign session end` would), is posted once in each channel, as a statement the log
    holds; session 2's follows."""
    linked(db)
    with TestClient(create_app(db)), TestClient(create_app(db)):
        time.sleep(1.5)  # each app has read the store's position
        ended(db)
        first = posts(api, len(CHANNELS))
        with Engine(db) as engine:
            engine.execute(CAMPAIGN, StartSession())
            engine.execute(CAMPAIGN, EndSession())
        both = posts(api, 2 * len(CHANNELS))
    assert len(CHANNELS) == len(first)
    assert 2 * len(CHANNELS) == len(both)
    statements: list[Statement] = []
    for heard in both:
        assert "campaign-log" == heard.body["username"]
        (statement,) = read_statements(heard.body["content"].splitlines(), "the post")
        statements.append(statement)
    assert [1, 1, 2, 2] == [s.head.session for s in statements]
    assert {APP} == {s.by for s in statements}
    assert {f"the Discord channel {c}" for c in CHANNELS} == {s.seen for s in statements}
    with Engine(db) as engine:
        check = engine.check_witnesses(CAMPAIGN, statements)
        seals = {s.session: s.digest for s in engine.verify(CAMPAIGN).seals}
    assert check.holds
    assert {UNSIGNED} == {w.signature for w in check.checked}
    assert {s.head.session: s.head.seal for s in statements} == seals
    assert f"Seal `{seals[1]}`" in both[0].body["content"]


def test_a_log_rewritten_after_the_seal_was_posted_no_longer_holds_it(
    api: StandIn, tmp_path: Path
) -> None:
    """The GM-only note of session 1 rewritten, every link and seal computed again: verify
    says intact, and the seal the app posted is a fork."""
    db = linked(str(tmp_path / "zion.db"))
    with TestClient(create_app(db)):
        time.sleep(1.5)
        ended(db)
        (heard,) = posts(api, 1)[:1]
    (posted,) = read_statements(heard.body["content"].splitlines(), "the post")
    with Engine(db) as engine:
        campaign = engine.campaign(CAMPAIGN)
    with sqlite3.connect(db) as connection:
        forger = Forger(connection, Played(Path(db), campaign.id, campaign.id))
        rows = forger.rows(campaign.id)
        note = next(r for r in rows if r.body["event"].get("text") == "Smith is Neo's twin")
        note.body["event"]["text"] = "Smith is nobody's twin"
        forger.write(campaign.id, rows, reseal=True)
    with Engine(db) as engine:
        assert engine.verify(CAMPAIGN).intact
        check = engine.check_witnesses(CAMPAIGN, [posted])
    assert check.fork is not None
    assert "the campaign's stream at version" in check.fork.problem


def test_without_the_bots_token_nothing_is_posted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with discord_api() as stand_in:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", stand_in.url)
        monkeypatch.delenv("CAMPAIGN_DISCORD_TOKEN", raising=False)
        db = linked(str(tmp_path / "zion.db"))
        with TestClient(create_app(db)):
            time.sleep(1.5)
            ended(db)
            time.sleep(2.5)
        assert [] == stand_in.heard
