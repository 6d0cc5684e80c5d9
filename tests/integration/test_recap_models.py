"""Session recaps as read models: built from the events, corrected in place, GM-only lines kept
out, user text escaped, and an incremental build always equal to a rebuild from scratch."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.errors import DomainError
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets.code_green.commands import Adapt, DeclareTest, RollTest
from domain.rulesets.the_code.commands import (
    Blab,
    FollowMo,
    LowerExposure,
    RollExposure,
    SolveProblem,
)
from domain.rulesets.the_code.tables import Detail, Scale
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.reads.models import MemoryViews
from engine.reads.recaps import RECAPS
from projections.render_html import recap_html
from projections.render_md import recap_md
from projections.the_code_presentation import EXPOSURE
from tests.conftest import place, scene_with_s1
from tests.golden.test_the_code import HAWK, table

HOSTILE = "<script>alert('pwned')</script>"


def roll_and_adapt(engine: Engine, who: str) -> None:
    """A test on S1 Legs x Invulnerable rolled with [2,5,4], then an adaptation R1C2 -> R1C3."""
    engine.execute("Lab", DeclareTest(character=who, form="Legs", function="Invulnerable"))
    engine.execute("Lab", RollTest(), dice=DiceSpec(faces=(2, 5, 4)))
    engine.execute("Lab", Adapt(character=who, source="R1C2", destination="R1C3"))


def played(engine: Engine) -> str:
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R1C2", "R2C2")
    roll_and_adapt(engine, who)
    return who


def test_a_recap_has_its_scene_and_one_line_per_ruling(engine: Engine) -> None:
    """Each ruling reads as one line under its scene, numbered, rendered from its events."""
    played(engine)
    recap = engine.recap("Lab", audience=GMS)
    (scene,) = recap["scenes"]
    assert (1, "The lab wakes up") == (scene["number"], scene["stage"])
    assert [4, 5, 6, 7, 8] == [beat["ruling"] for beat in scene["beats"]]
    assert "31415: test 1: pool 3 [2,5,4] -> 5: mostly human" == scene["beats"][3]["text"]


def test_an_undone_ruling_moves_to_the_corrections(engine: Engine) -> None:
    """An undo takes the ruling out of the scene and lists it with who undid it and why."""
    played(engine)
    engine.undo("Lab", reason="wrong square", actor="Rosa")
    recap = engine.recap("Lab", audience=GMS)
    (correction,) = recap["corrections"]
    expected = ("undone", 8, 9, "Rosa", "wrong square")
    actual = tuple(correction[k] for k in ("kind", "ruling", "by", "actor", "reason"))
    assert expected == actual
    assert 8 not in [b["ruling"] for s in recap["scenes"] for b in s["beats"]]
    assert ("31415", "adapts after test 1: token R1C2 -> R1C3") == tuple(
        correction["was"][0].values()
    )


def test_a_correction_in_a_later_session_updates_the_earlier_recap(engine: Engine) -> None:
    """Undoing a ruling of session 1 during session 2 shows in both recaps."""
    played(engine)
    engine.execute("Lab", EndScene())
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    engine.undo("Lab", 6, reason="no test was needed", redecide=True)
    first = engine.recap("Lab", 1, audience=GMS)["corrections"]
    second = engine.recap("Lab", 2, audience=GMS)["corrections"]
    assert [(6, 12), (7, 12), (8, 12), (9, 12)] == [(c["ruling"], c["by"]) for c in first]
    assert [1, 1, 1, 1] == [c["session"] for c in second]


def test_gm_only_notes_stay_out_of_the_public_recap(engine: Engine) -> None:
    """A GM-only note is in no public format, and in the GM's own recap."""
    scene_with_s1(engine)
    engine.execute("Lab", AddNote(text="the guard is a mole", gm_only=True))
    engine.execute("Lab", AddNote(text="the lights go out"))
    public = engine.recap("Lab", audience=GMS)
    texts = [b["text"] for s in public["scenes"] for b in s["beats"]]
    assert ["note: the lights go out"] == [t for t in texts if "note" in t]
    for rendered in (str(public), recap_md(public), recap_html(public)):
        assert "mole" not in rendered
    gm = engine.recap("Lab", gm=True, audience=GMS)
    assert any("GM-only note: the guard is a mole" == b["text"] for b in gm["scenes"][0]["beats"])


def test_hostile_names_are_escaped(engine: Engine) -> None:
    """A stage, a note and a campaign name full of markup stay text in HTML and Markdown."""
    engine.create_campaign("Lab", "code-green", gm=HOSTILE)
    engine.execute("Lab", StartSession())
    engine.execute("Lab", StartScene(stage=HOSTILE))
    engine.execute("Lab", AddNote(text=HOSTILE))
    recap = engine.recap("Lab", audience=GMS)
    html = recap_html(recap)
    assert "<script" not in html
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in html
    markdown = recap_md(recap)
    assert "\\<script>" in markdown
    assert re.search(r"(?<!\\)<script", markdown) is None


def test_one_new_ruling_processes_only_its_events(engine: Engine) -> None:
    """After catching up, one more ruling costs exactly that ruling's events."""
    who = played(engine)
    engine.read_models.catch_up(RECAPS)
    result = engine.execute("Lab", DeclareTest(character=who, form="Tail", function="Cryptic"))
    assert len(result.records) == engine.read_models.catch_up(RECAPS)
    assert 0 == engine.read_models.catch_up(RECAPS)


def test_the_sqlite_read_model_keeps_its_position(tmp_path: Path, frozen: None) -> None:
    """Reopening the store continues from the tracked position; a rebuild gives the same recap."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first:
        played(first)
        expected = first.recap("Lab", audience=GMS)
    with Engine(db) as second:
        assert 0 == second.read_models.catch_up(RECAPS)
        assert second.read_models.rebuild(RECAPS) > 0
        assert expected == second.recap("Lab", audience=GMS)


def test_a_changed_format_version_rebuilds(engine: Engine) -> None:
    """A read model whose version moved starts again from the first event."""
    played(engine)
    processed = engine.read_models.catch_up(RECAPS)

    class Newer:
        name = RECAPS.name
        version = RECAPS.version + 1
        apply = RECAPS.apply

    assert processed == engine.read_models.catch_up(Newer())


# --- Incremental equals a rebuild (The Code: undo and amend included) -----------------------------

moves = st.lists(
    st.sampled_from(
        [
            ("run", RollExposure(hero=HAWK)),
            ("run", Blab(hero=HAWK, details=(Detail.PROFESSION,), confidant="a reporter")),
            ("run", FollowMo(hero=HAWK, description="cuffs")),
            ("run", SolveProblem(hero=HAWK, description="a mugging", scale=Scale.MINOR)),
            ("run", LowerExposure(hero=HAWK)),
            ("run", AddNote(text="a clue", gm_only=True)),
            ("run", EndSession()),
            ("run", StartSession()),
            ("undo", None),
            ("amend", None),
        ]
    ),
    min_size=1,
    max_size=14,
)


def step(engine: Engine, move: tuple[str, Any], seed: int) -> None:
    kind, command = move
    try:
        if kind == "run":
            engine.execute("Lab", command, dice=DiceSpec(seed=seed))
        elif kind == "undo":
            engine.undo("Lab", reason="property", with_dependents=True)
        else:
            latest = engine.log("Lab", audience=GMS)[-1].ruling.number
            engine.amend("Lab", latest, {"reveal": "weakness"}, reason="GM's choice")
    except DomainError:
        pass


@settings(max_examples=25, deadline=None)
@given(history=moves, seed=st.integers(0, 2**16), every=st.integers(1, 3))
def test_incremental_updates_equal_a_rebuild(
    history: list[tuple[str, Any]], seed: int, every: int
) -> None:
    """Catching up every few rulings leaves the same documents as one build from scratch."""
    with Engine() as engine:
        table(engine, exposure=1, reward_points=40)
        for number, move in enumerate(history):
            step(engine, move, seed + number)
            if number % every == 0:
                for model in (RECAPS, EXPOSURE):
                    engine.read_models.catch_up(model)
        incremental = engine.read_models.views
        scratch = MemoryViews()
        for model in (RECAPS, EXPOSURE):
            engine.read_models.catch_up(model)
            engine.read_models.catch_up(model, views=scratch)
            assert isinstance(incremental, MemoryViews)
            assert scratch.documents(model.name) == incremental.documents(model.name)
