"""Many players at once against `campaign serve` processes with a small pool (``--pool``): every
roll answered 201 (no 5xx), recorded once, and on PostgreSQL the connections each process holds
(counted in ``pg_stat_activity`` by its ``application_name``, all the while) never above its
pool, with a live stream open on each process (its listener holds one of them)."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import quote
from uuid import uuid4

import httpx
import pytest

from bench.community_figures import counting
from domain.audience import GMS
from domain.events import Role, RulingMade
from domain.lifecycle import StartSession
from engine import Engine
from tests.postgres import SERVER
from tests.web.servers import serving_process

PLAYERS = 16
ROLLS = 5  # each player's
POOL = 3  # the smallest a PostgreSQL server takes: a listener, a write's lock, the write
CAMPAIGNS = ("Harbour", "Uplands")  # players of two tables: two write locks wanted at once

Seat = tuple[str, str, str]  # campaign, player, bearer token


def _tables(db: str) -> list[Seat]:
    """Two campaigns, each with half the players seated and a session with physical dice (a
    player types the faces they rolled); every player's seat and token."""
    seats: list[Seat] = []
    with Engine(db) as engine:
        for index, name in enumerate(CAMPAIGNS):
            players = [f"p{n}" for n in range(index, PLAYERS, len(CAMPAIGNS))]
            members = dict.fromkeys(players, Role.PLAYER)
            engine.create_campaign(name, "sprawl-goons", gm="Rosa", members=members)
            engine.execute(name, StartSession(physical_dice=True))
            seats += [(name, who, engine.token(name, who)) for who in players]
    return seats


def _play(bases: list[str], seats: list[Seat]) -> tuple[Counter[int], Counter[int]]:
    """Every player rolls ``ROLLS`` times at once, each through one of ``bases`` (in turn), and
    reads the recap after each roll (its read model caught up by whichever thread reads first):
    how many answers of each status the rolls and the reads got."""
    rolls: Counter[int] = Counter()
    reads: Counter[int] = Counter()
    start = threading.Barrier(len(seats))
    guard = threading.Lock()

    def player(number: int) -> None:
        campaign, who, token = seats[number]
        base = bases[number % len(bases)]
        api = f"{base}/api/campaigns/{quote(campaign)}"
        with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http:
            start.wait()
            for turn in range(ROLLS):
                body = {"params": {"expression": "2d6", "why": f"{who} {turn}"}, "dice": [3, 4]}
                rolled = http.post(f"{api}/commands/dice", json=body).status_code
                read = http.get(f"{api}/recap").status_code
                with guard:
                    rolls[rolled] += 1
                    reads[read] += 1

    threads = [threading.Thread(target=player, args=(n,)) for n in range(len(seats))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    return rolls, reads


def _recorded(db: str) -> Counter[str]:
    """How often each roll's ``why`` was recorded, over both campaigns."""
    seen: Counter[str] = Counter()
    with Engine(db) as engine:
        for name in CAMPAIGNS:
            for header in engine.headers(name, audience=GMS):
                made = header.event
                if isinstance(made, RulingMade) and made.command == "dice":
                    seen[json.loads(made.params)["args"]["why"]] += 1
    return seen


def _every_roll_once(db: str, seats: list[Seat]) -> None:
    wanted = Counter({f"{who} {turn}": 1 for _, who, _ in seats for turn in range(ROLLS)})
    assert wanted == _recorded(db)


@contextmanager
def _streaming(base: str, seat: Seat) -> Iterator[None]:
    """A live stream held open on ``base`` (so its process listens) until the block ends."""
    campaign, _, token = seat
    url = f"{base}/campaigns/{quote(campaign)}/events"
    opened = threading.Event()
    done = threading.Event()

    def follow() -> None:
        headers = {"Authorization": f"Bearer {token}"}
        try:
            with httpx.stream("GET", url, headers=headers, timeout=None) as stream:
                assert 200 == stream.status_code
                for _ in stream.iter_lines():
                    opened.set()
                    if done.is_set():
                        return
        except httpx.HTTPError:
            if not done.is_set():  # else the server stopped under the open stream
                raise

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    assert opened.wait(30), "the stream did not open"
    try:
        yield
    finally:
        done.set()


def test_many_players_on_a_sqlite_file_are_all_answered_and_recorded_once(tmp_path: Path) -> None:
    """16 players roll and read the recap at once on a SQLite file through one process with 3
    worker threads sharing its engine: every roll answered 201 and recorded exactly once, every
    read 200."""
    db = str(tmp_path / "tables.db")
    seats = _tables(db)
    with serving_process(db, "--pool", str(POOL)) as base:
        rolls, reads = _play([base], seats)
    assert {201: PLAYERS * ROLLS} == dict(rolls)
    assert {200: PLAYERS * ROLLS} == dict(reads)
    _every_roll_once(db, seats)


@pytest.mark.postgres
def test_many_players_on_two_postgresql_servers_stay_within_each_pool() -> None:
    """16 players roll at once through two `campaign serve --pool 3` processes on one schema,
    each with a live stream open: every roll answered 201 and recorded once, and neither
    process ever held more than 3 connections."""
    from tests.postgres import fresh_schema

    names = [f"campaign-test-{uuid4().hex[:8]}-{n}" for n in range(2)]
    with fresh_schema() as url:
        seats = _tables(url)
        with ExitStack() as stack:
            count = stack.enter_context(counting(SERVER, names))  # the bench's sampler
            bases = [
                stack.enter_context(
                    serving_process(url, "--pool", str(POOL), env={"PGAPPNAME": name})
                )
                for name in names
            ]
            for base in bases:
                stack.enter_context(_streaming(base, seats[0]))
            rolls, reads = _play(bases, seats)
            held, _ = count()
        _every_roll_once(url, seats)
    assert {201: PLAYERS * ROLLS} == dict(rolls)
    assert {200: PLAYERS * ROLLS} == dict(reads)
    assert all(1 <= n <= POOL for n in held.values()), held


def test_a_postgresql_server_refuses_a_pool_too_small_to_write() -> None:
    """`--pool 2` on PostgreSQL would leave a write's lock holder no connection to write with
    while the listener holds the other: refused before anything is opened."""
    from web.engines import Engines, PoolTooSmall

    with pytest.raises(PoolTooSmall) as refused:
        Engines("postgresql://nobody@127.0.0.1:1/none", pool=2)
    assert "POOL_TOO_SMALL" == refused.value.code


def test_campaign_serve_says_a_pool_too_small_for_postgresql_and_serves_nothing() -> None:
    """`campaign serve --pool 2` on a PostgreSQL URL (or CAMPAIGN_POOL=2): refused, exit 2, one
    line naming the rule; no connection is tried."""
    from click.testing import CliRunner

    from cli.main import campaign

    url = "postgresql://nobody@127.0.0.1:1/none"
    for args, env in ((["--pool", "2"], {}), ([], {"CAMPAIGN_POOL": "2"})):
        result = CliRunner().invoke(campaign, ["--db", url, "serve", *args], env=env)
        assert 2 == result.exit_code, result.output
        assert "POOL_TOO_SMALL" in result.output
        assert "3 connections or more" in result.output
