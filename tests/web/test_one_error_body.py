"""One error body on every front end: the same refusal (or fault) asked through the CLI's
``--json``, the HTTP API and Discord gives the same code, message and data; the CLI exits 2 on a
refusal and 1 on a fault, the API answers the status of its kind, and Discord its line
``CODE: message`` (ephemeral, in a 200) with the data as an embed's fields."""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from litestar.testing import TestClient

from cli.main import campaign
from domain.events import PostWritten
from domain.posts import WritePost
from engine import Engine
from engine.store.recorders import BulkSQLiteRecorder
from tests.web.test_discord import (  # noqa: F401 (fixtures)
    ANA_ACCOUNT,
    GM_ACCOUNT,
    client,
    command,
    db,
    events,
    key,
    option,
    send,
)
from web.discord.answers import EPHEMERAL

CAMPAIGN = "Docklands"
NOTE = "the crane creaks"


@contextmanager
def disk_full() -> Iterator[None]:
    """Every save meets SQLite's full disk before it inserts a row."""

    def full(self: Any, *_: Any, **__: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BulkSQLiteRecorder, "insert_events", full)
        yield


def from_cli(store: str, line: str) -> tuple[int, dict[str, Any]]:
    argv = ["--db", store, "--campaign", CAMPAIGN, "--json", *shlex.split(line)]
    result = CliRunner().invoke(campaign, argv)
    assert 1 == len(result.stderr.splitlines()), result.stderr
    return result.exit_code, json.loads(result.stderr)["error"]


def from_http(
    app: TestClient[Any], token: str, method: str, path: str, body: Any = None
) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"}
    url = f"/api/campaigns/{CAMPAIGN}/{path}"
    answer = app.request(method, url, headers=headers, json=body)
    return answer.status_code, answer.json()["error"]


def from_discord(
    app: TestClient[Any], signer: Ed25519PrivateKey, interaction: dict[str, Any]
) -> dict[str, Any]:
    """The error body an ephemeral answer carries: its line, and the data in its fields."""
    answer = send(app, signer, interaction)
    assert 200 == answer.status_code
    said = answer.json()["data"]
    assert EPHEMERAL == said["flags"]
    code, _, message = said["content"].partition(": ")
    fields = said.get("embeds", [{"fields": []}])[0]["fields"]
    data = {field["name"]: json.loads(field["value"]) for field in fields}
    return {"code": code, "message": message, "data": data}


def tokens(store: str) -> dict[str, str]:
    with Engine(store) as engine:
        return {name: engine.token(CAMPAIGN, name) for name in ("Rosa", "ana")}


def a_post(store: str) -> int:
    """A post of the GM's, for a player to try to undo: its ruling's number."""
    with Engine(store) as engine:
        result = engine.execute(CAMPAIGN, WritePost(text="The rain starts", by="Rosa"))
        assert any(isinstance(r.event, PostWritten) for r in result.records)
        return result.number


# (the refusal's kind, the CLI's line, the API's request, the interaction, its status, exit)
REFUSALS = [
    pytest.param(
        "NOT_ALLOWED",
        "--as ana undo {n} --reason 'not mine'",
        ("POST", "undo", {"ruling": "{n}", "reason": "not mine"}),
        lambda n: command("undo", option("ruling", n, kind=4), option("reason", "not mine")),
        403,
        id="not-allowed",
    ),
    pytest.param(
        "BAD_INPUT",
        "--as ana character show Nobody",
        ("GET", "characters/Nobody", None),
        lambda n: command("sheet", option("character", "Nobody")),
        422,
        id="bad-input",
    ),
    pytest.param(
        "REFUSED_BY_RULE",
        "--as Rosa undo 1 --reason 'start again'",
        ("POST", "undo", {"ruling": 1, "reason": "start again"}),
        lambda n: command(
            "undo", option("ruling", 1, kind=4), option("reason", "start again"), account=GM_ACCOUNT
        ),
        409,
        id="refused-by-rule",
    ),
]


@pytest.mark.parametrize(("kind", "line", "request_", "interaction", "status"), REFUSALS)
def test_a_refusal_is_the_same_body_on_every_front_end(
    client: TestClient[Any],  # noqa: F811
    key: Ed25519PrivateKey,  # noqa: F811
    db: str,  # noqa: F811
    kind: str,
    line: str,
    request_: tuple[str, str, Any],
    interaction: Any,
    status: int,
) -> None:
    """The CLI (exit 2), the API (the kind's status) and Discord give one code, message and
    data, and nothing is appended by any of them."""
    number = a_post(db)
    who = "Rosa" if "Rosa" in line else "ana"
    token = tokens(db)[who]
    before = events(db)
    method, path, body = request_
    if isinstance(body, dict) and body.get("ruling") == "{n}":
        body = {**body, "ruling": number}
    exit_code, on_cli = from_cli(db, line.format(n=number))
    answered, on_http = from_http(client, token, method, path, body)
    on_discord = from_discord(client, key, interaction(number))
    assert (2, status) == (exit_code, answered)
    assert ["code", "data", "message"] == sorted(on_http)
    assert on_cli.pop("reason") == on_cli["message"]  # the deprecated key, for one release
    assert on_cli == on_http == on_discord
    assert on_http["data"], "a representative refusal carries its data"
    assert before == events(db)


def test_a_store_fault_is_the_same_body_on_every_front_end(
    client: TestClient[Any],  # noqa: F811
    key: Ed25519PrivateKey,  # noqa: F811
    db: str,  # noqa: F811
) -> None:
    """A full disk under a note: the CLI exits 1, the API answers 503, Discord its ephemeral
    line, each with STORE_FULL, one message and the same data; nothing is recorded."""
    gm = tokens(db)["Rosa"]
    before = events(db)
    with disk_full():
        exit_code, on_cli = from_cli(db, f"--as Rosa note '{NOTE}'")
        answered, on_http = from_http(
            client, gm, "POST", "commands/note", {"params": {"text": NOTE}}
        )
        on_discord = from_discord(
            client, key, command("note", option("text", NOTE), account=GM_ACCOUNT)
        )
    assert (1, 503) == (exit_code, answered)
    on_cli.pop("reason")
    assert "STORE_FULL" == on_http["code"]
    assert on_cli == on_http == on_discord
    assert before == events(db)
