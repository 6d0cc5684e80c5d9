"""``--pool N`` bounds the worker threads: every sync handler (Litestar runs them on the serving
loop's default executor), the sign-in lookup and the form pages run on one pool of threads
made at startup (``web.app._bounded``), and on a SQLite file the API's writes on the serving
loop itself, one at a time, or on one writer thread of the N while another writer holds the
store's lock (``web.engines``), so 64 players at once are served by N threads, the others
waiting their turn, not by as many as asyncio's default executor would start (6 on two cores,
20 on sixteen)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from litestar import Request, get

from engine import Engine
from tests.stores import held_elsewhere
from tests.web.conftest import API, build_table
from tests.web.servers import serving_in_thread, serving_process
from web import commands, create_app

POOL = 4  # fewer than asyncio's default executor starts on this machine (cores + 4, at least 5)
PLAYERS = 64
BESIDE = 3  # threads of a server besides its workers: the main thread, the log writer, notices


class Probe:
    """Counts who runs a piece of work (``counted``): how many ran at once at most, on which
    threads (and their names); ``handler`` is a sync handler that holds its worker thread a
    moment so."""

    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.running = 0
        self.peak = 0
        self.threads: set[int] = set()
        self.names: set[str] = set()
        self.on_writer = threading.Event()  # set when the writer thread runs one

    @contextlib.contextmanager
    def counted(self) -> Iterator[None]:
        with self.guard:
            self.running += 1
            self.peak = max(self.peak, self.running)
            self.threads.add(threading.get_ident())
            self.names.add(threading.current_thread().name)
            if threading.current_thread().name.startswith("campaign-writer"):
                self.on_writer.set()
        try:
            yield
        finally:
            with self.guard:
                self.running -= 1

    def handler(self) -> Any:
        @get("/probe", sync_to_thread=True)
        def probe(request: Request[Any, Any, Any]) -> str:
            with self.counted():
                time.sleep(0.05)  # a store's read, say
            return str(request.user.held[0].signed.member)

        return probe


def _at_once(count: int, send: Any) -> Counter[int]:
    """``send(client)`` from ``count`` threads released together: the statuses answered."""
    statuses: Counter[int] = Counter()
    start = threading.Barrier(count)
    guard = threading.Lock()

    def player() -> None:
        with httpx.Client(timeout=60) as client:
            start.wait(timeout=30)
            status = send(client)
            with guard:
                statuses[status] += 1

    threads = [threading.Thread(target=player) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


def test_64_players_at_once_run_on_the_pools_threads_alone(tmp_path: Path) -> None:
    """With a pool of 4 on a SQLite file, a sync handler that holds its thread is run by 64
    signed-in players at once: never more than 3 at a time (the writer is the fourth), on 3
    threads; and 3 at a time (the pool is used)."""
    table = build_table(str(tmp_path / "zion.db"))
    probe = Probe()
    app = create_app(table.db, pool=POOL)
    app.register(probe.handler())
    with serving_in_thread(table.db, app) as base:
        headers = table.headers("gm")
        statuses = _at_once(PLAYERS, lambda c: c.get(base + "/probe", headers=headers).status_code)
    assert Counter({200: PLAYERS}) == statuses
    assert POOL - 1 == probe.peak
    assert len(probe.threads) <= POOL - 1


DICE = {"params": {"expression": "2d6", "why": "at once"}, "dice": [3, 4]}


def _counting_runs(monkeypatch: Any) -> Probe:
    """A probe counting who runs each command of the API (``web.commands.run``)."""
    probe = Probe()
    real = commands.run

    def run(*args: Any) -> Any:
        with probe.counted():
            return real(*args)

    monkeypatch.setattr(commands, "run", run)
    return probe


def test_64_players_rolling_at_once_write_one_at_a_time_on_the_serving_loop(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """On a SQLite file, 64 players rolling at once through the API: every roll recorded, each
    signed in and run on the serving loop's own thread, one at a time (the store's lock was free
    for each: no write went to the writer thread or a worker)."""
    table = build_table(str(tmp_path / "zion.db"))
    probe = _counting_runs(monkeypatch)
    with serving_in_thread(table.db, create_app(table.db, pool=POOL)) as base:
        headers = table.headers("gm")
        statuses = _at_once(
            PLAYERS,
            lambda c: c.post(base + API + "/commands/dice", json=DICE, headers=headers).status_code,
        )
    assert Counter({201: PLAYERS}) == statuses
    assert (1, 1) == (probe.peak, len(probe.threads))
    assert [n.startswith("campaign-") for n in probe.names] == [False]


def test_writes_wait_for_another_writer_on_the_writer_thread_not_on_the_loop(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """While another writer holds the store's lock, 8 players roll: each write leaves the loop
    before anything is saved and waits on the writer thread, so the loop still answers a read
    meanwhile; once the lock is let go every roll is recorded, once."""
    table = build_table(str(tmp_path / "zion.db"))
    probe = _counting_runs(monkeypatch)
    rolled: list[int] = []
    with serving_in_thread(table.db, create_app(table.db, pool=POOL)) as base:
        headers = table.headers("gm")
        with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
            before = len(client.get(API + "/log").json())

            def roll() -> None:
                with httpx.Client(timeout=60) as each:
                    url = base + API + "/commands/dice"
                    rolled.append(each.post(url, json=DICE, headers=headers).status_code)

            with held_elsewhere(table.db):
                players = [threading.Thread(target=roll) for _ in range(8)]
                for player in players:
                    player.start()
                assert probe.on_writer.wait(timeout=30), "no write reached the writer thread"
                assert 200 == client.get("/api/me").status_code  # the loop is free
                assert [] == rolled  # every roll waits for the lock
            for player in players:
                player.join(timeout=60)
            after = len(client.get(API + "/log").json())
    assert [201] * 8 == rolled
    assert 8 == after - before
    assert any(n.startswith("campaign-writer") for n in probe.names)


def test_a_write_that_reads_the_whole_history_runs_on_the_writer_thread(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """An undo (a correction replays what followed the ruling) and a session's end (its seal
    reads the session's log) go to the writer thread at once: they would hold the loop as long
    as the history is. A note and a scene's end, beside them, are written on the loop."""
    table = build_table(str(tmp_path / "zion.db"))
    probe = _counting_runs(monkeypatch)
    undone: list[str] = []
    real_undo = Engine.undo

    def undo(self: Engine, *args: Any, **kwargs: Any) -> Any:
        undone.append(threading.current_thread().name)
        return real_undo(self, *args, **kwargs)

    monkeypatch.setattr(Engine, "undo", undo)
    with (
        serving_in_thread(table.db, create_app(table.db, pool=POOL)) as base,
        httpx.Client(base_url=base + API, headers=table.headers("gm"), timeout=60) as client,
    ):
        note = client.post("/commands/note", json={"params": {"text": "a note"}})
        assert 201 == note.status_code
        assert 201 == client.post("/undo", json={"reason": "not so"}).status_code
        assert 201 == client.post("/commands/scene/end", json={"params": {}}).status_code
        on_loop = set(probe.names)
        ended = client.post("/commands/session/end", json={"params": {}})
        assert 201 == ended.status_code, ended.text
    assert [n.startswith("campaign-") for n in on_loop] == [False]
    assert [n.startswith("campaign-writer") for n in undone] == [True]
    assert {n.startswith("campaign-writer") for n in probe.names - on_loop} == {True}


def _threads_of(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def _child_serving(base: str) -> int:
    """The process id of this test's child that serves on ``base``'s port."""
    port = base.rpartition(":")[2]
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # gone meanwhile
            continue
        if parent == os.getpid() and b"serve" in argv and port.encode() in argv:
            return int(entry.name)
    raise AssertionError(f"no child of the test serves on port {port}")


def test_campaign_serve_runs_64_players_on_its_pool_of_threads(tmp_path: Path) -> None:
    """`campaign serve --pool 4` on a SQLite file, 64 players rolling and reading at once
    (signed in by token, so each also looks their token up): every roll answered 201, and the
    process never held more threads than its main thread, Litestar's log writer (a logging
    ``QueueListener``) and the pool's 4 (a worker thread once started stays until the server
    stops, so counting after the load counts every one it started)."""
    table = build_table(str(tmp_path / "zion.db"))
    headers = table.headers("gm")
    body = {"params": {"expression": "2d6", "why": "at once"}, "dice": [3, 4]}
    with serving_process(table.db, "--pool", str(POOL)) as base:
        assert 200 == httpx.get(base + "/api/me", headers=headers, timeout=10).status_code
        pid = _child_serving(base)
        assert BESIDE + POOL >= _threads_of(pid)

        def roll(client: httpx.Client) -> int:
            rolled = client.post(base + API + "/commands/dice", json=body, headers=headers)
            return rolled.status_code

        statuses = _at_once(PLAYERS, roll)
        started = _threads_of(pid)
    assert Counter({201: PLAYERS}) == statuses
    assert BESIDE + POOL >= started
