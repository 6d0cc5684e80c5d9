"""The server holds every request to domain.limits: a body over MAX_BODY bytes is 413
BODY_TOO_LARGE, one nested deeper than MAX_BODY_DEPTH is 422 BODY_NESTED_TOO_DEEP (before it is
parsed: 100,000 levels used to reach the parser's recursion, a 500), a text over MAX_TEXT is
422 TEXT_TOO_LONG; each in the one error body, and nothing is appended."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.limits import MAX_BODY, MAX_BODY_DEPTH, MAX_TEXT
from tests.web.conftest import API, Table

JSON = {"content-type": "application/json"}
ROUTES = ["/commands/note", "/undo", "/amend", "/resolve", "/commands/member/add"]


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def post(client: TestClient[Any], table: Table, path: str, content: Any) -> Any:
    return client.post(API + path, content=content, headers=table.headers("gm") | JSON)


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize("depth", [MAX_BODY_DEPTH + 1, 100_000])
def test_a_body_nested_too_deep_is_refused_before_it_is_parsed(
    client: TestClient[Any], table: Table, path: str, depth: int
) -> None:
    before = table.events()
    response = post(client, table, path, '{"params": {"text": "x"}, "dice": ' + nested(depth) + "}")
    assert (422, "BODY_NESTED_TOO_DEEP") == (response.status_code, response.json()["error"]["code"])
    assert f"deeper than {MAX_BODY_DEPTH} levels" in response.json()["error"]["message"]
    assert before == table.events()


def test_brackets_inside_text_are_not_nesting(client: TestClient[Any], table: Table) -> None:
    """A note made of brackets (and escaped quotes) is text: recorded as any note."""
    text = nested(200) + '\\" [[[' + "{" * 50
    response = post(client, table, "/commands/note", json.dumps({"params": {"text": text}}))
    assert 201 == response.status_code, response.text


def test_a_body_at_the_depth_limit_is_parsed(client: TestClient[Any], table: Table) -> None:
    """16 levels are read (and the list is then refused as dice, by the rules: not by depth)."""
    body = '{"params": {"text": "x"}, "dice": ' + nested(MAX_BODY_DEPTH - 1) + "}"
    response = post(client, table, "/commands/note", body)
    assert response.json()["error"]["code"] != "BODY_NESTED_TOO_DEEP"
    assert 422 == response.status_code


def _chunks(body: bytes) -> Iterator[bytes]:
    for start in range(0, len(body), 65536):
        yield body[start : start + 65536]


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("size", [MAX_BODY + 1, 2_000_000, 11_000_000])
def test_a_body_over_the_limit_is_413_in_the_error_body(
    client: TestClient[Any], table: Table, size: int, chunked: bool
) -> None:
    """As the issue found: a 2,000,000-byte note was recorded (the limit lay between 2 and 10
    MB); the server now reads at most MAX_BODY bytes, told so or not by Content-Length."""
    before = table.events()
    head = b'{"params": {"text": "'
    body = head + b"x" * (size - len(head) - 3) + b'"}}'
    response = post(client, table, "/commands/note", _chunks(body) if chunked else body)
    assert (413, "BODY_TOO_LARGE") == (response.status_code, response.json()["error"]["code"])
    assert f"{MAX_BODY:,} bytes" in response.json()["error"]["message"]
    assert before == table.events()


def test_a_text_over_the_limit_is_422_and_the_limit_itself_is_recorded(
    client: TestClient[Any], table: Table
) -> None:
    """The longest note, every character written as two escapes (the longest body a client
    may send for it), is read and recorded; one character more is TEXT_TOO_LONG."""
    longest = json.dumps({"params": {"text": "\U0001f600" * MAX_TEXT}}, ensure_ascii=True)
    assert len(longest) < MAX_BODY
    before = table.events()
    over = json.dumps({"params": {"text": "x" * (MAX_TEXT + 1)}})
    response = post(client, table, "/commands/note", over)
    assert (422, "TEXT_TOO_LONG") == (response.status_code, response.json()["error"]["code"])
    assert before == table.events()
    response = post(client, table, "/commands/note", longest)
    assert 201 == response.status_code, response.text
    assert before < table.events()


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/undo", {"reason": "r" * (MAX_TEXT + 1)}),
        ("/amend", {"ruling": 5, "changes": {"stage": "s" * (MAX_TEXT + 1)}, "reason": "r"}),
        ("/resolve", {"dispute": 1, "outcome": "upheld", "reason": "r" * (MAX_TEXT + 1)}),
    ],
    ids=["undo", "amend", "resolve"],
)
def test_the_corrections_texts_are_held_to_the_same_limit(
    client: TestClient[Any], table: Table, path: str, body: dict[str, Any]
) -> None:
    before = table.events()
    response = post(client, table, path, json.dumps(body))
    assert (422, "TEXT_TOO_LONG") == (response.status_code, response.json()["error"]["code"])
    assert before == table.events()
