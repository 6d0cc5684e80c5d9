"""The thread is the history, however it was written: posts interleaved with rolls (some
narrated with --say), some undone, some amended (a post's text, a roll's narration; by their
author or the GM), read back through the store's session index, equal the thread built from the
whole log read at once, and hold exactly the texts a model of the same moves expects (each
post's text and each roll's narration in force, the texts their edits replaced, whether they
were struck)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.audience import GMS, of_actor
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import StartScene, StartSession
from domain.posts import PostRollChanged, WritePost
from engine import Engine
from projections.thread import build_thread
from tests.conftest import FROZEN_AT

TEXTS = (
    "The door *creaks*.",
    "I duck [1d6]",
    "> a quote",
    "Who's there? [2d6+1 for nerve]",
    "I *dive* [1d6]",
)
ROLLS = {text: [r for r in ("[1d6]", "[2d6+1 for nerve]") if r in text] for text in TEXTS}
AUTHORS = ("Rosa", "ana")
SAYS = ("", "The lock *clicks*.", "Ana picks it.")  # "": a roll said nothing

moves = st.lists(
    st.one_of(
        st.tuples(st.just("post"), st.sampled_from(AUTHORS), st.sampled_from(TEXTS)),
        st.tuples(st.just("roll"), st.sampled_from(AUTHORS), st.sampled_from(SAYS)),
        st.tuples(st.just("undo"), st.integers(0, 20)),
        st.tuples(st.just("amend"), st.integers(0, 20), st.sampled_from(TEXTS)),
        st.tuples(st.just("resay"), st.integers(0, 20), st.sampled_from(SAYS[1:])),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=moves, on_file=st.booleans())
def test_the_thread_equals_the_one_computed_from_the_whole_history(
    moves: list[Any], on_file: bool
) -> None:
    """In memory, and on a SQLite file (whose session reads go through the ruling index)."""
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "campaign.db") if on_file else ":memory:"
        played(db, moves)


def played(db: str, moves: list[Any]) -> None:
    with freeze_time(FROZEN_AT), Engine(db) as engine:
        engine.create_campaign("Lab", "code-green", gm="Rosa", members={"ana": Role.PLAYER})
        engine.execute("Lab", StartSession())
        engine.execute("Lab", StartScene(stage="A dark hall"))
        posts: dict[int, dict[str, Any]] = {}  # the model: ruling -> text, edits, struck
        rolls: dict[int, dict[str, Any]] = {}  # ruling -> narration, edits, struck
        authors: dict[int, str] = {}
        standing: list[int] = []  # posts and rolls in force, in order
        for move in moves:
            if move[0] == "post":
                _, author, text = move
                written = WritePost(text=text, by=author, ooc=author == "ana")  # she plays none
                number = engine.execute("Lab", written, actor=author).number
                posts[number] = {"text": text, "was": [], "struck": False}
                authors[number] = author
                standing.append(number)
            elif move[0] == "roll":
                _, author, say = move
                roll = RollFreely(expression="1d20", why="the lock")
                number = engine.execute("Lab", roll, actor=author, say=say).number
                rolls[number] = {"say": say, "was": [], "struck": False}
                authors[number] = author
                standing.append(number)
            elif move[0] == "undo" and standing:
                number = standing.pop(move[1] % len(standing))
                engine.undo("Lab", number, reason=f"strike {number}")
                for model in (posts, rolls):
                    if number in model:
                        model[number]["struck"] = True
            elif move[0] in ("amend", "resay"):
                key, model = ("text", posts) if move[0] == "amend" else ("say", rolls)
                mine = [n for n in standing if n in model]
                if not mine:
                    continue
                number, words = mine[move[1] % len(mine)], move[2]
                by = authors[number] if move[1] % 2 else "Rosa"  # the author, or the GM
                if key == "text" and ROLLS[words] != ROLLS[posts[number]["text"]]:
                    with pytest.raises(PostRollChanged):  # an edit keeps the rolls as written
                        engine.amend("Lab", number, {key: words}, reason="edited", actor=by)
                    continue
                engine.amend("Lab", number, {key: words}, reason="edited", actor=by)
                if words != model[number][key]:
                    model[number]["was"].append(model[number][key])
                    model[number][key] = words

        thread = engine.thread("Lab", 1, audience=GMS)
        whole = [e for e in engine.log("Lab", audience=GMS) if e.header.session == 1]
        assert build_thread(engine.campaign("Lab"), whole, 1) == thread
        found = {
            e.ruling: {
                "text": e.post.text,
                "was": [x.was for x in e.edits],
                "struck": e.struck is not None,
            }
            for e in thread.entries
            if e.post is not None
        }
        assert posts == found
        narrated = {
            e.ruling: {
                "say": e.say,
                "was": [x.was for x in e.edits],
                "struck": e.struck is not None,
            }
            for e in thread.entries
            if e.ruling in rolls
        }
        assert rolls == narrated
        for reader in AUTHORS:  # every post here is public: each reads the same thread
            assert thread.entries == engine.thread("Lab", 1, audience=of_actor(reader)).entries
