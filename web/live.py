"""Live pages: ``GET /campaigns/{campaign}/events``, a server-sent event stream of the rulings
recorded from now on, each rendered for the signed-in member (what they may not read is never
sent), then a ``changed`` event (the page fetches itself again for what a ruling changed
elsewhere: a struck ruling, a sheet, a dispute).

The server holds nothing of the campaign: the streams learn of new rulings from the store, and
a process follows it once for all its streams (``Feed``). One thread follows the store's position
(``engine.store_changes``: LISTEN on PostgreSQL, so a ruling another server process wrote wakes it
at once; a short poll of one ``MAX`` on a SQLite file); one more reads what is new once per
campaign that has streams open, renders each new ruling once per distinct view of it
(``view_of``: the GMs, the players and observers who read the same rulings of it, each private
audience) and hands the result to every open stream of that view. A stream holds no thread and
no connection of its own while it waits.

A stream remembers the credential that opened it (``SignedIn.credential``), and a third thread
sends a keep-alive comment to each stream quiet for ``KEEP_ALIVE`` seconds (one thread for them
all: a timer a stream, armed again at each of its deliveries, cost a third of a fan-out's work
on the event loop) and asks the store every ``CHECK`` seconds, in one indexed query for every
open stream's, which of them still sign in (``Engine.still_signed_in``): a stream whose
session or token was revoked (`campaign member revoke`, from any process), signed out, gone
with its member's seat or expired is ended, as a member who loses their seat has their stream
ended at the ruling that unseats them.

When the process stops (``Feed.end``: `campaign serve` calls it on SIGTERM as soon as it stops
taking connections, before it waits for the requests in flight) every stream is sent a
``retry`` and ends cleanly: the browser reconnects, with its ``Last-Event-ID``, to whichever
server the proxy sends it to, and is sent from there every ruling after the last it has."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable, Collection, Iterable
from typing import Any

from attrs import define, field, frozen
from litestar import Request, get
from litestar.params import FromPath, FromQuery
from litestar.response import ServerSentEventMessage
from litestar.response import Stream as Streamed

from domain.audience import GMS, Member
from domain.campaign import CampaignState
from domain.errors import DomainError
from domain.visibility import hidden_from, reads_all
from engine import LoggedRuling, as_read_by, log_entry, store_changes
from web.auth import signed_in
from web.dependencies import You
from web.engines import Engines
from web.render import Reader, reader_of

log = logging.getLogger("campaign.web")
KEEP_ALIVE = 15.0  # seconds between comments on a quiet stream (a proxy closes idle ones)
RETRY_MS = 2000  # how soon a browser reconnects a dropped stream
AWAY_RETRY_MS = 500  # how soon it reconnects (to another server) a stream ended by a stop
HEADERS = {"cache-control": "no-store", "connection": "keep-alive", "x-accel-buffering": "no"}
BEHIND = 256  # deliveries a stream may leave unsent before it is dropped (the browser reconnects)
CHECK = 0.5  # seconds between checks that the open streams' credentials still sign in

Rendered = list[tuple[int, str]]  # (ruling number, its HTML)
View = tuple[str, frozenset[int]]
OPENING = ServerSentEventMessage(comment="live", retry=RETRY_MS).encode()
KEPT_ALIVE = ServerSentEventMessage(comment="keep-alive").encode()
RECONNECT = f": server stopping\r\nretry: {AWAY_RETRY_MS}\r\n\r\n".encode()  # no event, no data


@frozen
class Sent:
    """What the streams of one view are sent after a change: the rulings (as HTML), the
    campaign's last ruling, and both as the bytes of their events (encoded once for them all)."""

    rendered: Rendered
    last: int
    payload: bytes


TURN = 10  # streams woken a turn of the event loop (``Pump``)
PACE = 0.001  # seconds from one turn to the next: the requests that came in meanwhile run then


@frozen
class KeptAlive:
    """A keep-alive comment for a quiet stream (it does not end it)."""

    payload: bytes = KEPT_ALIVE


KEEP = KeptAlive()


def encoded(rendered: Rendered, last: int) -> Sent:
    events = [ServerSentEventMessage(data=html, event="ruling", id=n) for n, html in rendered]
    events.append(ServerSentEventMessage(data=str(last), event="changed", id=last))
    return Sent(rendered, last, b"".join(e.encode() for e in events))


Delivery = Sent | KeptAlive | bytes | None  # None: the stream ends; bytes: its last words


def view_of(campaign: CampaignState, member: str, numbers: Collection[int]) -> View:
    """What decides how ``member`` reads the rulings ``numbers``: their role (what the page lets
    them do) and which of those rulings are kept from them (a GM: none; a player or an
    observer: the GM's hidden ones, those private to others). Members with one view read the
    same HTML. Raises ``NotAMember`` for a member who lost their seat."""
    if reads_all(campaign, Member(member)):  # refuses a member with no seat
        return reader_of(campaign, member).role, frozenset()
    kept = hidden_from(campaign, Member(member))
    return reader_of(campaign, member).role, frozenset(n for n in numbers if n in kept)


@define(eq=False)
class Stream:
    """One open event stream: whose, of which campaign, the last ruling it has, where its
    deliveries wait (an asyncio queue of the loop serving it), and the credential that opened
    it (``SignedIn.credential``; a stream with none is ended at the first check)."""

    campaign: str
    member: str
    position: int | None  # None: from the campaign's last ruling when the feed first reads it
    loop: asyncio.AbstractEventLoop
    credential: str = ""
    queue: asyncio.Queue[Delivery] = field(factory=asyncio.Queue)
    closed: bool = False
    quiet_since: float = field(factory=time.monotonic)  # when it was last handed anything


class Feed:
    """The process's one follower of the store and renderer of new rulings for its streams
    (``template``: the page's ruling element, given by the first stream to open)."""

    def __init__(
        self,
        engines: Engines,
        poll: float = 0.1,
        check: float = CHECK,
        keep_alive: float = KEEP_ALIVE,
    ) -> None:
        self.engines = engines
        self.poll = poll
        self.check = check
        self.keep_alive = keep_alive
        self.renders = 0  # rulings rendered (each once per view of them)
        self._streams: dict[str, set[Stream]] = defaultdict(set)
        self._lock = threading.Lock()
        self._due = threading.Event()  # the store moved, or a stream opened
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._pumps: dict[asyncio.AbstractEventLoop, Pump] = {}  # under self._lock
        self.template: Any = None

    # --- Streams, on the event loop ------------------------------------------------------------

    def open(
        self, campaign: str, member: str, position: int | None, template: Any, credential: str
    ) -> Stream:
        """A stream of ``campaign`` for ``member`` from after ruling ``position``, open while
        ``credential`` signs them in."""
        stream = Stream(campaign, member, position, asyncio.get_running_loop(), credential)
        if self._stop.is_set():  # the process is stopping: reconnect to another
            _put_all([(stream, RECONNECT)])
            return stream
        with self._lock:
            self.template = self.template or template
            self._streams[campaign].add(stream)
            self._start()
        self._due.set()
        return stream

    def close(self, stream: Stream) -> None:
        with self._lock:
            streams = self._streams.get(stream.campaign)
            if streams is not None:
                streams.discard(stream)
                if not streams:
                    del self._streams[stream.campaign]

    def end(self) -> None:
        """The process is stopping: tell every open stream to reconnect (``RECONNECT``) and end
        it, stop following the store, and end at once any stream opened from now on. Returns
        without waiting (it may be called on the event loop: each stream ends on its loop)."""
        self._stop.set()
        self._due.set()
        with self._lock:
            every = [s for streams in self._streams.values() for s in streams]
        self._send([(s, RECONNECT) for s in every])

    def stop(self) -> None:
        """End every stream (``end``) and the threads (before the engine closes under them)."""
        self.end()
        with self._lock:
            threads, self._threads = self._threads, []
        for thread in threads:
            thread.join(timeout=3)

    # --- The threads -----------------------------------------------------------------------------

    def _start(self) -> None:
        if self._threads or self._stop.is_set():  # under self._lock
            return
        for name, target in (
            ("store-watcher", self._watch),
            ("live-feed", self._fan_out),
            ("sign-in-check", self._guard),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def _watch(self) -> None:
        while not self._stop.is_set():
            try:
                for _ in store_changes(self.engines.get(), self._stop, poll=self.poll):
                    self._due.set()
            except Exception:  # a lost connection: say so, wait, listen again
                log.exception("watching the store failed; trying again")
                self._stop.wait(1.0)

    def _fan_out(self) -> None:
        while not self._stop.is_set():
            self._due.wait()
            self._due.clear()
            if self._stop.is_set():
                return
            with self._lock:
                campaigns = {name: list(streams) for name, streams in self._streams.items()}
            for name, streams in campaigns.items():
                try:
                    self._send(self.deliveries(name, streams))
                except Exception:  # the store failed: say so, try again in a moment
                    log.exception("following campaign %r failed; trying again", name)
                    self._stop.wait(1.0)
                    self._due.set()

    def _guard(self) -> None:
        while not self._stop.wait(self.check):
            with self._lock:
                every = [s for streams in self._streams.values() for s in streams]
            self._send(self.quiet(every))
            try:
                self._send(self.signed_out(every))
            except Exception:  # the store failed: say so, check again at the next turn
                log.exception("checking the open streams' sign-ins failed; trying again")

    # --- What each stream is sent ------------------------------------------------------------

    def quiet(self, streams: Collection[Stream]) -> list[tuple[Stream, Delivery]]:
        """A keep-alive comment for each of ``streams`` handed nothing for ``keep_alive``
        seconds (a proxy closes a connection idle for long)."""
        now = time.monotonic()
        due = [s for s in streams if now - s.quiet_since >= self.keep_alive]
        for stream in due:
            stream.quiet_since = now
        return [(stream, KEEP) for stream in due]

    def signed_out(self, streams: Collection[Stream]) -> list[tuple[Stream, Delivery]]:
        """The end (None) for each of ``streams`` whose credential no longer signs in: one
        query for them all (none with no stream open)."""
        if not streams:
            return []
        held = self.engines.get().still_signed_in({s.credential for s in streams})
        return [(stream, None) for stream in streams if stream.credential not in held]

    def deliveries(self, name: str, streams: list[Stream]) -> list[tuple[Stream, Delivery]]:
        """What each stream of campaign ``name`` is sent now: the rulings after its position,
        read once per distinct position and rendered once per view."""
        engine = self.engines.get()
        campaign = engine.campaign(name)
        last = campaign.rulings
        behind: dict[int, list[Stream]] = defaultdict(list)
        for stream in streams:
            if stream.position is None or stream.position > last:
                stream.position = last  # from now on
            elif stream.position < last:
                behind[stream.position].append(stream)
        sent: list[tuple[Stream, Delivery]] = []
        for seen, waiting in behind.items():
            numbers = range(seen + 1, last + 1)
            logged = engine.log(name, rulings=numbers, audience=GMS)  # every one: shown per view
            by_member: dict[str, list[Stream]] = defaultdict(list)
            for stream in waiting:
                by_member[stream.member].append(stream)
            views: dict[View, list[Stream]] = defaultdict(list)
            for member, theirs in by_member.items():  # a view a member, not a stream
                try:
                    views[view_of(campaign, member, numbers)] += theirs
                except DomainError:  # no longer seated: their streams end, unsent
                    sent += [(stream, None) for stream in theirs]
            for (role, _), readers in views.items():
                delivery = encoded(self._render(campaign, readers[0].member, role, logged), last)
                sent += [(stream, delivery) for stream in readers]
                for stream in readers:
                    stream.position = last
                time.sleep(0)  # between two views' renders, the event loop may run
        return sent

    def _render(
        self, campaign: CampaignState, member: str, role: str, logged: list[LoggedRuling]
    ) -> Rendered:
        """The rulings ``member`` may read of ``logged``, as the page's ruling element, laid out
        for a reader of ``role`` who is no one in particular (every member of the view reads
        this same HTML: the template is given nothing of the member but their role)."""
        anyone = Reader(name="", role=role, characters=())
        shown = as_read_by(campaign, Member(member), logged)
        self.renders += len(shown)
        return [
            (
                entry.ruling.number,
                self.template.render(r=log_entry(entry, campaign), reader=anyone),
            )
            for entry in shown
        ]

    def _send(self, deliveries: Iterable[tuple[Stream, Delivery]]) -> None:
        """Hand each delivery to its stream's loop, through the loop's one ``Pump``."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Stream, Delivery]]] = defaultdict(list)
        for stream, delivery in deliveries:
            by_loop[stream.loop].append((stream, delivery))
        for loop, some in by_loop.items():
            with self._lock:
                pump = self._pumps.get(loop) or self._pumps.setdefault(loop, Pump(loop))
            with contextlib.suppress(RuntimeError):  # a loop already closed
                loop.call_soon_threadsafe(pump.add, some)


class Pump:
    """The deliveries waiting for the streams of one event loop, handed ``TURN`` a turn of the
    loop and the turns ``PACE`` seconds apart, in the order the feed sent them (so a stream is
    never handed a later ruling before an earlier one). Only its loop touches it.

    A request that comes in during a fan-out runs between two turns: its steps and its worker
    thread do not take turns with every open stream's write. Measured with 500 streams open and
    a ruling every 0.25 s (the bench's fan-out figure), ``GET /api/me``'s p99 against none
    open: 1.6x-2.0x on SQLite and PostgreSQL with the turns back to back, 0.9x-1.5x paced; a
    ruling reaches the last of 500 streams some 45 ms later for it (about 85 ms after its
    answer on PostgreSQL)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: deque[tuple[Stream, Delivery]] = deque()  # not empty: a turn is due

    def add(self, deliveries: list[tuple[Stream, Delivery]]) -> None:
        idle = not self.waiting
        self.waiting.extend(deliveries)
        if idle:
            self.turn()

    def turn(self) -> None:
        _put_all([self.waiting.popleft() for _ in range(min(TURN, len(self.waiting)))])
        if self.waiting:
            self.loop.call_later(PACE, self.turn)


def _put_all(deliveries: list[tuple[Stream, Delivery]]) -> None:
    for stream, delivery in deliveries:
        if stream.closed:
            continue
        if isinstance(delivery, bytes):
            stream.closed = True  # its last words
        elif delivery is None or stream.queue.qsize() >= BEHIND:
            stream.closed = True  # a reader that stopped reading is let go
            delivery = None
        stream.quiet_since = time.monotonic()
        stream.queue.put_nowait(delivery)


# Out of Litestar's CSRF middleware: a GET that changes nothing and needs no CSRF cookie set (the
# page that opens it has one), whose every write would otherwise pass through its send wrapper.
@get("/campaigns/{campaign:str}/events", include_in_schema=False, exclude_from_csrf=True)
async def events(
    request: Request[Any, Any, Any],
    you: You,
    campaign: FromPath[str],
    after: FromQuery[int | None] = None,
) -> Streamed:
    """The rulings recorded after ruling ``after`` (or the browser's ``Last-Event-ID``), as the
    signed-in member reads them, as they are recorded."""
    credential = signed_in(request, campaign).credential  # this campaign's, of the browser's
    feed: Feed = request.app.state.feed
    last_id = request.headers.get("last-event-id", "")
    start = int(last_id) if last_id.isdigit() else after
    templates: Any = request.app.template_engine
    template = templates.get_template("_ruling.html")

    async def stream() -> AsyncIterator[bytes]:
        opened = feed.open(campaign, you, start, template, credential)
        try:
            yield OPENING
            while True:
                delivery = await opened.queue.get()  # a keep-alive when quiet (``Feed.quiet``)
                if delivery is None:
                    return
                if isinstance(delivery, bytes):  # the server is stopping: reconnect elsewhere
                    yield delivery
                    return
                yield delivery.payload  # the same bytes for every stream of its view
        finally:
            feed.close(opened)

    # Server-sent events, written as bytes the feed encoded once per view (not per stream).
    return Streamed(stream(), media_type="text/event-stream", headers=HEADERS)


def routes() -> list[Callable[..., Any]]:
    return [events]
