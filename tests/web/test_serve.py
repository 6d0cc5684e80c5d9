"""`campaign serve` as a real process: it listens on 127.0.0.1 on a free port, answers a signed
-in request, and stops when the test stops it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.web.conftest import API, build_table
from tests.web.servers import free_port


def test_campaign_serve_answers_on_a_free_port_and_stops(tmp_path: Path) -> None:
    """The server starts on the store, answers the GM's bearer token, and ends on SIGINT."""
    table = build_table(str(tmp_path / "zion.db"))
    port = free_port()
    campaign = Path(sys.executable).with_name("campaign")
    command = [str(campaign), "--db", table.db, "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(base + "/schema/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "the server did not start in 30 s"
                time.sleep(0.2)
        me = httpx.get(base + "/api/me", headers=table.headers("gm"), timeout=5)
        assert 200 == me.status_code
        assert "Morpheus" == me.json()["member"]
        log = httpx.get(base + API + "/log", headers=table.headers("player"), timeout=5)
        assert 200 == log.status_code
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert server.returncode is not None
    assert os.path.exists(table.db)
