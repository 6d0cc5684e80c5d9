"""The table server under load, on loopback: `campaign serve` in its own process on a free port
of 127.0.0.1, driven over HTTP by clients in this process.

Its counts are ``bench.sizes``' (`make bench`'s: 8 clients of 200 rolls, 400 turns, 60 rolls
followed live).

- **Load**: ``clients`` client threads each send ``per_client`` free rolls (``POST
  commands/dice``, physical dice, a bearer token each, every roll saying which client and which
  turn it is) against one campaign and against ``clients`` campaigns, on SQLite and on
  PostgreSQL. The store is read after: exactly ``clients * per_client`` new rulings, each roll
  recorded once (none lost, none twice), and no 5xx answer. The figure is rulings per second.
- **Latency**: one roll through the API against a bare endpoint on the same stack (a Litestar
  app of one route on uvicorn in its own process, logging as `campaign serve` does, whose
  handler inserts one row into SQLite with WAL and ``synchronous=FULL``), in turns; p50 and p99,
  the target held by both. Over the same turns, the CPU time (user and system, ``/proc``) each
  process spent, per request: ours against the bare endpoint's (at most 2.25x: 2.7 ms against
  its 1.2 ms when issue 45 set it), and against 2.7 ms.
- **Live delivery**: from a roll's answer arriving to its ruling arriving on an SSE client
  (``GET /campaigns/{campaign}/events``), p50 and p99; measured when the server has the route.
"""

from __future__ import annotations

import contextlib
import functools
import json
import operator
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench.common import BIN, ROOT, Row, say, tail_row
from bench.sizes import DEFAULT, Sizes
from domain.audience import GMS

GM = "Rosa"
BARE_DB = "BENCH_BARE_DB"  # where the bare endpoint's process keeps its one table
NO_LIVE = "not measured: this server has no /campaigns/{campaign}/events route"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextlib.contextmanager
def started(
    argv: list[str],
    port: int,
    ready: str,
    log: Path,
    env: dict[str, str] | None = None,
    *,
    starting: float = 60.0,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A server process on ``port`` (its output in ``log``), once it answers ``ready`` (within
    ``starting`` seconds): its base URL and the process (to signal it); stopped by SIGINT at
    the end of the block unless it has ended already."""
    import httpx

    base = f"http://127.0.0.1:{port}"
    with log.open("ab") as output:
        server = subprocess.Popen(
            argv, stdout=output, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
        )
    try:
        deadline = time.monotonic() + starting
        while True:
            try:
                httpx.get(base + ready, timeout=1)
                break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{argv[0]} did not start: see {log}") from None
                time.sleep(0.1)
        yield base, server
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


@contextlib.contextmanager
def running(
    argv: list[str],
    port: int,
    ready: str,
    log: Path,
    env: dict[str, str] | None = None,
    *,
    starting: float = 60.0,
) -> Iterator[str]:
    """``started``'s server, for a block that needs only its base URL."""
    with started(argv, port, ready, log, env, starting=starting) as (base, _):
        yield base


def serve(db: str, log: Path) -> contextlib.AbstractContextManager[str]:
    port = free_port()
    argv = [str(BIN / "campaign"), "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port)]
    return running(argv, port, "/schema/openapi.json", log)


def serve_process(
    db: str, log: Path
) -> contextlib.AbstractContextManager[tuple[str, subprocess.Popen[bytes]]]:
    """``serve``'s server, with its process (to read its CPU time)."""
    port = free_port()
    argv = [str(BIN / "campaign"), "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port)]
    return started(argv, port, "/schema/openapi.json", log)


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far, user and system, every thread of it
    (``/proc/PID/stat``'s utime and stime)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # after the command's name, from field 3
    ticks = int(fields[11]) + int(fields[12])  # fields 14 and 15
    return ticks / os.sysconf("SC_CLK_TCK")


def campaigns(db: str, count: int, clients: int) -> list[tuple[str, str]]:
    """``count`` campaigns in the store (``db`` exists or is created), each with a running
    session; each of ``clients`` clients' campaign (cycling over them) and GM bearer token."""
    from domain.lifecycle import StartSession
    from engine import Engine

    names = [f"Table {n}" for n in range(count)]
    with Engine(db) as engine:
        for name in names:
            engine.create_campaign(name, "sprawl-goons", gm=GM)
            engine.execute(name, StartSession())
        return [(names[c % count], engine.token(names[c % count], GM)) for c in range(clients)]


def _roll(client: Any, base: str, campaign: str, why: str) -> Any:
    from urllib.parse import quote

    body = {"params": {"expression": "2d6", "why": why}, "dice": [3, 3]}
    return client.post(f"{base}/api/campaigns/{quote(campaign, safe='')}/commands/dice", json=body)


def _whys(db: str, names: set[str]) -> tuple[int, Counter[str]]:
    """The rulings of the campaigns ``names`` and how often each roll's ``why`` was recorded."""
    from domain.events import RulingMade
    from engine import Engine

    seen: Counter[str] = Counter()
    rulings = 0
    with Engine(db) as engine:
        for name in names:
            rulings += engine.campaign(name).rulings
            for header in engine.headers(name, audience=GMS):
                made = header.event
                if isinstance(made, RulingMade) and made.command == "dice":
                    seen[json.loads(made.params)["args"]["why"]] += 1
    return rulings, seen


def load(db: str, count: int, work: Path, store: str, sizes: Sizes) -> Row:
    """``sizes.clients`` x ``sizes.per_client`` rolls against ``count`` campaigns of one store."""
    import httpx

    clients, per_client = sizes.clients, sizes.per_client
    given = campaigns(db, count, clients)
    names = {name for name, _ in given}
    before, _ = _whys(db, names)
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    start = threading.Barrier(clients + 1)

    def client(number: int) -> None:
        campaign, token = given[number]
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(headers=headers, timeout=30) as http:
            start.wait()
            for turn in range(per_client):
                try:
                    answer = _roll(http, base, campaign, f"client {number} turn {turn}")
                    statuses[answer.status_code] += 1
                except httpx.HTTPError as error:
                    failures.append(f"{type(error).__name__}: {error}")

    with serve(db, work / f"serve-{store}-{count}.log") as base:
        threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
        for thread in threads:
            thread.start()
        start.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join(timeout=300)
        took = time.perf_counter() - began
    after, seen = _whys(db, names)
    wanted = {f"client {c} turn {t}" for c in range(clients) for t in range(per_client)}
    lost = len(wanted - set(seen))
    twice = sum(1 for why, n in seen.items() if n > 1)
    errors = sum(n for status, n in statuses.items() if status >= 500)
    refused = sum(n for status, n in statuses.items() if 400 <= status < 500)
    new = after - before
    ok = new == clients * per_client and lost == twice == errors == refused == len(failures) == 0
    where = "one campaign" if count == 1 else f"{count} campaigns"
    return Row(
        f"{store} server: {clients} clients x {per_client} rolls via the API, {where}",
        "rulings/s",
        new / took,
        None,
        "",
        note=(
            f"{new} new rulings, {lost} lost, {twice} twice, {errors} 5xx, {refused} 4xx, "
            f"{len(failures)} transport errors" + ("" if ok else " (**not as it should be**)")
        ),
    )


# --- The bare endpoint ------------------------------------------------------------------------


def bare_app() -> Any:
    """The baseline: one route that inserts one row into SQLite (WAL, synchronous=FULL), a
    connection per worker thread, on the same stack as the server (Litestar, uvicorn)."""
    from litestar import Litestar, get, post

    db = os.environ[BARE_DB]
    local = threading.local()

    def connection() -> sqlite3.Connection:
        found: sqlite3.Connection | None = getattr(local, "connection", None)
        if found is None:
            found = sqlite3.connect(db, isolation_level=None, timeout=30)
            found.execute("PRAGMA journal_mode=WAL")
            found.execute("PRAGMA synchronous=FULL")
            local.connection = found
        return found

    with sqlite3.connect(db) as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS rolls (id INTEGER PRIMARY KEY, body TEXT)")

    @post("/roll", sync_to_thread=True)
    def roll(data: dict[str, Any]) -> dict[str, Any]:
        cursor = connection().execute("INSERT INTO rolls (body) VALUES (?)", (json.dumps(data),))
        return {"ruling": cursor.lastrowid}

    @get("/ready", sync_to_thread=False)
    def ready() -> str:
        return "ok"

    return Litestar(route_handlers=[roll, ready])


def bare(work: Path) -> contextlib.AbstractContextManager[tuple[str, subprocess.Popen[bytes]]]:
    """The bare endpoint's server: its base URL and its process."""
    port = free_port()
    argv = [
        *(str(BIN / "python"), "-m", "uvicorn", "--factory", "bench.server_figures:bare_app"),
        *("--host", "127.0.0.1", "--port", str(port), "--log-level", "info", "--proxy-headers"),
    ]
    env = {BARE_DB: str(work / "bare.db"), "PYTHONPATH": str(ROOT)}
    return started(argv, port, "/ready", work / "bare.log", env)


def in_turns(
    ours: Callable[[], object], baseline: Callable[[], object], turns: int
) -> tuple[list[float], list[float]]:
    """Every sample of ``ours`` and ``baseline`` run in turns, as ``bench.common.paired`` runs
    them (it keeps the medians only; here the tails count too)."""
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(turns):
        for action, samples in ((ours, mine), (baseline, theirs)):
            began = time.perf_counter()
            action()
            samples.append(time.perf_counter() - began)
    return mine, theirs


CPU_BOUND = 0.0027  # seconds of server CPU a roll through the API may cost (issue 45)
# ... measured against the bare endpoint's 1.2 ms: the same share of a bare insert, on a
# machine slower or faster than that one
CPU_RATIO = "<= 2.25"


def latency(work: Path, turns: int) -> list[Row]:
    """One roll through the API against the bare insert, ``turns`` each, in turns: p50, p99;
    and the CPU time each server process spent over those turns, per request."""
    import httpx

    db = str(work / "latency.db")
    [(campaign, token), *_] = campaigns(db, 1, 1)
    turn = iter(range(10**9))
    with (
        serve_process(db, work / "serve-latency.log") as (ours, server),
        bare(work) as (theirs, baseline),
    ):
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(headers=headers, timeout=30) as api, httpx.Client(timeout=30) as plain:

            def roll() -> None:
                _roll(api, ours, campaign, f"latency {next(turn)}").raise_for_status()

            def insert() -> None:
                body = {"params": {"expression": "2d6", "why": "bare"}, "dice": [3, 3]}
                plain.post(theirs + "/roll", json=body).raise_for_status()

            in_turns(roll, insert, 20)  # warm: connections, caches, the thread pools
            cpu_before = cpu_seconds(server.pid), cpu_seconds(baseline.pid)
            mine, theirs_ = in_turns(roll, insert, turns)
            cpu_after = cpu_seconds(server.pid), cpu_seconds(baseline.pid)
    cpu_ours = (cpu_after[0] - cpu_before[0]) / turns
    cpu_bare = (cpu_after[1] - cpu_before[1]) / turns
    return [
        tail_row(
            "SQLite server: one roll through the API",
            mine,
            theirs_,
            "bare Litestar+uvicorn route: one SQLite insert (WAL, FULL)",
            "<= 3",
            note=f"{turns} in turns",
        ),
        *cpu_rows("SQLite", cpu_ours, cpu_bare, turns),
    ]


def cpu_rows(store: str, ours: float, bare_cpu: float, turns: int) -> list[Row]:
    """The server process's CPU time per roll (user and system, from ``/proc``) against the
    bare endpoint's per insert, measured over the same turns; and against the bound."""
    figure = f"{store} server: CPU time of the server process per API roll"
    note = f"{turns} in turns, utime + stime of each process"
    return [
        Row(
            figure,
            "s",
            ours,
            bare_cpu,
            "the bare endpoint's process per insert",
            CPU_RATIO,
            note,
        ),
        Row(
            figure + ", against the bound",
            "s",
            ours,
            CPU_BOUND,
            f"{CPU_BOUND * 1000:.1f} ms (the bound set for it)",
            "<= 1",
            note,
        ),
    ]


# --- Live delivery ----------------------------------------------------------------------------


def live(db: str, work: Path, store: str, rolls: int) -> Row:
    """From a roll's answer to its ruling arriving on an SSE client, ``rolls`` times, one after
    the other (the next roll waits for the last one's event, then a random pause, so that the
    rolls do not keep step with the SQLite watcher's poll)."""
    import httpx

    from engine import Engine

    [(campaign, token), *_] = campaigns(db, 1, 1)
    with Engine(db) as engine:
        after = engine.campaign(campaign).rulings  # the stream sends every ruling after it
    headers = {"Authorization": f"Bearer {token}"}
    arrived: dict[int, float] = {}
    changed = threading.Condition()
    listening = threading.Event()
    routed = threading.Event()  # the stream is the route's (not a 404)
    stop = threading.Event()

    def listen(base: str) -> None:
        from urllib.parse import quote

        url = f"{base}/campaigns/{quote(campaign, safe='')}/events"
        timeout = httpx.Timeout(30, read=60)
        try:
            with (
                httpx.Client(headers=headers, timeout=timeout) as http,
                http.stream("GET", url, params={"after": after}) as stream,
            ):
                if stream.status_code == 404:  # a server without the route
                    listening.set()
                    return
                follow(stream)
        except httpx.HTTPError:
            if not stop.is_set():  # else the server was stopped under the open stream
                raise

    def follow(stream: Any) -> None:
        fields: dict[str, str] = {}
        for line in stream.iter_lines():
            if line.startswith(":"):  # a comment: the first says the stream is live
                routed.set()
                listening.set()
            elif line:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
            else:  # the end of one message
                if fields.get("event") == "ruling":
                    with changed:
                        arrived[int(fields["id"])] = time.perf_counter()
                        changed.notify_all()
                fields = {}

    samples: list[float] = []
    pause = random.Random(21)
    with serve(db, work / f"serve-live-{store}.log") as base:
        listener = threading.Thread(target=listen, args=(base,), daemon=True)
        listener.start()
        if not listening.wait(30):
            raise RuntimeError("the SSE client did not connect")
        if not routed.is_set():
            return Row(f"{store} server: live delivery (SSE)", "", None, None, "", note=NO_LIVE)
        with httpx.Client(headers=headers, timeout=30) as api:
            for turn in range(rolls):
                time.sleep(pause.uniform(0, 0.3))  # a roll at any moment of a watcher's poll
                answer = _roll(api, base, campaign, f"live {turn}")
                answered = time.perf_counter()
                answer.raise_for_status()
                number = answer.json()["ruling"]
                with changed:
                    if not changed.wait_for(
                        functools.partial(operator.contains, arrived, number), 10
                    ):
                        raise RuntimeError(f"ruling {number} never arrived on the SSE client")
                samples.append(max(0.0, arrived[number] - answered))
        stop.set()
    return tail_row(
        f"{store} server: a ruling's answer to its event on an SSE client",
        samples,
        None,
        note=f"{rolls} rolls",
    )


# --- The rows -----------------------------------------------------------------------------------


def _loads(work: Path, fresh: Callable[[], str], store: str, sizes: Sizes) -> list[Row]:
    """The load against one campaign and against ``sizes.clients`` (``fresh``: a new store)."""
    rows = []
    for count in sorted({1, sizes.clients}):
        clients = f"{sizes.clients} API clients x {sizes.per_client} rolls"
        say(f"  {clients}, {count} {store} campaign(s)")
        rows.append(load(fresh(), count, work, store, sizes))
    return rows


def sqlite_rows(work: Path, sizes: Sizes) -> list[Row]:
    files = iter(range(10**6))
    rows = _loads(work, lambda: str(work / f"server-{next(files)}.db"), "SQLite", sizes)
    say("  one roll through the API against a bare insert, in turns")
    rows += latency(work, sizes.turns)
    say("  live delivery over SSE")
    rows.append(live(str(work / "live.db"), work, "SQLite", sizes.live))
    return rows


def postgres_rows(work: Path, fresh: Callable[[], str], sizes: Sizes) -> list[Row]:
    """``fresh`` gives a new, empty PostgreSQL database's URL."""
    rows = _loads(work, fresh, "PostgreSQL", sizes)
    say("  live delivery over SSE (LISTEN/NOTIFY)")
    rows.append(live(fresh(), work, "PostgreSQL", sizes.live))
    return rows


def _postgres_database(keep: bool = True) -> str:
    """Makes the server figures' own database anew (the other PostgreSQL figures drop theirs as
    they go) and gives its URL; or, not ``keep``, drops it."""
    import psycopg

    from bench.postgres_figures import PREFIX, SERVER

    name = PREFIX + "_server"
    admin = SERVER.rstrip("/") + "/postgres"
    with psycopg.connect(admin, autocommit=True, connect_timeout=3) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if keep:
            connection.execute(f"CREATE DATABASE {name}")
    return SERVER.rstrip("/") + "/" + name


def everything(work: Path, sizes: Sizes) -> list[Row]:
    """The server's figures on SQLite, then on PostgreSQL when a server answers."""
    from bench.postgres_figures import SERVER, reachable

    rows = sqlite_rows(work, sizes)
    problem = reachable()
    if problem:
        note = f"not measured: no PostgreSQL server answered at {SERVER} ({problem})"
        return [*rows, Row("PostgreSQL server", "", None, None, "", note=note)]
    try:
        rows += postgres_rows(work, _postgres_database, sizes)
    finally:
        _postgres_database(keep=False)
    return rows


if __name__ == "__main__":  # pragma: no cover - tried by hand: python -m bench.server_figures
    from bench.common import scratch

    for row in everything(scratch(), DEFAULT):
        print(row.as_dict(), flush=True)
    sys.exit(0)
