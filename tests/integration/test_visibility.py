"""Visibility through every read: a GM's hidden roll, a hidden post and a GM-only note never
reach a player or an observer (log, headers, history, a session's rulings, the recap in JSON
and Markdown, the Exposure timelines, the thread in every format, a search, the export) until the GM
reveals them; a private post reaches only its author, the members it was written to and the
GMs; the GMs read everything."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.audience import GMS, Member, of_actor
from domain.errors import NotAllowed
from domain.events import Role
from domain.lifecycle import AddNote, EndSession, StartSession
from domain.posts import WritePost
from domain.rulesets.the_code.commands import RollExposure
from domain.table import AddMember, RevealRuling
from engine import DiceSpec, Engine, converter
from projections.render_html import recap_html
from projections.render_md import recap_md
from projections.render_thread import thread_html, thread_json, thread_md, thread_text
from tests.conftest import event_count
from tests.golden.test_the_code import HAWK, table

SECRET = "the mayor is the Owl"
WHISPER = "kim, the Owl pays you"  # the GM's private post to kim
HIDDEN_POST = "the Owl watches from the roof"  # the GM's hidden post
READERS = ["dana", "olly"]  # the Hawk's player, an observer


@pytest.fixture
def hidden(engine: Engine) -> int:
    """The Code's 'Lab': a public Exposure roll in session 1; in session 2 a hidden one and a
    GM-only note. Returns the hidden roll's number."""
    table(engine, exposure=1)
    engine.execute("Lab", AddMember(member="dana", role=Role.PLAYER))  # the Hawk's player
    engine.execute("Lab", AddMember(member="olly", role=Role.OBSERVER))
    engine.execute("Lab", RollExposure(hero=HAWK), dice=DiceSpec(faces=(2,)))
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    secret = engine.execute(
        "Lab", RollExposure(hero=HAWK), dice=DiceSpec(faces=(4, 6)), hidden=True
    )
    engine.execute("Lab", AddNote(text=SECRET, gm_only=True))
    engine.execute("Lab", AddMember(member="kim", role=Role.PLAYER))
    engine.execute("Lab", WritePost(text=WHISPER, by="GM", to=("kim",)))
    hidden_post = WritePost(text=f"{HIDDEN_POST} [1d6]", by="GM")
    engine.execute("Lab", hidden_post, dice=DiceSpec(faces=(5,)), hidden=True)
    return secret.number


def everything_read_by(engine: Engine, reader: str | None) -> str:
    """Every read a member can make, as one text to search."""
    reads: list[Any] = [
        [converter.unstructure(e) for e in engine.log("Lab", audience=of_actor(reader))],
        [converter.unstructure(h) for h in engine.headers("Lab", audience=of_actor(reader))],
        [converter.unstructure(c) for c in engine.history("Lab", HAWK, audience=of_actor(reader))],
        [
            converter.unstructure(e)
            for e in engine.session_rulings("Lab", audience=of_actor(reader))
        ],
        engine.recap("Lab", audience=of_actor(reader), gm=True),
        recap_md(engine.recap("Lab", audience=of_actor(reader), gm=True)),
        engine.hero_timeline("Lab", HAWK, audience=of_actor(reader)),
        engine.campaign_timelines("Lab", audience=of_actor(reader)),
        converter.unstructure(engine.search("Lab", "mayor owl", audience=of_actor(reader))),
        recap_html(engine.recap("Lab", audience=of_actor(reader), gm=True)),
        thread_json(engine.thread("Lab", audience=of_actor(reader))),
        thread_md(engine.thread("Lab", audience=of_actor(reader))),
        thread_html(engine.thread("Lab", audience=of_actor(reader))),
        thread_text(engine.thread("Lab", audience=of_actor(reader))),
    ]
    return json.dumps(reads, default=str)


def mentions(text: str, ruling: int) -> bool:
    return f'"number": {ruling},' in text or f'"ruling": {ruling},' in text


@pytest.mark.parametrize("reader", READERS)
def test_nothing_hidden_reaches_a_player_or_an_observer(
    engine: Engine, hidden: int, reader: str
) -> None:
    seen = everything_read_by(engine, reader)
    assert not mentions(seen, hidden)
    assert SECRET not in seen
    assert "[4,6]" not in seen.replace(" ", "")
    assert WHISPER not in seen
    assert HIDDEN_POST not in seen


def test_a_private_post_reaches_its_audience_alone(engine: Engine, hidden: int) -> None:
    """kim reads the GM's post to her (not the hidden one); dana and olly read neither."""
    seen = everything_read_by(engine, "kim")
    assert WHISPER in seen
    assert HIDDEN_POST not in seen
    assert SECRET not in seen


def test_a_revealed_post_is_everyones(engine: Engine, hidden: int) -> None:
    post = engine.campaign("Lab").rulings
    engine.execute("Lab", RevealRuling(ruling=post))
    for reader in READERS:
        seen = everything_read_by(engine, reader)
        assert HIDDEN_POST in seen
        assert WHISPER not in seen


def test_the_gm_reads_everything(engine: Engine, hidden: int) -> None:
    for gm in (None, "GM"):
        seen = everything_read_by(engine, gm)
        assert mentions(seen, hidden)
        assert SECRET in seen
        assert WHISPER in seen
        assert HIDDEN_POST in seen


@pytest.mark.parametrize("reader", READERS)
def test_a_revealed_roll_is_everyones(engine: Engine, hidden: int, reader: str) -> None:
    engine.execute("Lab", RevealRuling(ruling=hidden))
    seen = everything_read_by(engine, reader)
    assert mentions(seen, hidden)
    assert SECRET not in seen  # a GM-only note stays the GM's


@pytest.mark.parametrize("reader", READERS)
def test_the_whole_log_is_the_gms_to_export(engine: Engine, hidden: int, reader: str) -> None:
    with pytest.raises(NotAllowed):
        list(engine.export("Lab", audience=of_actor(reader)))
    assert list(engine.export("Lab", audience=Member("GM")))


def test_only_a_gm_hides_and_reveals(engine: Engine, hidden: int) -> None:
    before = event_count(engine)
    with pytest.raises(NotAllowed):
        engine.execute(
            "Lab", RollExposure(hero=HAWK), actor="dana", dice=DiceSpec(faces=(1,)), hidden=True
        )
    with pytest.raises(NotAllowed):
        engine.execute("Lab", RevealRuling(ruling=hidden), actor="dana")
    assert before == event_count(engine)


@pytest.mark.parametrize("reader", READERS)
def test_a_sheet_does_not_tell_what_a_hidden_roll_did(
    engine: Engine, hidden: int, reader: str
) -> None:
    """The Hawk's Exposure after the hidden roll is the GM's to know: a player's sheet shows it
    as the public rulings left it, until the GM reveals the roll."""
    gm_sees = engine.character("Lab", HAWK, audience=GMS)
    before = engine.character_at("Lab", HAWK, ruling=hidden - 1, audience=GMS)
    assert gm_sees != before
    assert before == engine.character("Lab", HAWK, audience=of_actor(reader))
    assert before == engine.character_at("Lab", HAWK, ruling=hidden, audience=of_actor(reader))
    engine.execute("Lab", RevealRuling(ruling=hidden))
    assert gm_sees == engine.character("Lab", HAWK, audience=of_actor(reader))
