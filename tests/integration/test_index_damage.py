"""A damaged document of the ruling index (a read model: a cache of the log) never fails a read
nor changes what it gives: `log` (a session's, some rulings', the whole log a page at a time),
`history`, `show --session` and a player's `dice-stats` give what they gave before the damage,
read from the log itself where the index does not read as the index's or disagrees with the
log; and `verify` names the document. On every store (memory, SQLite, PostgreSQL), through the
engine and through the `campaign` command."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from freezegun import freeze_time
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import campaign as cli
from domain.audience import GMS, Member
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets.code_green.commands import Adapt, DeclareTest
from engine import DiceSpec, Engine
from engine.application.reads import Reads
from engine.reads import indexed as index_reads
from engine.reads.indexed import INDEX
from tests.conftest import FROZEN_AT, place, scene_with_s1
from tests.postgres import fresh_schema


def play(engine: Engine) -> None:
    """'Lab': session 1 (alice's test and adapt, a note amended, another undone), sealed;
    session 2 (two notes, one hidden from the players); the index caught up."""
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    test = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
    engine.execute("Lab", test, dice=DiceSpec(faces=(2, 5)))
    engine.execute("Lab", Adapt(character=who, source="R1C1", destination="R1C2"))
    engine.execute("Lab", AddNote(text="the guard was asleep"))
    engine.execute("Lab", AddNote(text="said twice"))
    engine.undo("Lab", reason="said twice")
    engine.amend("Lab", 8, {"text": "the guard was awake"}, reason="misheard")
    engine.execute("Lab", EndScene())
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    engine.execute("Lab", StartScene(stage="The roof"))
    engine.execute("Lab", AddNote(text="wind"))
    engine.execute("Lab", AddNote(text="the guard follows"), hidden=True)
    engine.catch_up(INDEX.name)


def reads(engine: Engine) -> dict[str, str]:
    """What every read through the index gives (the GM's and alice's)."""
    campaign = engine.campaign("Lab")
    who = campaign.roster[0].name
    found: dict[str, str] = {}
    with mock.patch.object(index_reads, "PAGE", 4):  # the whole log, four rulings a page
        found["log"] = repr(list(engine.iter_log("Lab", audience=GMS)))
    for session in (1, 2):
        found[f"log {session}"] = repr(engine.log("Lab", session=session, audience=GMS))
        found[f"end {session}"] = repr(engine.ruling_at("Lab", session=session))
        found[f"dice {session}"] = repr(
            engine.dice_stats("Lab", session=session, audience=Member("alice"))
        )
    found["some"] = repr(engine.log("Lab", rulings={2, 7, 8, 9, 99}, audience=Member("alice")))
    found["thread"] = repr(engine.session_rulings("Lab", audience=Member("alice")))
    found["history"] = repr(engine.history("Lab", who, audience=GMS))
    found["dice"] = repr(engine.dice_stats("Lab", character=who, audience=Member("alice")))
    return found


def keys(engine: Engine) -> list[str]:
    return [key for key, _ in engine.read_models.views.listed(INDEX.name, "", 1000)]


def damage(engine: Engine, key: str, body: str) -> None:
    """The index's document ``key`` replaced by ``body`` (any text), the index where it stands."""
    views = engine.read_models.views
    tracked = views.tracking(INDEX.name)
    assert tracked is not None
    assert views.adopt(INDEX.name, tracked, tracked[0], [(key, body)])


def stored(engine: Engine, key: str) -> str:
    (found,) = [
        body for k, body in engine.read_models.views.listed(INDEX.name, "", 1000) if k == key
    ]
    return found


def _kind(key: str) -> str:
    parts = key.split("/")
    return parts[0] + ("-page" if len(parts) == 4 else "")


# One hand edit of each kind of document: each fails a read today, or changes what it gives.
EDITS: list[tuple[str, Callable[[Any], Any]]] = [
    ("ruling", lambda doc: "{"),
    ("ruling", lambda doc: []),
    ("ruling", lambda doc: {}),
    ("ruling", lambda doc: {n: {**e, "v": "x"} for n, e in doc.items()}),
    ("ruling", lambda doc: {n: {**e, "v": e["v"] + 50} for n, e in doc.items()}),
    ("ruling", lambda doc: {n: {**e, "t": [["zz", 1, 1]]} for n, e in doc.items()}),
    ("ruling", lambda doc: {n: {**e, "by": [*e["by"], 99]} for n, e in doc.items()}),
    ("session", lambda doc: {"count": doc["count"] + 1}),
    ("session", lambda doc: {"count": 10**15}),
    ("session", lambda doc: {"count": doc["count"] - 1}),
    ("session", lambda doc: {"count": "a"}),
    ("session-page", lambda doc: doc[:-1]),
    ("session-page", lambda doc: doc[1:]),
    ("session-page", lambda doc: [*doc, doc[-1] + 1]),
    ("session-page", lambda doc: ["a"]),
    ("session-page", lambda doc: list(reversed(doc))),
    ("stream", lambda doc: {"count": doc["count"] - 1}),
    ("stream-page", lambda doc: doc[:-1]),
    ("stream-page", lambda doc: [1, *doc]),
]


@pytest.fixture
def lab(any_engine: Engine) -> tuple[Engine, dict[str, str]]:
    play(any_engine)
    return any_engine, reads(any_engine)


@pytest.mark.parametrize(("kind", "edit"), EDITS)
def test_each_hand_edit_reads_as_before(
    lab: tuple[Engine, dict[str, str]], kind: str, edit: Callable[[Any], Any]
) -> None:
    """Every document of that kind edited in turn: every read as before; verify names it."""
    engine, before = lab
    for key in [k for k in keys(engine) if _kind(k) == kind]:
        original = stored(engine, key)
        edited = edit(json.loads(original))
        if edited == json.loads(original):
            continue  # a list of one reversed
        body = edited if isinstance(edited, str) else json.dumps(edited)
        damage(engine, key, body)
        assert before == reads(engine), key
        named = f"the index read model's document {key} "
        (found,) = engine.verify("Lab").findings
        assert found.problem.startswith(named), key
        damage(engine, key, original)


def test_a_ruling_made_after_the_damage_reads_too(lab: tuple[Engine, dict[str, str]]) -> None:
    """The index cannot catch up through a document that is not JSON: the log answers, the
    new ruling with the rest; `campaign rebuild --projection index` writes it again."""
    engine, _ = lab
    (entries,) = [k for k in keys(engine) if k.startswith("ruling/")]
    current = [k for k in keys(engine) if k.startswith("session/") and k.endswith("/2/0")]
    for key in [entries, *current]:
        damage(engine, key, "{")
    engine.execute("Lab", AddNote(text="after the damage"))
    logged = engine.log("Lab", session=2, audience=GMS)
    with mock.patch.object(Reads, "_indexed", return_value=None):  # the log alone
        assert engine.log("Lab", session=2, audience=GMS) == logged
    assert engine.campaign("Lab").rulings == logged[-1].ruling.number
    engine.rebuild(INDEX.name)
    assert engine.verify("Lab").intact
    assert logged == engine.log("Lab", session=2, audience=GMS)


def test_a_damaged_row_on_postgresql_reads_as_before(frozen: None) -> None:
    with fresh_schema() as url, Engine(url) as engine:
        play(engine)
        before = reads(engine)
        for key in keys(engine):
            original = stored(engine, key)
            damage(engine, key, "[")
            assert before == reads(engine), key
            damage(engine, key, original)


# --- Any document, any text -------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Engine, dict[str, str]]]:
    db = tmp_path_factory.mktemp("index") / "campaign.db"
    with freeze_time(FROZEN_AT), Engine(str(db)) as engine:
        play(engine)
        yield engine, reads(engine)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)


@st.composite
def bodies(draw: st.DrawFn, original: Any) -> str:
    """Any text, any JSON, or the document with one value in it replaced."""
    kind = draw(st.sampled_from(["text", "json", "value"]))
    if kind == "text":
        return draw(st.text(max_size=40))
    if kind == "json":
        return json.dumps(draw(json_values))
    doc = json.loads(json.dumps(original))
    inner: Any = doc
    while isinstance(inner, dict | list) and inner and draw(st.booleans()):
        at = draw(st.sampled_from(sorted(inner) if isinstance(inner, dict) else range(len(inner))))
        if not isinstance(inner[at], dict | list) or not inner[at]:
            inner[at] = draw(json_values)
            return json.dumps(doc)
        inner = inner[at]
    if isinstance(inner, dict) and inner:
        inner[draw(st.sampled_from(sorted(inner)))] = draw(json_values)
    elif isinstance(inner, list) and inner:
        inner[draw(st.integers(0, len(inner) - 1))] = draw(json_values)
    return json.dumps(doc)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_document_with_any_text_reads_as_before(
    shared: tuple[Engine, dict[str, str]], data: st.DataObject
) -> None:
    engine, before = shared
    key = data.draw(st.sampled_from(keys(engine)), label="key")
    original = stored(engine, key)
    body = data.draw(bodies(json.loads(original)), label="body")
    damage(engine, key, body)
    try:
        assert before == reads(engine)
    finally:
        damage(engine, key, original)


# --- Through the `campaign` command, a row edited in the SQLite file ----------------------------


@pytest.mark.parametrize("body", ["{", "[]", '{"count": 2}', "[1]"])
@pytest.mark.parametrize("kind", ["ruling", "session", "session-page"])
def test_campaign_log_reads_as_before_a_row_was_edited(
    tmp_path: Path, frozen: None, kind: str, body: str
) -> None:
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        play(engine)
        (key, *_) = [k for k in keys(engine) if _kind(k) == kind]

    def run(*argv: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(cli, ["--db", str(db), *argv])
        return result.exit_code, result.stdout, result.stderr

    before = [run("log"), run("log", "--session", "1"), run("--json", "log", "--session", "2")]
    with sqlite3.connect(db) as c:
        c.execute(
            "UPDATE readmodel_documents SET body = ? WHERE projection = 'index' AND key = ?",
            (body, key),
        )
    assert before == [
        run("log"),
        run("log", "--session", "1"),
        run("--json", "log", "--session", "2"),
    ]
    code, out, _ = run("verify")
    assert 1 == code
    assert f"the index read model's document {key} " in out
