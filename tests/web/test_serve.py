"""`campaign serve` as a real process: it listens on 127.0.0.1 on a free port, answers a signed
-in request, and stops when the test stops it."""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from tests.web.conftest import API, build_table
from tests.web.servers import serving_process


def test_campaign_serve_answers_on_a_free_port_and_stops(tmp_path: Path) -> None:
    """The server starts on the store, answers the GM's bearer token, and ends on SIGINT (the
    block waits for it to end)."""
    table = build_table(str(tmp_path / "zion.db"))
    with serving_process(table.db) as base:
        me = httpx.get(base + "/api/me", headers=table.headers("gm"), timeout=5)
        assert 200 == me.status_code
        assert "Morpheus" == me.json()["member"]
        log = httpx.get(base + API + "/log", headers=table.headers("player"), timeout=5)
        assert 200 == log.status_code
    assert os.path.exists(table.db)
