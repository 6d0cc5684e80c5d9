"""Live pages: ``GET /campaigns/{campaign}/events``, a server-sent event stream of the rulings
recorded from now on, each rendered for the signed-in member (what they may not read is never
sent), then a ``changed`` event (the page fetches itself again for what a ruling changed
elsewhere: a struck ruling, a sheet, a dispute).

The server holds nothing of the campaign: a stream learns of new rulings from the store.
One watcher thread per process follows the store's position (``engine.store_changes``: LISTEN
on PostgreSQL, so a ruling another server process wrote wakes it at once; a short poll of one
``MAX`` on a SQLite file) and wakes the streams, which read what is new from the store."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
from litestar import Request, get
from litestar.params import FromPath, FromQuery
from litestar.response import ServerSentEvent, ServerSentEventMessage

from engine import store_changes
from web.auth import seat
from web.engines import Engines
from web.render import reader_of, ruling_view

log = logging.getLogger("campaign.web")
KEEP_ALIVE = 15.0  # seconds between comments on a quiet stream (a proxy closes idle ones)
RETRY_MS = 2000  # how soon a browser reconnects a dropped stream


class Watcher:
    """Follows the store's position in a thread of its own; ``changed`` waits for it to move."""

    def __init__(self, engines: Engines, poll: float = 0.25) -> None:
        self.engines = engines
        self.poll = poll
        self.position = -1
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._waiting: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="store-watcher", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                for now in store_changes(self.engines.get(), self._stop, poll=self.poll):
                    self.position = now
                    self._wake()
            except Exception:  # a lost connection: say so, wait, listen again
                log.exception("watching the store failed; trying again")
                self._stop.wait(1.0)

    def _wake(self) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, []
        for loop, event in waiting:
            with contextlib.suppress(RuntimeError):  # a loop already closed
                loop.call_soon_threadsafe(event.set)

    async def changed(self, seen: int, timeout: float) -> bool:
        """Whether the store moved past position ``seen`` within ``timeout`` seconds."""
        self.start()
        event = asyncio.Event()
        with self._lock:
            self._waiting.append((asyncio.get_running_loop(), event))
        if self.position != seen or self._stop.is_set():
            return self.position != seen
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
        return self.position != seen


def _new_rulings(
    request: Request[Any, Any, Any], campaign: str, member: str, seen: int | None
) -> tuple[int, list[tuple[int, str]]]:
    """The campaign's last ruling number and the rulings after ``seen`` the member may read,
    each rendered as the page's ruling element."""
    engine = request.app.state.engines.get()
    state = engine.campaign(campaign)
    last: int = state.rulings
    if seen is None or last <= seen:
        return last, []
    reader = reader_of(state, member)
    templates: Any = request.app.template_engine
    template = templates.get_template("_ruling.html")
    rendered = [
        (
            logged.ruling.number,
            template.render(r=ruling_view(logged, state), reader=reader),
        )
        for logged in engine.log(campaign, rulings=range(seen + 1, last + 1), reader=member)
    ]
    return last, rendered


@get("/campaigns/{campaign:str}/events", include_in_schema=False)
async def events(
    request: Request[Any, Any, Any], campaign: FromPath[str], after: FromQuery[int | None] = None
) -> ServerSentEvent:
    """The rulings recorded after ruling ``after`` (or the browser's ``Last-Event-ID``), as the
    signed-in member reads them, as they are recorded."""
    member = seat(request, campaign)
    watcher: Watcher = request.app.state.watcher
    last_id = request.headers.get("last-event-id", "")
    start = int(last_id) if last_id.isdigit() else after

    async def stream() -> AsyncIterator[ServerSentEventMessage]:
        seen = start
        yield ServerSentEventMessage(comment="live", retry=RETRY_MS)
        while True:
            position = watcher.position
            last, rendered = await anyio.to_thread.run_sync(
                _new_rulings, request, campaign, member, seen
            )
            for number, html in rendered:
                yield ServerSentEventMessage(data=html, event="ruling", id=number)
            if seen is not None and last != seen:
                yield ServerSentEventMessage(data=str(last), event="changed", id=last)
            seen = last
            if not await watcher.changed(position, KEEP_ALIVE):
                yield ServerSentEventMessage(comment="keep-alive")

    return ServerSentEvent(
        stream(), headers={"cache-control": "no-store", "x-accel-buffering": "no"}
    )


def routes() -> list[Any]:
    return [events]
