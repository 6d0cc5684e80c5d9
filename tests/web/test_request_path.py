"""What one request costs the server, held by behaviour rather than by a timing: a write's
dependencies are resolved one after the other (no anyio task group of their own, which cost a
tenth of a roll's CPU on the event loop), and `campaign serve` keeps what it built to start out
of the collector's full passes (``gc.freeze``)."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from litestar._kwargs import kwargs_model
from litestar.testing import TestClient

from tests.web.conftest import API, Table
from web import serving


def test_a_roll_through_the_api_makes_no_task_group(
    client: TestClient[Any], table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine and the signed-in member (``you``) are one dependency after the other: a roll
    is recorded with Litestar's task group made unusable."""

    def refused() -> Any:
        raise AssertionError("a request's dependencies were resolved in a task group")

    monkeypatch.setattr(kwargs_model, "create_task_group", refused)
    before = table.events()
    answer = client.post(
        API + "/commands/dice",
        json={"params": {"expression": "2d6", "why": "cheap"}},
        headers=table.headers("player"),
    )
    assert 201 == answer.status_code, answer.text
    assert table.events() > before


def test_serve_freezes_what_it_built_before_it_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    """By the time uvicorn runs, the objects made so far are out of the collector's passes."""
    seen: list[int] = []

    class Ran(Exception):
        pass

    def run(self: Any) -> None:
        seen.append(gc.get_freeze_count())
        raise Ran

    monkeypatch.setattr(serving.Server, "run", run)
    monkeypatch.setattr(serving.signal, "signal", lambda *_: None)
    app: Any = type("App", (), {"state": type("State", (), {"feed": None})()})()
    try:
        with pytest.raises(Ran):
            serving.serve(app, "127.0.0.1", 0)
    finally:
        gc.unfreeze()
    assert len(seen) == 1
    assert seen[0] > 0
