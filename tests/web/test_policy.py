"""Every endpoint as the GM, a player (for her own character), the other player, an observer and
nobody: the statuses the table's policy gives, and reads that never show a reader another
player's private message, a GM-only note or a hidden roll."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from projections.format_list import FORMATS, JSON
from tests.web.conftest import (
    API,
    CAMPAIGN,
    FROM_BOB,
    GM_NOTE,
    HIDDEN_WHY,
    ROLES,
    TO_BOB,
    Table,
    build_table,
)
from web import create_app

# (method, path under the campaign, body) -> status for gm, player, other, observer, nobody.
# In this order on one table per role: each write sees the ones before it.
WRITES: list[tuple[str, str, dict[str, Any] | None, tuple[int, ...]]] = [
    ("POST", "/commands/note", {"params": {"text": "Tea?"}}, (201, 201, 201, 403, 401)),
    (
        "POST",
        "/commands/strategy",
        {"params": {"character": "Neo", "strategy": "full-defense"}},
        (201, 201, 403, 403, 401),
    ),
    (
        "POST",
        "/commands/note",
        {"params": {"text": "secret", "gm_only": True}},
        (201, 403, 403, 403, 401),
    ),
    (
        "POST",
        "/commands/dice",
        {"params": {"expression": "1d6", "why": "a peek"}, "dice": [2], "hidden": True},
        (201, 403, 403, 403, 401),
    ),
    (  # a player's dice in a committed session come from the commitment: no seed, no faces
        "POST",
        "/commands/dice",
        {"params": {"expression": "1d6", "why": "a seed of mine"}, "seed": 7},
        (201, 403, 403, 403, 401),
    ),
    (
        "POST",
        "/commands/dice",
        {"params": {"expression": "1d6", "why": "faces of mine"}, "dice": [6]},
        (201, 403, 403, 403, 401),
    ),
    (
        "POST",
        "/commands/dispute",
        {"params": {"ruling": 4, "reason": "too strong"}},
        (201, 201, 201, 201, 401),
    ),
    ("POST", "/commands/session/end", {}, (409, 403, 403, 403, 401)),
    (
        "POST",
        "/commands/member/add",
        {"params": {"member": "zoe", "role": "observer"}},
        (201, 403, 403, 403, 401),
    ),
    (
        "POST",
        "/resolve",
        {"dispute": 1, "outcome": "upheld", "reason": "Neo was first"},
        (201, 403, 403, 403, 401),
    ),
    (
        "POST",
        "/amend",
        {"ruling": 9, "changes": {"text": "Smith is nobody's twin"}, "reason": "typo"},
        (201, 403, 403, 403, 401),
    ),
    ("POST", "/undo", {"reason": "the last one was a slip"}, (201, 403, 403, 403, 401)),
]
READS: list[tuple[str, tuple[int, ...]]] = [
    ("", (200, 200, 200, 200, 401)),
    ("/verbs", (200, 200, 200, 200, 401)),
    ("/log", (200, 200, 200, 200, 401)),
    ("/log?session=1", (200, 200, 200, 200, 401)),
    ("/disputes?every=true", (200, 200, 200, 200, 401)),
    ("/characters", (200, 200, 200, 200, 401)),
    ("/characters/Smith", (200, 200, 200, 200, 401)),
    ("/characters/Cypher?at=8&corrected=true", (200, 200, 200, 200, 401)),
    ("/show?at=6", (200, 200, 200, 200, 401)),
    ("/characters/Smith/history", (200, 200, 200, 200, 401)),
    ("/characters/Cypher/history", (200, 200, 200, 200, 401)),
    ("/diff?who=Neo&first=4", (200, 200, 200, 200, 401)),
    ("/recap", (200, 200, 200, 200, 401)),
    ("/recap?gm=true", (200, 200, 200, 200, 401)),
    *(  # every registered format (projections.format_list), as web.formats serves it
        (f"/{view}.{fmt.suffix}", (200, 200, 200, 200, 401))
        for view in ("recap", "thread")
        for fmt in FORMATS.values()
        if fmt is not JSON
    ),
    ("/recap?member=bob", (200, 403, 200, 403, 401)),
    ("/timeline", (422, 422, 422, 422, 401)),  # Exposure is The Code's, not the Sims'
    ("/dice-stats", (200, 200, 200, 200, 401)),
    ("/verify", (200, 200, 200, 200, 401)),
    ("/export", (200, 403, 403, 403, 401)),
]
# What each reader may not read.
KEPT_FROM = {
    "gm": (),
    "player": (TO_BOB, FROM_BOB, GM_NOTE, HIDDEN_WHY),
    "other": (GM_NOTE, HIDDEN_WHY),
    "observer": (TO_BOB, FROM_BOB, GM_NOTE, HIDDEN_WHY),
    "nobody": (TO_BOB, FROM_BOB, GM_NOTE, HIDDEN_WHY),
}


@pytest.mark.parametrize("role", ROLES)
def test_every_read_answers_by_role_and_shows_only_what_the_reader_may_read(
    client: TestClient[Any], table: Table, role: str
) -> None:
    """Reads: 200 for the table's members (export the GM's), 401 for nobody; no body read by
    a player or an observer holds bob's private messages, the GM's note or the hidden roll's
    words (bob reads his own messages)."""
    at = ROLES.index(role)
    for path, statuses in READS:
        response = client.get(API + path, headers=table.headers(role))
        assert statuses[at] == response.status_code, (role, path, response.text)
        for words in KEPT_FROM[role]:
            assert words not in response.text, (role, path, words)


def test_each_reader_reads_what_is_theirs(client: TestClient[Any], table: Table) -> None:
    """The GM's log holds every secret; bob's log holds his messages, not the GM's secrets."""
    gm_log = client.get(API + "/log", headers=table.headers("gm")).text
    assert all(words in gm_log for words in (TO_BOB, FROM_BOB, GM_NOTE, HIDDEN_WHY))
    bob_log = client.get(API + "/log", headers=table.headers("other")).text
    assert TO_BOB in bob_log
    assert FROM_BOB in bob_log


@pytest.mark.parametrize("role", ROLES)
def test_every_write_answers_by_role_and_a_refused_one_appends_nothing(
    tmp_path: Any, role: str
) -> None:
    """Writes: the GM's calls are the GM's (403 for the rest), a player acts for her own
    character only, an observer only disputes, nobody is 401; a refusal appends nothing."""
    table = build_table(str(tmp_path / "zion.db"))
    at = ROLES.index(role)
    with TestClient(create_app(table.db)) as client:
        for method, path, body, statuses in WRITES:
            before = table.events()
            response = client.request(method, API + path, json=body, headers=table.headers(role))
            assert statuses[at] == response.status_code, (role, path, response.text)
            if response.status_code >= 400:
                assert before == table.events(), (role, path)
                assert {"error"} == set(response.json())


def test_a_credential_of_another_campaign_is_refused(client: TestClient[Any], table: Table) -> None:
    """A token signs in to its own campaign only: another campaign's routes answer 403."""
    from engine import Engine

    with Engine(table.db) as engine:
        engine.create_campaign("Nebuchadnezzar", "sims", gm="Morpheus")
        token = engine.token("Nebuchadnezzar", "Morpheus")
    response = client.get(API + "/log", headers={"Authorization": f"Bearer {token}"})
    assert 403 == response.status_code
    assert "SIGNED_IN_ELSEWHERE" == response.json()["error"]["code"]
    assert CAMPAIGN in response.json()["error"]["message"]
