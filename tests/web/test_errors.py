"""One table maps refusals to statuses (web.errors.STATUS); every refusal's body is
{"error": {"code", "message"}} with a one-line message."""

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
    assert ["code", "message"] == sorted(response.json()["error"])
    assert "\n" not in response.json()["error"]["message"]
    assert before == table.events()


def test_unknown_campaigns_and_pages(client: TestClient[Any], table: Table) -> None:
    """A campaign not in the store, for its own credential, is 404; so is a page that is not."""
    missing = client.get("/nowhere", headers=table.headers("gm"))
    assert (404, "NOT_FOUND") == (missing.status_code, missing.json()["error"]["code"])
