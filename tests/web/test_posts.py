"""Posts on the server: a private post and a hidden post reach no reader outside their audience
through any read (every read route, the thread in JSON, Markdown and HTML) nor through the live
pages' event stream; a post is written through the API as any verb is, with `say` narrating a
ruling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.posts import WritePost
from engine import DiceSpec, Engine
from tests.web.conftest import API, CAMPAIGN, ROLES, Table, build_table
from tests.web.servers import read_events, serving_in_thread
from tests.web.test_policy import READS
from web import create_app

TO_ALICE = "Neo, the spoon is in the kitchen"  # the GM's private post to alice
HIDDEN = "Smith waits behind the door"  # the GM's hidden post
THREADS = [("/thread", 200), ("/thread.md", 200), ("/thread.html", 200)]
KEPT_FROM = {  # what each reader may not read of the posts
    "gm": (),
    "player": (HIDDEN,),  # alice: the post to her, not the hidden one
    "other": (TO_ALICE, HIDDEN),
    "observer": (TO_ALICE, HIDDEN),
    "nobody": (TO_ALICE, HIDDEN),
}


def with_posts(db: str) -> Table:
    table = build_table(db)
    with Engine(db) as engine:
        engine.execute(CAMPAIGN, WritePost(text=TO_ALICE, by="Morpheus", to=("alice",)))
        hidden = WritePost(text=f"{HIDDEN} [1d6]", by="Morpheus")
        engine.execute(CAMPAIGN, hidden, dice=DiceSpec(faces=(3,)), hidden=True)
    return table


@pytest.mark.parametrize("role", ROLES)
def test_no_read_shows_a_post_outside_its_audience(tmp_path: Path, role: str) -> None:
    table = with_posts(str(tmp_path / "zion.db"))
    at = ROLES.index(role)
    with TestClient(create_app(table.db)) as client:
        for path, statuses in [*READS, *((p, (s, s, s, s, 401)) for p, s in THREADS)]:
            response = client.get(API + path, headers=table.headers(role))
            assert statuses[at] == response.status_code, (role, path, response.text)
            for words in KEPT_FROM[role]:
                assert words not in response.text, (role, path, words)
        if role == "gm":
            thread = client.get(API + "/thread", headers=table.headers(role)).text
            assert TO_ALICE in thread
            assert HIDDEN in thread
        if role == "player":
            assert TO_ALICE in client.get(API + "/thread.md", headers=table.headers(role)).text


def test_a_post_and_a_narrated_ruling_through_the_api(tmp_path: Path) -> None:
    table = build_table(str(tmp_path / "zion.db"))
    with TestClient(create_app(table.db)) as client:
        body = {"params": {"text": "I dodge [2d6]", "character": "Neo"}}  # committed dice
        response = client.post(API + "/commands/post", json=body, headers=table.headers("player"))
        assert 201 == response.status_code, response.text
        note = {"params": {"text": "the rooftop is wet"}, "say": "Rain starts."}
        assert (
            201
            == client.post(
                API + "/commands/note", json=note, headers=table.headers("gm")
            ).status_code
        )
        thread = client.get(API + "/thread", headers=table.headers("observer")).json()
    posts = [e["post"] for e in thread["entries"] if e["post"]]
    assert ("Neo", "alice") == (posts[-1]["speaker"], posts[-1]["player"])
    assert 2 == len(posts[-1]["rolls"][0]["faces"][0])
    assert "Rain starts." == thread["entries"][-1]["say"]


def test_the_live_stream_carries_no_post_outside_its_audience(tmp_path: Path) -> None:
    """Rulings recorded while alice's and bob's streams are open: bob's gets the public post
    alone; alice's the post to her too."""
    table = build_table(str(tmp_path / "zion.db"))
    with Engine(table.db) as engine:
        after = engine.campaign(CAMPAIGN).rulings
    public = after + 3

    def record() -> None:
        with Engine(table.db) as engine:
            engine.execute(CAMPAIGN, WritePost(text=TO_ALICE, by="Morpheus", to=("alice",)))
            hidden = WritePost(text=HIDDEN, by="Morpheus")
            engine.execute(CAMPAIGN, hidden, hidden=True)
            engine.execute(CAMPAIGN, WritePost(text="Tea is served", by="Morpheus"))

    def done(events: list[Any]) -> bool:
        return {"event": "changed", "id": str(public), "data": str(public)} in events

    url_of = f"/campaigns/{CAMPAIGN}/events?after={after}"
    with serving_in_thread(table.db) as base:
        bob = read_events(base + url_of, table.headers("other"), done, record)
        alice = read_events(base + url_of, table.headers("player"), done)
    bob_text = "".join(e.get("data", "") for e in bob)
    alice_text = "".join(e.get("data", "") for e in alice)
    assert "Tea is served" in bob_text
    assert TO_ALICE not in bob_text
    assert HIDDEN not in bob_text
    assert TO_ALICE in alice_text
    assert HIDDEN not in alice_text
