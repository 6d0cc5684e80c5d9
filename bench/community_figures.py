"""A server that holds a community (issue 32), on loopback: `campaign serve --pool 5` processes on
free ports of 127.0.0.1, driven by clients in this process. Every load is bounded in count
(``bench.sizes``: rolls a level, fan-out rolls, requests; `make bench`'s below) and in time
(``DEADLINE``); PostgreSQL figures run in a database the bench creates and drops.

- **Players at once**: 1, 8, 32 and 64 players (tables of ``TABLE``), each with a seat and a
  bearer token, roll at once through the API; the same clients then post the same bodies to a
  bare endpoint on the same stack (Litestar + uvicorn, one route inserting one row: SQLite with
  WAL and ``synchronous=FULL``, or PostgreSQL through a pool of the same size). Both servers
  are up at once and driven in turns (ours, bare, ours, ...: ``sizes.repeat`` turns each, every
  sample kept). p50 and p99 of a request; every roll recorded once, no 5xx. With 32 players the
  p50 is held to 3x the bare endpoint's (issue 45; the p99s are shown, not judged).
- **Connections held**: three `campaign serve --pool 5` processes on one PostgreSQL database,
  64 players spread over them, a live stream open on each; the connections each process holds
  (``pg_stat_activity`` by ``application_name``, sampled all along) against the 15 configured.
- **Fan-out**: 50 and 500 event streams open on one process (readers of every role of one
  campaign); from a roll's answer to its ruling on the last of them, p50 and p99 (bound: 1 s,
  for both).
- **A request meanwhile**: ``GET /api/me`` with 500 streams open and a roll fanned out every
  quarter second, against the same with no stream open: p50 and p99, the target held by both.
- **A restart**: SIGTERM to a process with 500 streams open, to its exit (bound: 1 s); each
  stream ends with a ``retry`` and EOF.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote
from uuid import uuid4

from bench.common import BIN, ROOT, Row, say, tail_row
from bench.server_figures import free_port, running, started
from bench.sizes import DEFAULT, Sizes
from domain.audience import GMS

TABLE = 8  # players of one campaign
DEADLINE = 120.0  # seconds a load may run at most
POOL = 5
FANOUT_WITHIN = 1.0  # seconds: a ruling's answer to its event on the last stream, p50 and p99
GM = "Rosa"
BARE_DB = "BENCH_BARE_DB"  # the bare endpoint's store: a SQLite path or a PostgreSQL URL
BARE_POOL = "BENCH_BARE_POOL"

Seat = tuple[str, str, str]  # campaign, member, bearer token


# --- Servers ----------------------------------------------------------------------------------


def serve(
    db: str, log: Path, app: str = "", env: dict[str, str] | None = None
) -> contextlib.AbstractContextManager[str]:
    port = free_port()
    argv = [
        *(str(BIN / "campaign"), "--db", db, "serve", "--pool", str(POOL)),
        *("--host", "127.0.0.1", "--port", str(port)),
    ]
    more = {**({"PGAPPNAME": app} if app else {}), **(env or {})}
    return running(argv, port, "/schema/openapi.json", log, more or None)


def bare_app() -> Any:
    """The baseline: one route inserting one row, into SQLite (WAL, synchronous=FULL, a
    connection per worker thread) or into PostgreSQL (a pool of ``BENCH_BARE_POOL``)."""
    from litestar import Litestar, get, post

    db = os.environ[BARE_DB]
    if db.startswith("postgresql://"):
        insert = _postgres_insert(db, int(os.environ[BARE_POOL]))
    else:
        insert = _sqlite_insert(db)

    @post("/roll", sync_to_thread=True)
    def roll(data: dict[str, Any]) -> dict[str, Any]:
        return {"ruling": insert(json.dumps(data))}

    @get("/ready", sync_to_thread=False)
    def ready() -> str:
        return "ok"

    return Litestar(route_handlers=[roll, ready])


def _postgres_insert(url: str, pool_size: int) -> Callable[[str], int]:
    """What inserts one row into PostgreSQL through a pool of ``pool_size``; gives its id."""
    from psycopg_pool import ConnectionPool

    pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=True)
    with pool.connection() as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS rolls (id bigserial PRIMARY KEY, body text)")

    def insert(body: str) -> int:
        with pool.connection() as connection:
            row = connection.execute(
                "INSERT INTO rolls (body) VALUES (%s) RETURNING id", (body,)
            ).fetchone()
        return int(row[0]) if row else 0

    return insert


def _sqlite_insert(path: str) -> Callable[[str], int]:
    """What inserts one row into SQLite (WAL, synchronous=FULL), a connection per thread."""
    import sqlite3

    local = threading.local()
    with sqlite3.connect(path) as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS rolls (id INTEGER PRIMARY KEY, body TEXT)")

    def insert(body: str) -> int:
        found: sqlite3.Connection | None = getattr(local, "connection", None)
        if found is None:
            found = sqlite3.connect(path, isolation_level=None, timeout=30)
            found.execute("PRAGMA journal_mode=WAL")
            found.execute("PRAGMA synchronous=FULL")
            local.connection = found
        return found.execute("INSERT INTO rolls (body) VALUES (?)", (body,)).lastrowid or 0

    return insert


def bare(db: str, log: Path) -> contextlib.AbstractContextManager[str]:
    port = free_port()
    argv = [
        *(str(BIN / "python"), "-m", "uvicorn", "--factory", "bench.community_figures:bare_app"),
        *("--host", "127.0.0.1", "--port", str(port), "--log-level", "info", "--proxy-headers"),
    ]
    env = {BARE_DB: db, BARE_POOL: str(POOL), "PYTHONPATH": str(ROOT)}
    return running(argv, port, "/ready", log, env)


# --- Tables -----------------------------------------------------------------------------------


def tables(db: str, players: int, observers: int = 0) -> list[Seat]:
    """Campaigns of ``TABLE`` players (the last may have fewer), each in a session with physical
    dice; every player's seat (and the observers' and the GM's of the first, when asked)."""
    from domain.events import Role
    from domain.lifecycle import StartSession
    from engine import Engine

    seats: list[Seat] = []
    extra: list[Seat] = []
    with Engine(db) as engine:
        for first in range(0, players, TABLE):
            name = f"Table {first // TABLE}"
            who = [f"p{n}" for n in range(first, min(players, first + TABLE))]
            members = {**dict.fromkeys(who, Role.PLAYER)}
            if first == 0:
                members |= {f"o{n}": Role.OBSERVER for n in range(observers)}
            engine.create_campaign(name, "sprawl-goons", gm=GM, members=members)
            engine.execute(name, StartSession(physical_dice=True))
            seats += [(name, w, engine.token(name, w)) for w in who]
            if first == 0 and observers:
                extra += [(name, f"o{n}", engine.token(name, f"o{n}")) for n in range(observers)]
                extra.append((name, GM, engine.token(name, GM)))
    return seats + extra


def recorded(db: str, names: set[str]) -> Counter[str]:
    from domain.events import RulingMade
    from engine import Engine

    seen: Counter[str] = Counter()
    with Engine(db) as engine:
        for name in names:
            for header in engine.headers(name, audience=GMS):
                made = header.event
                if isinstance(made, RulingMade) and made.command == "dice":
                    seen[json.loads(made.params)["args"]["why"]] += 1
    return seen


def _body(why: str) -> dict[str, Any]:
    return {"params": {"expression": "2d6", "why": why}, "dice": [3, 4]}


Send = Callable[[Any, str, Seat, str], Any]  # (client, url, seat, why) -> the answer


def post_roll(http: Any, url: str, seat: Seat, why: str) -> Any:
    """A free roll through the API (or the bare endpoint), as the seat's bearer."""
    return http.post(url, json=_body(why))


def drive(
    seats: list[Seat],
    url_of: Callable[[int, Seat], str],
    per: int,
    tag: str,
    send: Send = post_roll,
) -> tuple[list[float], Counter[int], float, list[str]]:
    """Every seat posts ``per`` rolls at once (``url_of(index, seat)``, each request made by
    ``send``): the latencies, the statuses, the wall time, the transport errors. Stops at
    ``DEADLINE``."""
    import httpx

    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    guard = threading.Lock()
    start = threading.Barrier(len(seats) + 1)
    deadline = [0.0]

    def player(index: int) -> None:
        seat = seats[index]
        url = url_of(index, seat)
        with httpx.Client(headers={"Authorization": f"Bearer {seat[2]}"}, timeout=60) as http:
            start.wait()
            for turn in range(per):
                if time.monotonic() > deadline[0]:
                    return
                began = time.perf_counter()
                try:
                    status = send(http, url, seat, f"{tag} {seat[1]} {turn}").status_code
                except httpx.HTTPError as error:
                    with guard:
                        failures.append(f"{type(error).__name__}: {error}")
                    continue
                took = time.perf_counter() - began
                with guard:
                    latencies.append(took)
                    statuses[status] += 1

    threads = [threading.Thread(target=player, args=(n,), daemon=True) for n in range(len(seats))]
    for thread in threads:
        thread.start()
    deadline[0] = time.monotonic() + DEADLINE
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join(timeout=DEADLINE + 60)
    return latencies, statuses, time.perf_counter() - began, failures


def fixed(url: str) -> Callable[[int, Seat], str]:
    return lambda *_: url


def _campaign_url(base: str) -> Callable[[int, Seat], str]:
    return lambda _, seat: f"{base}/api/campaigns/{quote(seat[0], safe='')}/commands/dice"


Turns = tuple[list[float], list[float], Counter[int], list[str], float, float]


def in_turns(
    seats: list[Seat],
    ours: Callable[[int, Seat], str],
    theirs: Callable[[int, Seat], str],
    per: int,
    repeat: int,
) -> Turns:
    """The seats roll ``per`` times each through ours, then through the bare endpoint, and
    again, ``repeat`` times (after two warming rolls each): every latency of ours and of theirs,
    our statuses and transport errors, and the seconds each side took in all. Our rolls are
    tagged ``load<turn>``."""
    drive(seats, ours, 2, "warm")
    drive(seats, theirs, 2, "warm")
    mine: list[float] = []
    baseline: list[float] = []
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    took = bare_took = 0.0
    for turn in range(repeat):
        got, seen, spent, failed = drive(seats, ours, per, f"load{turn}")
        mine += got
        statuses += seen
        failures += failed
        took += spent
        got, _, spent, _ = drive(seats, theirs, per, "load")
        baseline += got
        bare_took += spent
    return mine, baseline, statuses, failures, took, bare_took


PLAYERS_TARGET = (32, "<= 3")  # issue 45: the API's p50 with 32 players, against the bare one's


def players_rows(store: str, fresh: Callable[[], str], work: Path, sizes: Sizes) -> list[Row]:
    """p50 and p99 of a roll with each level of players at once (1, 8, 32, 64 in `make
    bench`), against the bare insert: both servers up at once, driven in turns (ours, bare,
    ours, ...; ``sizes.repeat`` turns each, every sample kept), so a moment when the machine
    ran slower falls on both sides. With 32 players, the p50 is held to 3x the bare one's."""
    rows = []
    for players in sizes.players:
        say(f"  {players} player(s) at once, {store}")
        db = fresh()
        seats = tables(db, players)
        per = max(5, sizes.rolls // players)
        # Both up at once: on PostgreSQL the bare endpoint's table `rolls` sits in our database
        # (``fresh`` gives one scratch database, made anew each call).
        bare_db = db if store == "PostgreSQL" else str(work / f"bare-{players}.db")
        with (
            serve(db, work / f"community-{store}-{players}.log") as base,
            bare(bare_db, work / f"bare-{store}-{players}.log") as theirs,
        ):
            turns = in_turns(seats, _campaign_url(base), fixed(theirs + "/roll"), per, sizes.repeat)
        mine, baseline, statuses, failures, took, bare_took = turns
        seen = recorded(db, {s[0] for s in seats})
        wanted = {
            f"load{t} {s[1]} {n}" for t in range(sizes.repeat) for s in seats for n in range(per)
        }
        sent = sum(statuses.values())
        lost = len([w for w in wanted if w not in seen])
        twice = sum(1 for w, n in seen.items() if n > 1 and w.startswith("load"))
        errors = sum(n for status, n in statuses.items() if status >= 500)
        ok = sent == len(wanted) and lost == twice == errors == len(failures) == 0
        note = (
            f"{sent} rolls in {sizes.repeat} turn(s), {took:.1f} s ({sent / took:.0f}/s; "
            f"bare {len(baseline) / bare_took:.0f}/s)"
            f", {errors} 5xx, {len(failures)} transport errors, {lost} lost, {twice} twice"
            + ("" if ok else " (**not as it should be**)")
        )
        kind = f"PostgreSQL, a pool of {POOL}" if store == "PostgreSQL" else "SQLite"
        target = PLAYERS_TARGET[1] if players == PLAYERS_TARGET[0] else ""
        rows.append(
            tail_row(
                f"{store} server, {players} player(s) at once: a roll through the API",
                mine,
                baseline,
                f"bare insert endpoint ({kind})",
                target,
                note=note,
                p99_judged=False,
            )
        )
    return rows


# --- Connections held -----------------------------------------------------------------------


@contextlib.contextmanager
def counting(admin: str, names: list[str]) -> Iterator[Callable[[], tuple[dict[str, int], int]]]:
    """The most connections each ``application_name`` held at once, and the most all of them
    held together, sampled every 10 ms until the block ends."""
    import psycopg

    most = dict.fromkeys(names, 0)
    total = [0]
    stop = threading.Event()

    def sample() -> None:
        with psycopg.connect(admin, autocommit=True) as connection:
            while not stop.is_set():
                rows = connection.execute(
                    "SELECT application_name, count(*) FROM pg_stat_activity"
                    " WHERE application_name = ANY(%s) GROUP BY application_name",
                    (names,),
                ).fetchall()
                for name, count in rows:
                    most[name] = max(most[name], int(count))
                total[0] = max(total[0], sum(int(count) for _, count in rows))
                stop.wait(0.01)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield lambda: (dict(most), total[0])
    finally:
        stop.set()
        thread.join(timeout=10)


def connections_row(fresh: Callable[[], str], admin: str, work: Path, sizes: Sizes) -> Row:
    """The most players (64 in `make bench`) through ``sizes.processes`` `campaign serve --pool
    5` processes on one database."""
    players, processes = sizes.players[-1], sizes.processes
    db = fresh()
    seats = tables(db, players)
    per = max(5, sizes.rolls // players)
    names = [f"campaign-bench-{uuid4().hex[:6]}-{n}" for n in range(processes)]
    with contextlib.ExitStack() as stack:
        held = stack.enter_context(counting(admin, names))
        bases = [
            stack.enter_context(serve(db, work / f"community-three-{n}.log", names[n]))
            for n in range(processes)
        ]
        for base in bases:
            stack.enter_context(streaming(base, seats[0]))

        def url_of(index: int, seat: Seat) -> str:
            return _campaign_url(bases[index % processes])(index, seat)

        _, statuses, took, failures = drive(seats, url_of, per, "load")
        each, together = held()
    seen = recorded(db, {s[0] for s in seats})
    wanted = {f"load {s[1]} {t}" for s in seats for t in range(per)}
    errors = sum(n for status, n in statuses.items() if status >= 500)
    lost = len([w for w in wanted if w not in seen])
    twice = sum(1 for n in seen.values() if n > 1)
    ok = sum(statuses.values()) == len(wanted) and errors == lost == twice == len(failures) == 0
    return Row(
        f"PostgreSQL: {processes} `campaign serve --pool {POOL}` processes on one database, "
        f"{players} players at once: connections held at most",
        "connections",
        float(together),
        float(processes * POOL),
        f"{processes} x --pool {POOL} (the configured total)",
        "<= 1",
        note=(
            f"per process at most {sorted(each.values())}; {sum(statuses.values())} rolls in "
            f"{took:.1f} s, {errors} 5xx, {len(failures)} transport errors, {lost} lost, "
            f"{twice} twice" + ("" if ok else " (**not as it should be**)")
        ),
    )


@contextlib.contextmanager
def streaming(base: str, seat: Seat) -> Iterator[None]:
    """One live stream held open on ``base`` until the block ends."""
    with open_streams(base, [seat]) as _:
        yield


# --- Streams ----------------------------------------------------------------------------------


class Streams:
    """Event streams opened and read by one asyncio loop in a thread of its own (a raw HTTP/1.1
    GET each: cheap enough that 500 of them do not starve the server of the machine's CPU); the
    arrival time of every ruling on every stream."""

    def __init__(self, base: str, seats: list[Seat]) -> None:
        from web.live import AWAY_RETRY_MS

        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self.seats = seats
        self.arrived: dict[int, list[float]] = {}
        self.ended: list[tuple[float, bool]] = []  # each stream's EOF, and whether a retry came
        self.away = f"retry: {AWAY_RETRY_MS}".encode()  # a stop's (the opening's is another)
        self.changed = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.opened = threading.Event()
        self.failure: BaseException | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._open_all())
        self.loop.run_forever()

    async def _open_all(self) -> None:
        try:
            readers = [await self._open(seat) for seat in self.seats]
        except BaseException as error:  # said by the caller
            self.failure = error
            self.opened.set()
            return
        for reader in readers:
            self.loop.create_task(self._follow(reader))
        self.opened.set()

    async def _open(self, seat: Seat) -> asyncio.StreamReader:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        path = f"/campaigns/{quote(seat[0], safe='')}/events"
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n"
                f"Authorization: Bearer {seat[2]}\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        self._writers.append(writer)
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"a stream was refused: {status!r}")
        while (await reader.readline()).strip():  # the headers
            pass
        while not (await reader.readline()).startswith(b":"):  # the first comment: live
            pass
        return reader

    async def _follow(self, reader: asyncio.StreamReader) -> None:
        number: int | None = None
        ruling = retried = False
        while line := await reader.readline():
            text = line.strip()
            retried = retried or text == self.away
            if text.startswith(b"id:"):
                number = int(text[3:].strip() or 0)
            elif text.startswith(b"event:"):
                ruling = text[6:].strip() == b"ruling"
            elif not text and number is not None:
                if ruling:
                    now = time.perf_counter()
                    with self.changed:
                        arrived = self.arrived.setdefault(number, [])
                        arrived.append(now)
                        if len(arrived) >= len(self.seats):  # the last: wake who waits for it
                            self.changed.notify_all()
                number, ruling = None, False
        with self.changed:
            self.ended.append((time.perf_counter(), retried))
            self.changed.notify_all()

    def __enter__(self) -> Streams:
        self._thread.start()
        if not self.opened.wait(120):
            raise RuntimeError("the streams did not open in 120 s")
        if self.failure is not None:
            raise self.failure
        return self

    def __exit__(self, *_: object) -> None:
        async def close() -> None:
            for writer in self._writers:
                writer.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=30)

    def reached_all(self, number: int, timeout: float) -> float | None:
        """When ruling ``number`` reached the last stream (None: not within ``timeout``)."""
        count = len(self.seats)
        with self.changed:
            if not self.changed.wait_for(
                lambda: len(self.arrived.get(number, ())) >= count, timeout
            ):
                return None
            return max(self.arrived[number])


def open_streams(base: str, seats: list[Seat]) -> Streams:
    return Streams(base, seats)


def fanout_rows(store: str, fresh: Callable[[], str], work: Path, sizes: Sizes) -> list[Row]:
    """From a roll's answer to its ruling on the last of each count of open streams (50 and 500
    in `make bench`); then a request's cost with the most streams open against none."""
    import httpx

    rows = []
    db = fresh()
    seats = tables(db, TABLE, observers=4)  # 8 players, 4 observers and the GM read it
    roller = seats[0]
    pause = random.Random(32)
    with serve(db, work / f"community-fanout-{store}.log") as base:
        url = _campaign_url(base)(0, roller)
        headers = {"Authorization": f"Bearer {roller[2]}"}
        with httpx.Client(headers=headers, timeout=30) as api:
            quiet = me_costs(api, base, url, sizes.requests)  # no stream open
            for count in sizes.streams:
                say(f"  {count} streams open, {store}")
                readers = [seats[n % len(seats)] for n in range(count)]
                with open_streams(base, readers) as streams:
                    samples: list[float] = []
                    for turn in range(sizes.fanout_rolls):
                        time.sleep(pause.uniform(0.05, 0.3))
                        answer = api.post(url, json=_body(f"fan-out {count} {turn}"))
                        answered = time.perf_counter()
                        answer.raise_for_status()
                        last = streams.reached_all(answer.json()["ruling"], 30)
                        if last is None:
                            raise RuntimeError(f"a ruling did not reach all {count} streams")
                        samples.append(max(0.0, last - answered))
                    if count == sizes.streams[-1]:
                        busy = me_costs(api, base, url, sizes.requests)
                rows.append(
                    tail_row(
                        f"{store} server: a ruling's answer to its event on the last of {count} "
                        "open streams",
                        samples,
                        FANOUT_WITHIN,
                        f"{FANOUT_WITHIN:g} s (the bound set for it)",
                        "<= 1",
                        note=f"{sizes.fanout_rolls} rolls",
                    )
                )
            calm = me_costs(api, base, url, sizes.requests)  # the streams closed again
    rows.append(
        tail_row(
            f"{store} server: `GET /api/me` with {sizes.streams[-1]} streams open and a ruling "
            "fanned out every 0.25 s",
            busy,
            quiet + calm,
            "the same with no stream open",
            "<= 2",
            note=f"{sizes.requests} requests",
        )
    )
    return rows


def restart_row(store: str, fresh: Callable[[], str], work: Path, sizes: Sizes) -> Row:
    """SIGTERM to a `campaign serve` process with 500 streams open: to its exit, and to the
    end of the last stream (each should end with a ``retry``, then EOF)."""
    db = fresh()
    seats = tables(db, TABLE, observers=4)
    count = sizes.streams[-1]
    port = free_port()
    argv = [
        *(str(BIN / "campaign"), "--db", db, "serve", "--pool", str(POOL)),
        *("--host", "127.0.0.1", "--port", str(port)),
    ]
    log = work / f"community-restart-{store}.log"
    with started(argv, port, "/schema/openapi.json", log) as (base, server):
        say(f"  {count} streams open, then SIGTERM, {store}")
        with open_streams(base, [seats[n % len(seats)] for n in range(count)]) as streams:
            began = time.perf_counter()
            server.send_signal(signal.SIGTERM)
            status = server.wait(timeout=60)
            exited = time.perf_counter() - began
            with streams.changed:
                streams.changed.wait_for(lambda: len(streams.ended) >= count, 30)
                ended = list(streams.ended)
    retried = sum(1 for _, r in ended if r)
    last = max((t for t, _ in ended), default=began) - began
    logged = log.read_text(errors="replace")
    clean = status == 0 and "Traceback" not in logged and retried == count
    return Row(
        f"{store} server: SIGTERM with {count} streams open to the process's exit",
        "s",
        exited,
        1.0,
        "1 s (the bound set for it)",
        "<= 1",
        note=f"exit status {status}; {retried} of {count} streams ended with a retry, the last "
        f"{last * 1000:.0f} ms after the signal"
        + ("" if clean else f" (**not as it should be**: see {log.name})"),
    )


# Times ``GET /api/me`` in a process of its own: in the bench's process the request would wait
# for the interpreter lock that the thread reading the 500 streams holds, and the tail measured
# would be the bench's own (measured: p99 2-5x with streams open, much of it that wait).
_TIMER = """
import json, sys, time
import httpx
base, token, requests = sys.argv[1], sys.argv[2], int(sys.argv[3])
samples = []
with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=30) as api:
    for _ in range(requests):
        began = time.perf_counter()
        api.get(base + "/api/me").raise_for_status()
        samples.append(time.perf_counter() - began)
        time.sleep(0.01)
print(json.dumps(samples))
"""


def me_costs(api: Any, base: str, url: str, requests: int) -> list[float]:
    """``requests`` timings of ``GET /api/me`` (by a process of its own) while another client
    rolls every 0.25 s."""
    import httpx

    stop = threading.Event()

    def rolling() -> None:
        with httpx.Client(headers=dict(api.headers), timeout=30) as other:
            turn = 0
            while not stop.wait(0.25):
                other.post(url, json=_body(f"meanwhile {uuid4().hex[:8]} {turn}"))
                turn += 1

    thread = threading.Thread(target=rolling, daemon=True)
    thread.start()
    token = api.headers["Authorization"].removeprefix("Bearer ")
    try:
        timer = [sys.executable, "-c", _TIMER, base, token, str(requests)]
        done = subprocess.run(timer, capture_output=True, text=True, check=True, timeout=600)
    finally:
        stop.set()
        thread.join(timeout=30)
    samples: list[float] = json.loads(done.stdout)
    return samples


# --- The rows ---------------------------------------------------------------------------------


def database_name() -> str:
    """The community figures' scratch database (``bench.postgres_figures.PREFIX``'s)."""
    from bench.postgres_figures import PREFIX

    return PREFIX + "_community"


def postgres_database(admin_db: str) -> Callable[[], str]:
    import psycopg

    from bench.postgres_figures import SERVER

    name = database_name()

    def fresh() -> str:
        with psycopg.connect(admin_db, autocommit=True, connect_timeout=3) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            connection.execute(f"CREATE DATABASE {name}")
        return SERVER.rstrip("/") + "/" + name

    return fresh


def everything(work: Path, sizes: Sizes, only: str = "") -> list[Row]:
    """The community figures on SQLite, then on PostgreSQL when a server answers (``only``:
    "players", "connections", "fanout" or "restart" for one kind alone)."""
    from bench.postgres_figures import SERVER, reachable

    files = iter(range(10**6))

    def sqlite_file() -> str:
        return str(work / f"community-{next(files)}.db")

    rows: list[Row] = []
    if only in ("", "players"):
        rows += players_rows("SQLite", sqlite_file, work, sizes)
    if only in ("", "fanout"):
        rows += fanout_rows("SQLite", sqlite_file, work, sizes)
    if only in ("", "restart"):
        rows.append(restart_row("SQLite", sqlite_file, work, sizes))
    problem = reachable()
    if problem:
        note = f"not measured: no PostgreSQL server answered at {SERVER} ({problem})"
        return [*rows, Row("PostgreSQL community figures", "", None, None, "", note=note)]
    admin = SERVER.rstrip("/") + "/postgres"
    fresh = postgres_database(admin)
    try:
        if only in ("", "players"):
            rows += players_rows("PostgreSQL", fresh, work, sizes)
        if only in ("", "connections"):
            rows.append(connections_row(fresh, admin, work, sizes))
        if only in ("", "fanout"):
            rows += fanout_rows("PostgreSQL", fresh, work, sizes)
        if only in ("", "restart"):
            rows.append(restart_row("PostgreSQL", fresh, work, sizes))
    finally:
        drop_database(admin)
    return rows


def drop_database(admin: str) -> None:
    """Drop the bench's scratch database (``postgres_database``'s)."""
    import psycopg

    with psycopg.connect(admin, autocommit=True, connect_timeout=3) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {database_name()} WITH (FORCE)")


if __name__ == "__main__":  # pragma: no cover - by hand: python -m bench.community_figures [KIND]
    from bench.common import scratch

    for row in everything(scratch(), DEFAULT, sys.argv[1] if len(sys.argv) > 1 else ""):
        print(json.dumps(row.as_dict()), flush=True)
    sys.exit(0)
