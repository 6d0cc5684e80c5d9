"""A rolling restart drops nothing: on SIGTERM `campaign serve` stops taking connections, sends
every open live page a ``retry`` and ends its stream cleanly, finishes the requests in flight
and exits 0, with no traceback in its log (``web.serving``, ``Feed.end``). The page (the test,
as a browser: ``Last-Event-ID``) reconnects to another server of the store and is sent every
ruling made since its last event, while rulings go on being made through the whole stop."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.server_figures import free_port, started
from engine import Engine
from tests.web.conftest import API, CAMPAIGN, build_table
from tests.web.servers import Event, read_events
from web.live import AWAY_RETRY_MS

PAGE = f"/campaigns/{CAMPAIGN}"
ENDS_WITHIN = 2.5  # seconds from SIGTERM to a stream's end (it takes about 0.2)
EXITS_WITHIN = 10.0  # seconds from SIGTERM to the process's exit
STREAMS = 50


class Served:
    """`campaign --db DB serve` as a process of the test: its base URL, the process, its log."""

    def __init__(self, base: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.base, self.process, self.log = base, process, log

    def terminate(self) -> float:
        """SIGTERM: when it was sent."""
        self.process.send_signal(signal.SIGTERM)
        return time.monotonic()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def serving(db: str, log: Path) -> Iterator[Served]:
    """A server of ``db`` on a free port of 127.0.0.1, once it answers; stopped (SIGINT) at the
    end of the block if the test did not stop it, its log printed (shown for a failing test)."""
    port = free_port()
    campaign = str(Path(sys.executable).with_name("campaign"))
    argv = [campaign, "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port)]
    with started(argv, port, "/schema/openapi.json", log, starting=30) as (base, process):
        yield Served(base, process, log)


class Page:
    """A live page's stream read in a thread: its events (a ``retry`` alone is one too), when
    it first got a ruling, when it ended."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.opened = threading.Event()
        self.ruled = threading.Event()
        self.events: list[Event] = []
        self.ended: float | None = None
        self.failure: BaseException | None = None
        self._thread = threading.Thread(target=self._read, args=(url, headers), daemon=True)
        self._thread.start()

    def _seen(self, events: list[Event]) -> bool:
        if any(e.get("event") == "ruling" for e in events):
            self.ruled.set()
        return False  # read to the end

    def _read(self, url: str, headers: dict[str, str]) -> None:
        try:  # bounded: a stream that does not end fails on the read timeout
            self.events = read_events(url, headers, self._seen, self.opened.set, timeout=20)
            self.ended = time.monotonic()
        except BaseException as error:
            self.failure = error
        finally:
            self.opened.set()
            self.ruled.set()

    def join(self) -> Page:
        self._thread.join(timeout=30)
        assert not self._thread.is_alive(), "the stream was still open after 30 s"
        assert self.failure is None, self.failure
        return self


class Rulings:
    """The GM makes a ruling every few hundredths of a second through ``base`` (another server)
    until stopped: the store never rests while a server stops."""

    def __init__(self, base: str, headers: dict[str, str]) -> None:
        self.made = 0
        self._stop = threading.Event()
        self._args = (base, headers)
        self._thread = threading.Thread(target=self._make, daemon=True)
        self._thread.start()

    def _make(self) -> None:
        base, headers = self._args
        with httpx.Client(headers=headers, timeout=30) as client:
            while not self._stop.wait(0.02):
                body = {"params": {"text": f"Ruling {self.made} of the night"}}
                answer = client.post(f"{base}{API}/commands/note", json=body)
                assert 201 == answer.status_code, answer.text
                self.made += 1

    def until(self, count: int) -> None:
        deadline = time.monotonic() + 30
        while self.made < count:
            assert self._thread.is_alive(), "the rulings stopped"
            assert time.monotonic() < deadline, f"{count} rulings were not made in 30 s"
            time.sleep(0.01)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)


def _latest(db: str) -> int:
    with Engine(db) as engine:
        return engine.campaign(CAMPAIGN).rulings


def _rulings(events: list[Event]) -> list[int]:
    return [int(e["id"]) for e in events if e.get("event") == "ruling"]


def _clean(served: Served) -> None:
    """It exited 0 and said nothing went wrong."""
    output = served.output()
    assert 0 == served.process.returncode, output
    assert "Traceback" not in output
    assert "ERROR" not in output


@contextmanager
def _store(kind: str, tmp_path: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield str(tmp_path / "zion.db")
        return
    from tests.postgres import fresh_schema

    with fresh_schema() as url:
        yield url


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_page_on_a_stopped_server_resumes_on_another_and_misses_no_ruling(
    tmp_path: Path, kind: str
) -> None:
    """Two servers of one store; a player's page follows A while the GM rules through B. A gets
    SIGTERM: the page's stream ends with a ``retry`` and EOF within a moment, A exits 0 with no
    traceback; the page reconnects to B with its Last-Event-ID and is sent every ruling after
    it, none twice, none missed, up to the last made."""
    with _store(kind, tmp_path) as db:
        table = build_table(db)
        start = _latest(db)
        with (
            serving(db, tmp_path / "a.log") as a,
            serving(db, tmp_path / "b.log") as b,
        ):
            page = Page(f"{a.base}{PAGE}/events?after={start}", table.headers("player"))
            rulings = Rulings(b.base, table.headers("gm"))
            assert page.ruled.wait(30), "no ruling reached the page on A"
            stopped = a.terminate()
            page.join()
            a.process.wait(timeout=EXITS_WITHIN)
            exited = time.monotonic()
            rulings.until(rulings.made + 5)  # more made after A is gone
            rulings.stop()
            last = _latest(db)
            seen = page.events[-2]["id"]  # the browser's last event id: A's last `changed`
            resumed = read_events(
                f"{b.base}{PAGE}/events",
                table.headers("player") | {"Last-Event-ID": seen},
                lambda got: {"event": "changed", "id": str(last), "data": str(last)} in got,
            )
    assert page.ended is not None
    assert {"retry": str(AWAY_RETRY_MS)} == page.events[-1]  # then EOF: reconnect
    assert page.ended - stopped < ENDS_WITHIN
    assert exited - stopped < EXITS_WITHIN
    _clean(a)
    assert list(range(start + 1, last + 1)) == _rulings(page.events) + _rulings(resumed)
    assert _rulings(page.events)
    assert _rulings(resumed)


def test_many_open_pages_do_not_hold_a_stop_up(tmp_path: Path) -> None:
    """50 pages open on one server: on SIGTERM each stream ends with a ``retry`` and EOF, and
    the process exits 0 well within the bound, no traceback in its log."""
    table = build_table(str(tmp_path / "zion.db"))
    start = _latest(table.db)
    with serving(table.db, tmp_path / "a.log") as a:
        url = f"{a.base}{PAGE}/events?after={start}"
        roles = ("gm", "player", "other", "observer")
        pages = [Page(url, table.headers(roles[n % len(roles)])) for n in range(STREAMS)]
        for page in pages:
            assert page.opened.wait(30), "a page did not open"
        stopped = a.terminate()
        a.process.wait(timeout=EXITS_WITHIN)
        exited = time.monotonic()
        for page in pages:
            page.join()
    assert exited - stopped < EXITS_WITHIN
    _clean(a)
    assert [{"retry": str(AWAY_RETRY_MS)}] * STREAMS == [page.events[-1] for page in pages]
    assert all(page.ended is not None and page.ended - stopped < ENDS_WITHIN for page in pages)
    print(f"{STREAMS} pages: exited {exited - stopped:.2f} s after SIGTERM", file=sys.stderr)


def _someone_waits_for(path: str) -> bool:
    """Whether a process is blocked waiting for the ``flock`` on ``path`` (``/proc/locks``)."""
    inode = f":{os.stat(path).st_ino} "
    return any("-> FLOCK" in line and inode in line for line in open("/proc/locks"))


def _listening(base: str) -> bool:
    host, _, port = base.removeprefix("http://").partition(":")
    with socket.socket() as probe:
        return probe.connect_ex((host, int(port))) == 0


def _poll(holds: Any, what: str, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while not holds():
        assert time.monotonic() < deadline, f"{what} not within {within} s"
        time.sleep(0.02)


def test_a_request_in_flight_when_the_server_stops_is_answered(tmp_path: Path) -> None:
    """A roll waiting for the store's write lock (the test holds it) when SIGTERM comes: the
    server stops listening, and once the lock is let go the roll is recorded, answered 201, and
    the process exits 0 with no traceback."""
    table = build_table(str(tmp_path / "zion.db"))
    lock = f"{table.db}-lock"
    answers: list[httpx.Response] = []
    body = {"params": {"expression": "2d6", "why": "in flight"}, "dice": [3, 4]}
    with serving(table.db, tmp_path / "a.log") as a:
        held = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(held, fcntl.LOCK_EX)
            url = f"{a.base}{API}/commands/dice"
            rolling = threading.Thread(
                target=lambda: answers.append(
                    httpx.post(url, json=body, headers=table.headers("gm"), timeout=30)
                )
            )
            rolling.start()
            _poll(lambda: _someone_waits_for(lock), "the roll waiting for the lock")
            a.terminate()
            _poll(lambda: not _listening(a.base), "the server closing its port")
        finally:
            os.close(held)  # lets the roll go on
        rolling.join(timeout=30)
        a.process.wait(timeout=EXITS_WITHIN)
    assert [201] == [answer.status_code for answer in answers]
    _clean(a)
    assert _latest(table.db) == answers[0].json()["ruling"]  # recorded, as the last ruling
