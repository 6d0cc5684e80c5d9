"""The live pages' event stream (``/campaigns/{campaign}/events``): each new ruling, rendered
for its reader, learnt from the store and not from the process that wrote it. On a SQLite file a
ruling another process records arrives (the server polls the store's position); on PostgreSQL two
`campaign serve` processes share one database, and a ruling written through one arrives on the
other's stream (LISTEN/NOTIFY)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.lifecycle import AddNote
from engine import Engine
from tests.web.conftest import CAMPAIGN, GM_NOTE, build_table
from tests.web.servers import Event, read_events, serving_in_thread, serving_process

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
    """The table page loads one script, from this server, and says so in its CSP."""
    from litestar.testing import TestClient

    from web import create_app

    table = build_table(str(tmp_path / "zion.db"))
    client: Any
    with TestClient(create_app(table.db)) as client:
        page = client.get(PAGE, headers=table.headers("player"))
        script = client.get("/static/table.js")
    assert 200 == page.status_code
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert ['<script src="/static/table.js" defer></script>'] == [
        line for line in page.text.splitlines() if "<script" in line
    ]
    assert "http" not in page.text.split("<body>", 1)[1].replace(f"/api{PAGE}", "")
    assert 200 == script.status_code
    assert "EventSource" in script.text
