"""The live pages' event stream (``/campaigns/{campaign}/events``): each new ruling, rendered
for its reader, learnt from the store and not from the process that wrote it. On a SQLite file a
ruling another process records arrives (the server polls the store's position); on PostgreSQL two
`campaign serve` processes share one database, and a ruling written through one arrives on the
other's stream (LISTEN/NOTIFY)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest.mock import patch

import httpx
import pytest
from markupsafe import escape

from domain.free_rolls import RollFreely
from domain.lifecycle import AddNote
from domain.posts import WritePost
from domain.table import RemoveMember
from engine import DiceSpec, Engine
from tests.web.conftest import CAMPAIGN, GM_NOTE, build_table
from tests.web.servers import Event, read_events, serving_in_thread, serving_process
from web import live

PAGE = f"/campaigns/{CAMPAIGN}"


def _rulings(events: list[Event]) -> list[int]:
    return [int(e["id"]) for e in events if e.get("event") == "ruling"]


def _changed_to(number: int) -> Any:
    return lambda got: {"event": "changed", "id": str(number), "data": str(number)} in got


def _latest(db: str) -> int:
    with Engine(db) as engine:
        return engine.campaign(CAMPAIGN).rulings


def test_a_ruling_recorded_elsewhere_arrives_rendered_for_each_reader(tmp_path: Path) -> None:
    """On a SQLite file, rulings another process records reach the stream: the GM's stream gets
    the GM-only note and the public note after it; alice's gets the public note alone, as her
    page shows it (a dispute button, no undo)."""
    table = build_table(str(tmp_path / "zion.db"))
    after = _latest(table.db)
    secret, public = after + 1, after + 2

    def record() -> None:
        with Engine(table.db) as engine:  # not the server: it learns of it from the store
            engine.execute(CAMPAIGN, AddNote(text=GM_NOTE, gm_only=True))
            engine.execute(CAMPAIGN, AddNote(text="Tea is served"))

    with serving_in_thread(table.db) as base:
        url = f"{base}{PAGE}/events?after={after}"
        seen = read_events(url, table.headers("player"), _changed_to(public), record)
        gm = read_events(url, table.headers("gm"), _changed_to(public))
    assert [public] == _rulings(seen)
    shown = next(e["data"] for e in seen if e.get("event") == "ruling")
    assert "Tea is served" in shown
    assert f'id="r-{public}"' in shown
    assert "Dispute #" in shown
    assert "Undo #" not in shown
    assert GM_NOTE not in "".join(e.get("data", "") for e in seen)
    assert [secret, public] == _rulings(gm)
    assert "Undo #" in next(e["data"] for e in gm if e.get("id") == str(public))


def test_the_stream_resumes_after_the_last_event_id(tmp_path: Path) -> None:
    """A browser that reconnects sends Last-Event-ID: the stream starts after that ruling."""
    table = build_table(str(tmp_path / "zion.db"))
    latest = _latest(table.db)
    with serving_in_thread(table.db) as base:
        headers = {**table.headers("gm"), "last-event-id": str(latest - 1)}
        got = read_events(f"{base}{PAGE}/events?after=1", headers, lambda e: bool(_rulings(e)))
    assert [latest] == _rulings(got)


def test_a_signed_out_visitor_is_told_how_to_sign_in(tmp_path: Path) -> None:
    """Pages answer a visitor with no session with an HTML page on invite links (401), and the
    stream is refused; the JSON API still answers JSON."""
    table = build_table(str(tmp_path / "zion.db"))
    with serving_in_thread(table.db) as base:
        page = httpx.get(base + PAGE, timeout=5)
        stream = httpx.get(base + PAGE + "/events", timeout=5)
        api = httpx.get(f"{base}/api{PAGE}", timeout=5)
    assert 401 == page.status_code
    assert page.headers["content-type"].startswith("text/html")
    assert "invite" in page.text
    assert 401 == stream.status_code
    assert "NOT_SIGNED_IN" == api.json()["error"]["code"]


@pytest.mark.postgres
def test_two_servers_on_one_postgresql_database_share_the_live_log() -> None:
    """Two `campaign serve` processes on one PostgreSQL schema: a ruling the GM writes through
    the first arrives on alice's stream from the second, as it is recorded."""
    from tests.postgres import fresh_schema

    with fresh_schema() as url:
        table = build_table(url)
        after = _latest(url)
        with serving_process(url) as first, serving_process(url) as second:

            def write() -> None:
                response = httpx.post(
                    f"{first}/api{PAGE}/commands/note",
                    json={"params": {"text": "Written through the first server"}},
                    headers=table.headers("gm"),
                    timeout=10,
                )
                assert 201 == response.status_code, response.text

            got = read_events(
                f"{second}{PAGE}/events?after={after}",
                table.headers("player"),
                lambda events: bool(_rulings(events)),
                write,
            )
    assert [after + 1] == _rulings(got)
    assert "Written through the first server" in next(e["data"] for e in got if "event" in e)


def test_every_asset_is_the_apps_own(tmp_path: Path) -> None:
    """The table page loads its scripts from this server (its own, and the witnesses' beside
    the head it shows, whose data is a JSON block that never runs), and says so in its CSP."""
    from litestar.testing import TestClient

    from web import create_app

    table = build_table(str(tmp_path / "zion.db"))
    client: Any
    with TestClient(create_app(table.db)) as client:
        page = client.get(PAGE, headers=table.headers("player"))
        script = client.get("/static/table.js")
    assert 200 == page.status_code
    assert "script-src 'self'" in page.headers["content-security-policy"]
    scripts = [line for line in page.text.splitlines() if "<script" in line]
    assert ['<script src="/static/witness.js" defer></script>'] == scripts[1:2]
    assert ['<script src="/static/table.js" defer></script>'] == scripts[2:]
    assert scripts[0].startswith('<script type="application/json" id="witness-data">{')
    assert "http" not in page.text.split("<body>", 1)[1].replace(f"/api{PAGE}", "")
    assert 200 == script.status_code
    assert "EventSource" in script.text


# --- One feed per process, fanned out ---------------------------------------------------------

PRIVATE = "Meet me at the docks"
HIDDEN = "whether the agents notice"
PUBLIC = "Rain on the rooftop"


def _record_for_every_audience(db: str) -> None:
    """A public note, a GM-only note, a message private to bob, a hidden roll (in that order)."""
    with Engine(db) as engine:
        engine.execute(CAMPAIGN, AddNote(text=PUBLIC))
        engine.execute(CAMPAIGN, AddNote(text=GM_NOTE, gm_only=True))
        message = WritePost(text=PRIVATE, to=("bob",), by="Morpheus")
        engine.execute(CAMPAIGN, message)
        secret = RollFreely(expression="1d6", why=HIDDEN)
        engine.execute(CAMPAIGN, secret, dice=DiceSpec(faces=(2,)), hidden=True)


READS = {  # who reads which of the four rulings (offsets after the table's last ruling)
    "Morpheus": [1, 2, 3, 4],
    "alice": [1],
    "bob": [1, 3],
    "olly": [1],
}
SECRETS = {1: PUBLIC, 2: GM_NOTE, 3: PRIVATE, 4: HIDDEN}


def test_each_new_ruling_is_rendered_once_per_view_and_sent_to_every_stream_of_it(
    tmp_path: Path,
) -> None:
    """Ten streams of four readers: the feed reads the four new rulings once, works out each
    reader's view once, and renders each ruling once per view (the GMs 4, alice 1, bob 2 with
    his private message, the observer 1: 8, not one per stream), and every stream of a view is
    handed that same HTML, with nothing its reader may not read."""
    import asyncio

    from web import create_app
    from web.live import Stream

    table = build_table(str(tmp_path / "zion.db"))
    after = _latest(table.db)
    _record_for_every_audience(table.db)
    app = create_app(table.db)
    feed = app.state.feed
    feed.template = app.template_engine.get_template("_ruling.html")
    counts = {"Morpheus": 3, "alice": 3, "bob": 2, "olly": 2}

    async def deliver() -> list[tuple[Stream, Any]]:
        loop = asyncio.get_running_loop()
        streams = [
            Stream(CAMPAIGN, who, after, loop) for who, n in counts.items() for _ in range(n)
        ]
        return list(feed.deliveries(CAMPAIGN, streams))

    viewed: list[str] = []
    original = live.view_of

    def view_of(campaign: Any, member: str, numbers: Any) -> Any:
        viewed.append(member)
        return original(campaign, member, numbers)

    try:
        with patch.object(live, "view_of", view_of):
            sent = asyncio.run(deliver())
    finally:
        app.state.engines.close()
    assert sorted(counts) == sorted(viewed)  # a view worked out once a member, not a stream
    assert 8 == feed.renders
    assert 10 == len(sent)
    by_reader: dict[str, list[Any]] = {}
    for stream, delivery in sent:
        assert delivery is not None
        assert after + 4 == delivery.last
        assert after + 4 == stream.position
        by_reader.setdefault(stream.member, []).append(delivery)
    for who, deliveries in by_reader.items():
        assert counts[who] == len(deliveries)
        first = deliveries[0]
        assert all(d is first for d in deliveries), who  # one rendering, handed to each
        assert [after + n for n in READS[who]] == [number for number, _ in first.rendered]
        html = "".join(h for _, h in first.rendered)
        assert html.splitlines()[0] in first.payload.decode()
        for n, words in SECRETS.items():
            assert (escape(words) in html) == (n in READS[who]), (who, words)
        assert ("Undo #" in html) == (who == "Morpheus")
        assert ("Dispute #" in html) == (who != "Morpheus")


def test_a_stream_behind_the_others_is_caught_up_on_its_own(tmp_path: Path) -> None:
    """Streams that have seen different rulings are each sent what they have not (one read per
    position), and one already up to date is sent nothing."""
    import asyncio

    from web import create_app
    from web.live import Stream

    table = build_table(str(tmp_path / "zion.db"))
    after = _latest(table.db)
    _record_for_every_audience(table.db)
    app = create_app(table.db)
    feed = app.state.feed
    feed.template = app.template_engine.get_template("_ruling.html")

    async def deliver() -> tuple[list[Any], Stream]:
        loop = asyncio.get_running_loop()
        behind = Stream(CAMPAIGN, "Morpheus", after, loop)
        ahead = Stream(CAMPAIGN, "Morpheus", after + 2, loop)
        current = Stream(CAMPAIGN, "Morpheus", after + 4, loop)
        sent = list(feed.deliveries(CAMPAIGN, [behind, ahead, current]))
        return [(s.position, [n for n, _ in d.rendered]) for s, d in sent if d is not None], current

    try:
        sent, current = asyncio.run(deliver())
    finally:
        app.state.engines.close()
    assert sorted(sent) == [
        (after + 4, [after + 1, after + 2, after + 3, after + 4]),
        (after + 4, [after + 3, after + 4]),
    ]
    assert after + 4 == current.position


def test_a_member_unseated_while_their_stream_is_open_is_sent_nothing_more(tmp_path: Path) -> None:
    """bob loses his seat: his stream is ended (a None delivery) without the rulings after."""
    import asyncio

    from web import create_app
    from web.live import Stream

    table = build_table(str(tmp_path / "zion.db"))
    after = _latest(table.db)
    with Engine(table.db) as engine:
        engine.execute(CAMPAIGN, RemoveMember(member="bob"))
        engine.execute(CAMPAIGN, AddNote(text=PUBLIC))
    app = create_app(table.db)
    feed = app.state.feed
    feed.template = app.template_engine.get_template("_ruling.html")

    async def deliver() -> list[Any]:
        loop = asyncio.get_running_loop()
        streams = [Stream(CAMPAIGN, who, after, loop) for who in ("bob", "alice")]
        return [(s.member, d) for s, d in feed.deliveries(CAMPAIGN, streams)]

    try:
        sent = dict(asyncio.run(deliver()))
    finally:
        app.state.engines.close()
    assert sent["bob"] is None
    assert PUBLIC in "".join(html for _, html in sent["alice"].rendered)


def test_many_streams_on_one_server_each_get_what_their_reader_reads(tmp_path: Path) -> None:
    """Twelve streams open on one server (three per reader); four rulings recorded by another
    process arrive on each, every stream of a reader with the same rulings, and none with a
    ruling its reader may not read."""
    import threading

    table = build_table(str(tmp_path / "zion.db"))
    after = _latest(table.db)
    roles = {"Morpheus": "gm", "alice": "player", "bob": "other", "olly": "observer"}
    got: dict[tuple[str, int], list[Event]] = {}
    opened = threading.Barrier(len(roles) * 3 + 1)
    failures: list[BaseException] = []

    with serving_in_thread(table.db) as base:
        url = f"{base}{PAGE}/events?after={after}"

        def follow(who: str, copy: int) -> None:
            try:
                got[(who, copy)] = read_events(
                    url, table.headers(roles[who]), _changed_to(after + 4), opened.wait, 30
                )
            except BaseException as error:
                failures.append(error)
                opened.abort()

        threads = [
            threading.Thread(target=follow, args=(who, copy)) for who in roles for copy in range(3)
        ]
        for thread in threads:
            thread.start()
        opened.wait(timeout=30)
        _record_for_every_audience(table.db)
        for thread in threads:
            thread.join(timeout=60)
    assert not failures, failures
    for (who, _), events in got.items():
        assert [after + n for n in READS[who]] == _rulings(events), who
        html = "".join(e.get("data", "") for e in events)
        for n, words in SECRETS.items():
            assert (escape(words) in html) == (n in READS[who]), (who, words)
    assert 12 == len(got)


def test_a_browsers_stream_sets_no_csrf_cookie_where_its_page_does(tmp_path: Path) -> None:
    """The stream stays out of the CSRF middleware (it changes nothing, and each of its writes
    would pass through the middleware's wrapper): signed in by cookie, the page sets the
    csrftoken cookie, its stream does not, and the stream still reads as the member."""
    table = build_table(str(tmp_path / "zion.db"))
    with Engine(table.db) as engine:
        secret = engine.invite(CAMPAIGN, "alice")
    latest = _latest(table.db)
    with serving_in_thread(table.db) as base, httpx.Client(base_url=base) as browser:
        assert 303 == browser.post(f"/join/{secret}", follow_redirects=False).status_code
        page = browser.get(PAGE)
        assert "csrftoken=" in page.headers.get("set-cookie", "")
        cookie = {"cookie": f"campaign_session={browser.cookies['campaign_session']}"}
        with httpx.stream("GET", f"{base}{PAGE}/events", headers=cookie, timeout=10) as stream:
            assert 200 == stream.status_code
            assert "set-cookie" not in stream.headers
        got = read_events(f"{base}{PAGE}/events?after={latest - 1}", cookie, _changed_to(latest))
    assert [latest] == _rulings(got)


def test_a_quiet_stream_is_sent_a_keep_alive_comment(tmp_path: Path) -> None:
    """One thread sends every stream quiet for ``keep_alive`` seconds a comment (a proxy closes
    an idle connection): here every 0.3 s."""
    from web import create_app

    table = build_table(str(tmp_path / "zion.db"))
    app = create_app(table.db)
    app.state.feed.keep_alive, app.state.feed.check = 0.3, 0.05
    with serving_in_thread(table.db, app) as base:
        comments = []
        with httpx.stream(
            "GET", f"{base}{PAGE}/events", headers=table.headers("player"), timeout=10
        ) as response:
            assert 200 == response.status_code
            for line in response.iter_lines():
                if line.startswith(":"):
                    comments.append(line)
                if len(comments) == 3:
                    break
    assert [": live", ": keep-alive", ": keep-alive"] == comments


def test_only_the_streams_handed_nothing_lately_are_due_a_keep_alive() -> None:
    """A stream handed a ruling (or a comment) within ``keep_alive`` seconds is not quiet."""
    from web.live import KEEP, Feed, Stream

    feed = Feed(engines=None, keep_alive=15)  # type: ignore[arg-type]
    quiet = Stream(CAMPAIGN, "alice", None, loop=None)  # type: ignore[arg-type]
    quiet.quiet_since -= 20
    busy = Stream(CAMPAIGN, "bob", None, loop=None)  # type: ignore[arg-type]
    assert [(quiet, KEEP)] == feed.quiet([quiet, busy])
    assert [] == feed.quiet([quiet, busy])  # it was just sent one


def _handed(streams: list[Any]) -> int:
    """How many of ``streams`` have something waiting in their queue."""
    return sum(1 for s in streams if s.queue.qsize())


class _Loop:
    """A stand-in event loop that keeps what is called later, to be run by the test."""

    def __init__(self) -> None:
        self.later: list[tuple[float, Any, tuple[Any, ...]]] = []

    def call_later(self, delay: float, callback: Any, *args: Any) -> None:
        self.later.append((delay, callback, args))

    def run_later(self, streams: list[Any]) -> tuple[list[int], list[float]]:
        """Run what was called later, in order: how many streams had something after each
        turn, and the delays asked for."""
        handed, delays = [], []
        while self.later:
            delay, callback, args = self.later.pop(0)
            delays.append(delay)
            callback(*args)
            handed.append(_handed(streams))
        return handed, delays


def test_a_fan_out_to_more_streams_than_a_turn_is_paced() -> None:
    """``TURN`` streams are woken at once and the rest in later turns ``PACE`` seconds apart
    (the requests that come in meanwhile run between two turns); each stream is handed its
    delivery once."""
    from web.live import KEEP, PACE, TURN, Pump, Stream

    loop = _Loop()
    streams = [Stream(CAMPAIGN, f"p{n}", None, loop=loop) for n in range(2 * TURN + 3)]  # type: ignore[arg-type]
    Pump(loop).add([(stream, KEEP) for stream in streams])  # type: ignore[arg-type]
    first = _handed(streams)
    handed, delays = loop.run_later(streams)
    assert [TURN, 2 * TURN, 2 * TURN + 3] == [first, *handed]
    assert [PACE, PACE] == delays
    assert all(s.queue.qsize() == 1 for s in streams)


def test_a_fan_out_sent_while_another_is_paced_follows_it() -> None:
    """Deliveries sent while earlier ones still wait their turn are handed after them: no
    stream is handed a later delivery before an earlier one."""
    from web.live import TURN, KeptAlive, Pump, Stream

    loop = _Loop()
    streams = [Stream(CAMPAIGN, f"p{n}", None, loop=loop) for n in range(3 * TURN)]  # type: ignore[arg-type]
    earlier, later = KeptAlive(b": earlier\n\n"), KeptAlive(b": later\n\n")
    pump = Pump(loop)  # type: ignore[arg-type]
    pump.add([(stream, earlier) for stream in streams])
    pump.add([(stream, later) for stream in reversed(streams)])  # the last ones first
    assert TURN == _handed(streams)
    loop.run_later(streams)
    for stream in streams:
        assert [earlier, later] == [stream.queue.get_nowait(), stream.queue.get_nowait()]
