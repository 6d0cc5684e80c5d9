"""What one request costs the server, held by behaviour rather than by a timing: a write signs
in on its own worker thread and reads the campaign's head once for its seat check and its
command; a request's dependencies are resolved one after the other (no anyio task group of
their own, which cost a tenth of a roll's CPU on the event loop); and `campaign serve` keeps
what it built to start out of the collector's full passes (``gc.freeze``)."""

from __future__ import annotations

import gc
import threading
from typing import Any
from unittest.mock import patch

import pytest
from litestar._kwargs import kwargs_model
from litestar.testing import TestClient

from tests.web.conftest import API, CAMPAIGN, Table
from web import serving


def test_a_read_of_the_engine_and_the_member_makes_no_task_group(
    client: TestClient[Any], table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine and the signed-in member (``you``) are one dependency after the other: the
    campaign, whose route takes both, is read with Litestar's task group made unusable."""

    def refused() -> Any:
        raise AssertionError("a request's dependencies were resolved in a task group")

    monkeypatch.setattr(kwargs_model, "create_task_group", refused)
    answer = client.get(API, headers=table.headers("player"))
    assert 200 == answer.status_code, answer.text
    assert "alice" == answer.json()["you"]


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


ROLL = {"params": {"expression": "2d6", "why": "once"}}


def test_a_roll_signs_in_on_its_worker_thread_and_reads_the_head_once(
    client: TestClient[Any], table: Table
) -> None:
    """The bearer's lookup, the seat check and the command run on one worker thread (not the
    lookup on one and the command on another), and the campaign's head is read once for both."""
    engine = client.app.state.engines.get()
    campaign = engine.find_campaign(CAMPAIGN).campaign_id
    recorder = engine.store.recorder
    original_select, original_who = recorder.select_events, engine.who
    heads: list[Any] = []
    threads: set[int] = set()

    def select(*args: Any, **kwargs: Any) -> Any:
        stream = args[0] if args else kwargs.get("originator_id")
        head = kwargs.get("desc") and kwargs.get("limit") == 1 and kwargs.get("gt") is None
        if stream == campaign and head:
            heads.append(threading.get_ident())
        return original_select(*args, **kwargs)

    def who(secret: str) -> Any:
        threads.add(threading.get_ident())
        return original_who(secret)

    warm = client.post(API + "/commands/dice", json=ROLL, headers=table.headers("player"))
    assert 201 == warm.status_code, warm.text  # the campaign's head is kept from now on
    with patch.object(recorder, "select_events", select), patch.object(engine, "who", who):
        answer = client.post(API + "/commands/dice", json=ROLL, headers=table.headers("player"))
    assert 201 == answer.status_code, answer.text
    assert 1 == len(heads)
    assert {heads[0]} == threads


def test_a_write_with_a_credential_that_signs_in_nobody_is_refused_401_and_appends_nothing(
    client: TestClient[Any], table: Table
) -> None:
    """Looked up on the handler's thread, an unknown token is refused as the middleware
    refuses it: 401 NOT_SIGNED_IN, nothing recorded."""
    before = table.events()
    answer = client.post(API + "/commands/dice", json=ROLL, headers={"Authorization": "Bearer no"})
    assert 401 == answer.status_code
    assert "NOT_SIGNED_IN" == answer.json()["error"]["code"]
    assert before == table.events()


def test_a_malformed_write_is_refused_for_its_body_before_its_credential_is_looked_up(
    client: TestClient[Any], table: Table
) -> None:
    """As docs/server.md says: the body is read before the handler's thread looks the
    credential up, so a malformed body with a credential that signs in nobody is refused 422;
    with no credential at all, 401 comes first. Nothing is recorded either way."""
    before = table.events()
    malformed = {"content-type": "application/json"}
    unknown = client.post(
        API + "/commands/dice", content=b"{no", headers={**malformed, "Authorization": "Bearer no"}
    )
    assert 422 == unknown.status_code
    assert "INVALID_REQUEST" == unknown.json()["error"]["code"]
    none = client.post(API + "/commands/dice", content=b"{no", headers=malformed)
    assert 401 == none.status_code
    assert "NOT_SIGNED_IN" == none.json()["error"]["code"]
    assert before == table.events()
