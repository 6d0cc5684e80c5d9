"""An error's kind says its status (web.errors.STATUS); every refusal's body is
{"error": {"code", "message", "data"}} with a one-line message."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from domain.errors import (
    DomainError,
    NotAllowed,
    NotAMember,
    SceneAlreadyActive,
    UnknownCampaign,
    UnknownCharacter,
    UnknownParameter,
)
from engine import NotSignedIn
from tests.conftest import local_time_zone
from tests.web.conftest import API, Table
from web.errors import CsrfFailed, SignedInElsewhere, UnknownVerb, status_of


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (NotSignedIn(why="no cookie"), 401),
        (NotAllowed(who="a", role="player", what="undo", rule="GM"), 403),
        (NotAMember(who="a"), 403),
        (SignedInElsewhere(signed="a", asked="b"), 403),
        (CsrfFailed(), 403),
        (UnknownCampaign(name="x"), 404),
        (UnknownVerb(verb="zap", where="sims"), 422),
        (UnknownParameter(command="note", key="k", known="text"), 422),
        (UnknownCharacter(ref="x", known=""), 422),
        (SceneAlreadyActive(number=1), 409),
    ],
)
def test_each_refusal_has_its_status(error: DomainError, status: int) -> None:
    """Not signed in 401, policy 403, unknown campaign 404, bad input 422, a rule 409."""
    assert status == status_of(error)


ROLL = {"expression": "1d6", "why": "x"}
NOTE = {"text": "x"}


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/commands/scene/start", {"params": {"stage": "again"}}, 409, "SCENE_ALREADY_ACTIVE"),
        ("/commands/scene/start", {"params": {"stag": "x"}}, 422, "UNKNOWN_PARAMETER"),
        ("/commands/scene/start", {"params": {"stage": 7}}, 422, "INVALID_PARAMETER"),
        ("/commands/scene/start", {"params": {}}, 422, "INVALID_PARAMETER"),
        ("/commands/place", {"params": {}}, 422, "UNKNOWN_VERB"),  # Code Green's, not the Sims'
        ("/commands/fly", {}, 422, "UNKNOWN_VERB"),
        (
            "/commands/dice",
            {"params": {"expression": "1d6", "why": "x"}, "dice": [9]},
            422,
            "INVALID_DIE_FACE",
        ),
        (
            "/commands/note",
            {"params": {"text": "x"}, "dice": [1], "seed": 2},
            422,
            "INVALID_REQUEST",
        ),
        ("/commands/note", {"params": "text"}, 422, "INVALID_REQUEST"),
        ("/undo", {"ruling": 1, "reason": "x"}, 409, "CANNOT_UNDO"),
    ],
)
def test_refusals_over_http_append_nothing(
    client: TestClient[Any], table: Table, path: str, body: Any, status: int, code: str
) -> None:
    """Each refusal answers its status and code in one line, and the log is unchanged."""
    before = table.events()
    response = client.post(API + path, json=body, headers=table.headers("gm"))
    assert (status, code) == (response.status_code, response.json()["error"]["code"])
    assert ["code", "data", "message"] == sorted(response.json()["error"])
    assert "\n" not in response.json()["error"]["message"]
    assert before == table.events()


def test_unknown_campaigns_and_pages(client: TestClient[Any], table: Table) -> None:
    """A campaign not in the store, for its own credential, is 404; so is a page that is not."""
    missing = client.get("/nowhere", headers=table.headers("gm"))
    assert (404, "NOT_FOUND") == (missing.status_code, missing.json()["error"]["code"])


def test_litestars_own_answers_have_the_one_body(client: TestClient[Any], table: Table) -> None:
    """Routing (404), authentication (401) and validation (422), answered by Litestar before any
    route of ours runs, give the body every refusal has, data included."""
    answers = [
        client.get("/nowhere", headers=table.headers("gm")),
        client.get(API + "/log"),
        client.post(API + "/commands/note", json={"params": "text"}, headers=table.headers("gm")),
    ]
    assert [(404, "NOT_FOUND"), (401, "NOT_SIGNED_IN"), (422, "INVALID_REQUEST")] == [
        (a.status_code, a.json()["error"]["code"]) for a in answers
    ]
    for answer in answers:
        error = answer.json()["error"]
        assert ["code", "data", "message"] == sorted(error)
        assert isinstance(error["data"], dict)
    assert {"path": "/nowhere"} == answers[0].json()["error"]["data"]


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize(
    ("path", "back"),
    [
        ("/nowhere", ""),
        ("/campaigns/Zion/recapp", '<a href="/campaigns/Zion">Back to the table</a>'),
        ("/campaigns/Zion/characters/Neo/oops", '<a href="/campaigns/Zion">Back to the table</a>'),
        ("/api/campaigns/Zion/nothing", ""),
    ],
)
def test_a_mistyped_address_is_a_page_for_a_browser_and_json_for_a_client(
    client: TestClient[Any], path: str, back: str
) -> None:
    """Asked for by a browser (Accept: text/html), a mistyped address anywhere is a 404 page
    saying what is not there, with a way back (its campaign's table, and the front page); an
    API client, or one that accepts anything, keeps the JSON error."""
    page = client.get(path, headers={"accept": BROWSER})
    assert 404 == page.status_code
    assert page.headers["content-type"].startswith("text/html")
    assert f"nothing at {path}" in page.text
    assert back in page.text
    assert '<a href="/">The front page</a>' in page.text
    for accept in ("application/json", "*/*"):
        answer = client.get(path, headers={"accept": accept})
        assert (404, "NOT_FOUND") == (answer.status_code, answer.json()["error"]["code"])


# Moments at the calendar's ends, as a client may send them (RFC 3339): with the server's local
# time east of UTC, year 1 without an offset is year 0 in UTC, and year 9999 west of it year 10000.
EDGES = [
    ("0001-01-01T00:00:00", 422),
    ("0001-01-01T00:00:00+23:59", 422),
    ("9999-12-31T23:59:59", 200),
    ("9999-12-31T23:59:59.999999-23:59", 200),
]


@pytest.mark.parametrize("zone", ["Asia/Tokyo", "America/Los_Angeles"])
@pytest.mark.parametrize("role", ["gm", "player", "observer"])
def test_a_moment_at_the_calendars_ends_is_answered_not_a_500(
    client: TestClient[Any], table: Table, zone: str, role: str
) -> None:
    """`show?time=` and `characters/{ref}?time=`: year 1 is before the campaign began
    (NO_SUCH_POINT), year 9999 after its last ruling (the state now), for every member."""
    for path in ("/show", "/characters/Neo"):
        now = client.get(API + path, headers=table.headers(role)).json()
        for moment, status in EDGES:
            with local_time_zone(zone):
                answer = client.get(
                    API + path, params={"time": moment}, headers=table.headers(role)
                )
            assert status == answer.status_code, (path, moment, answer.text)
            if status == 422:
                assert "NO_SUCH_POINT" == answer.json()["error"]["code"]
            else:
                assert now == answer.json()
