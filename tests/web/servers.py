"""Real servers for the live tests: the app on uvicorn in a thread of the test, or `campaign
serve` as a process of its own, each on 127.0.0.1 and a free port, stopped when the test is
done; the system's Chromium for Playwright (never a downloaded browser); and a small
server-sent events reader."""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from bench.server_figures import free_port, running
from web import create_app
from web.serving import Server

Event = dict[str, str]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[Any]:
    """The system's Chromium under Playwright (``executable_path``), closed when done."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def signed_in(
    browser: Any, base: str, db: str, campaign: str, member: str, **opts: Any
) -> tuple[Any, Any]:
    """A new browser context (1280 x 900 unless ``opts`` say otherwise) signed in as
    ``member`` by their invite link, and its page, on the campaign's table."""
    from engine import Engine

    context = browser.new_context(**({"viewport": {"width": 1280, "height": 900}} | opts))
    page = context.new_page()
    with Engine(db) as engine:
        secret = engine.invite(campaign, member)
    page.goto(f"{base}/join/{secret}")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/campaigns/"))
    return context, page


SERIOUS = ("serious", "critical")  # the axe impacts a page test fails on


def wanting(violations: list[dict[str, Any]], page: Any, where: str, width: int) -> list[str]:
    """What fails a page at ``width`` px, a line each after ``where``: axe-core's serious and
    critical violations (up to three of their nodes), and the page if it is wider."""
    found = [
        f"{where}: {v['id']} {[n['target'] for n in v['nodes']][:3]}"
        for v in violations
        if v["impact"] in SERIOUS
    ]
    wide = page.evaluate("document.documentElement.scrollWidth")
    return found + ([f"{where}: {wide} px wide"] if wide > width else [])


@contextmanager
def serving_in_thread(db: str, app: Any = None) -> Iterator[str]:
    """The app of ``db`` (or ``app``) on uvicorn in a thread: its base URL, until the block
    ends."""
    served = app or create_app(db)
    config = uvicorn.Config(
        served,
        host="127.0.0.1",
        port=free_port(),
        log_level="warning",
        timeout_graceful_shutdown=1,  # a request left hanging does not hold the stop up
    )
    server = Server(config, served.state.feed)  # ends the open event streams as it stops
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive(), "the server stopped as it started"
        assert time.monotonic() < deadline, "the server did not start in 30 s"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        assert not thread.is_alive(), "the server did not stop"


@contextmanager
def serving_process(db: str, *options: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """`campaign --db DB serve [OPTIONS]` on a free port (``env`` added to its environment), run
    as the bench runs its servers: its base URL, until the block ends (SIGINT). What the server
    prints goes to a file (a pipe nobody reads would fill and stop it), printed when the block
    ends, so a failing test shows the server's tracebacks."""
    port = free_port()
    command = [str(Path(sys.executable).with_name("campaign")), "--db", db, "serve", *options]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "serve.log"
        try:
            with running(command, port, "/schema/openapi.json", log, env, starting=30) as base:
                yield base
        finally:  # shown by pytest only for a failing test
            print(log.read_text(errors="replace") if log.exists() else "", file=sys.stderr)


def read_events(
    url: str,
    headers: dict[str, str],
    until: Callable[[list[Event]], bool],
    when_open: Callable[[], None] = lambda: None,
    timeout: float = 10.0,
) -> list[Event]:
    """The events of a server-sent event stream, read until ``until`` holds of them;
    ``when_open`` runs once the stream has started (its first comment)."""
    events: list[Event] = []
    current: Event = {}
    opened = False
    with httpx.stream("GET", url, headers=headers, timeout=timeout) as response:
        assert 200 == response.status_code, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith(":"):
                if not opened:
                    opened = True
                    when_open()
                continue
            if line == "":
                if current:
                    events.append(current)
                    current = {}
                    if until(events):
                        return events
                continue
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            current[field] = f"{current[field]}\n{value}" if field in current else value
    return events
