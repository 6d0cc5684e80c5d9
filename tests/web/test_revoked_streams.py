"""Revocation reaches open streams: `campaign member revoke` (run by the CLI, a process that
talks to no server) ends every live stream the member holds, on every server process of the
store, within a second; their next request is 401, and another member's stream keeps
receiving. The feed asks the store which of its streams' credentials still sign in, in one query
for all of them (``Feed.signed_out``, ``Engine.still_signed_in``)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.lifecycle import AddNote
from engine import Engine
from tests.web.conftest import CAMPAIGN, MEMBER, Table, build_table
from tests.web.servers import Event, read_events, serving_process

PAGE = f"/campaigns/{CAMPAIGN}"
WITHIN = 1.0  # seconds from the revocation to the end of the member's streams


def _latest(db: str) -> int:
    with Engine(db) as engine:
        return engine.campaign(CAMPAIGN).rulings


class Follower:
    """One stream read in a thread of its own: its events, when it opened and when it ended."""

    def __init__(self, url: str, headers: dict[str, str], until: Callable[[list[Event]], bool]):
        self.opened = threading.Event()
        self.events: list[Event] = []
        self.ended: float | None = None
        self.failure: BaseException | None = None
        self._thread = threading.Thread(target=self._read, args=(url, headers, until))
        self._thread.start()

    def _read(self, url: str, headers: dict[str, str], until: Callable[..., bool]) -> None:
        try:  # bounded: a stream that never ends fails on the read timeout
            self.events = read_events(url, headers, until, self.opened.set, timeout=20)
            self.ended = time.monotonic()
        except BaseException as error:
            self.failure = error
        finally:
            self.opened.set()

    def join(self) -> Follower:
        self._thread.join(timeout=30)
        assert not self._thread.is_alive(), "the stream was still open after 30 s"
        assert self.failure is None, self.failure
        return self


@contextmanager
def following(
    url: str, headers: dict[str, str], until: Callable[[list[Event]], bool] = lambda _: False
) -> Iterator[Follower]:
    """A stream followed until the block ends and it ends (``until`` holds, or the server ends
    it); open when the block starts."""
    follower = Follower(url, headers, until)
    assert follower.opened.wait(timeout=20), "the stream did not open"
    assert follower.failure is None, follower.failure
    yield follower
    follower.join()


def _cli(db: str, *words: str) -> None:
    """`campaign --db DB --campaign Zion WORDS`, as a process of its own."""
    campaign = str(Path(sys.executable).with_name("campaign"))
    ran = subprocess.run(
        [campaign, "--db", db, "--campaign", CAMPAIGN, *words],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert 0 == ran.returncode, ran.stderr


def _received(number: int) -> Callable[[list[Event]], bool]:
    return lambda got: any(e.get("event") == "ruling" and e.get("id") == str(number) for e in got)


def _revoked_on_two_servers(db: str) -> None:
    """bob follows the table on two servers of ``db``, olly on the first, alice on the second;
    the CLI revokes bob: both his streams end within a second, untouched by any ruling, and
    he is refused 401; then it removes olly, whose stream ends as soon; alice's stream receives
    the removal and the next ruling."""
    table = build_table(db)
    after = _latest(db)
    with serving_process(db) as first, serving_process(db) as second, ExitStack() as stack:
        bob = table.headers("other")
        bobs = [
            stack.enter_context(following(f"{base}{PAGE}/events?after={after}", bob))
            for base in (first, second)
        ]
        olly = stack.enter_context(
            following(f"{first}{PAGE}/events?after={after}", table.headers("observer"))
        )
        alice = stack.enter_context(
            following(
                f"{second}{PAGE}/events?after={after}",
                table.headers("player"),
                _received(after + 2),
            )
        )
        _cli(db, "member", "revoke", MEMBER["other"])
        revoked = time.monotonic()
        for stream in bobs:
            stream.join()
            assert stream.ended is not None
            assert stream.ended - revoked < WITHIN
            assert [] == [e for e in stream.events if "event" in e]  # ended, sent nothing
        assert alice.ended is None  # still open
        for base in (first, second):
            assert 401 == httpx.get(f"{base}/api/me", headers=bob, timeout=10).status_code
            assert 401 == httpx.get(f"{base}{PAGE}/events", headers=bob, timeout=10).status_code
        assert olly.ended is None
        _cli(db, "member", "remove", MEMBER["observer"])
        removed = time.monotonic()
        assert olly.join().ended is not None
        assert olly.ended - removed < WITHIN
        assert [] == [e for e in olly.events if "event" in e]
        with Engine(db) as engine:
            engine.execute(CAMPAIGN, AddNote(text="The rain stops"))
    rulings = [e for e in alice.join().events if e.get("event") == "ruling"]
    assert [str(after + 1), str(after + 2)] == [e["id"] for e in rulings]
    assert "olly" in rulings[0]["data"]
    assert "The rain stops" in rulings[1]["data"]


def test_a_revoked_member_s_streams_end_on_every_server_of_a_sqlite_file(tmp_path: Path) -> None:
    _revoked_on_two_servers(str(tmp_path / "zion.db"))


@pytest.mark.postgres
def test_a_revoked_member_s_streams_end_on_every_server_of_a_postgresql_database() -> None:
    from tests.postgres import fresh_schema

    with fresh_schema() as url:
        _revoked_on_two_servers(url)


# --- What the feed asks the store ---------------------------------------------------------------


def _credential(engine: Engine, secret: str) -> str:
    signed = engine.who(secret)
    assert signed is not None
    return signed.credential


class Counted:
    """The access table, counting the lookups the feed makes of it."""

    def __init__(self, access: Any) -> None:
        self.access = access
        self.asked: list[set[str]] = []

    def kept(self, digests: Any) -> Any:
        self.asked.append(set(digests))
        return self.access.kept(digests)


def test_five_hundred_streams_are_checked_in_one_query(table: Table) -> None:
    """500 streams of four members: one lookup of their four credentials ends exactly the 125
    of the member whose token was revoked (and a stream opened with no credential); with no
    stream open the store is not asked."""
    from web import create_app
    from web.live import Stream

    app = create_app(table.db)
    names = list(MEMBER.values())

    async def ended(credentials: dict[str, str]) -> tuple[list[Stream], list[Any], list[Any]]:
        loop = asyncio.get_running_loop()
        streams = [
            Stream(CAMPAIGN, names[n % 4], None, loop, credentials[names[n % 4]])
            for n in range(500)
        ]
        streams.append(Stream(CAMPAIGN, "alice", None, loop))  # no credential
        return streams, app.state.feed.signed_out(streams), app.state.feed.signed_out([])

    try:
        engine = app.state.engines.get()
        credentials = {n: _credential(engine, table.tokens[r]) for r, n in MEMBER.items()}
        engine.revoke(CAMPAIGN, "bob")
        engine._access = counted = Counted(engine.access)
        streams, sent, none = asyncio.run(ended(credentials))
    finally:
        app.state.engines.close()
    assert [] == none
    assert [{*credentials.values(), ""}] == counted.asked
    assert all(delivery is None for _, delivery in sent)
    gone = [stream for stream, _ in sent]
    assert [s for s in streams if s.member == "bob"] + [streams[-1]] == gone
    assert 126 == len(gone)
