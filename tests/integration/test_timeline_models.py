"""The Exposure reveal timeline: every change and reveal with its cause, what the public knew at
each session's end, undone and amended rulings voided rather than dropped, and the chart."""

from __future__ import annotations

from functools import partial
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.errors import UnknownCharacter
from domain.lifecycle import EndSession, StartSession
from domain.rulesets.the_code.commands import Blab, CreateHero, RollExposure
from domain.rulesets.the_code.tables import Detail
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.reads.models import MemoryViews
from engine.reads.recaps import NotTheCode
from projections import the_code_timeline_model as timeline_model
from projections.render_html import timeline_html
from projections.render_svg import chart
from projections.the_code_presentation import EXPOSURE
from projections.timeline import hero_document, timeline
from tests.conftest import scene_with_s1
from tests.golden.test_the_code import HAWK, MITCH, run, table
from tests.integration.test_recap_models import moves, step

VOLT = {**MITCH, "player": "lee", "code_name": "Lady Volt", "secret_identity": "Vera"}


def two_sessions(engine: Engine) -> None:
    """Session 1: the Hawk's roll reveals his description. Session 2: a blab, an undone roll,
    then a roll that reveals his MO."""
    table(engine, exposure=1)
    run(engine, RollExposure(hero=HAWK), 2)
    run(engine, EndSession())
    run(engine, StartSession())
    run(engine, Blab(hero=HAWK, details=(Detail.PROFESSION,), confidant="his old partner"))
    run(engine, RollExposure(hero=HAWK), 4, 6, 8)
    engine.undo("Lab", reason="wrong hero", actor="Sam")
    run(engine, RollExposure(hero=HAWK), 1, 5, 8)


def test_every_change_has_its_cause_and_dice(engine: Engine) -> None:
    """Each row names the ruling, the move, its cause and the dice that explain it."""
    two_sessions(engine)
    first = engine.hero_timeline("Lab", HAWK, audience=GMS)["rows"][0]
    expected = (4, 1, [(1, 2, "session-roll")], ["Exposure roll [2]: an even die: +1"])
    changes = [(c["before"], c["after"], c["cause"]) for c in first["changes"]]
    assert expected == (first["ruling"], first["session"], changes, first["because"])


def test_an_undone_reveal_stays_voided(engine: Engine) -> None:
    """The undone roll's row and reveal are kept, marked voided with who and why."""
    two_sessions(engine)
    rows = engine.hero_timeline("Lab", HAWK, audience=GMS)["rows"]
    voided = [(r["ruling"], r["voided"]["by"], r["voided"]["actor"]) for r in rows if r["voided"]]
    assert [(8, 9, "Sam")] == voided
    assert ["modus-operandi"] == [x["detail"] for r in rows if r["voided"] for x in r["reveals"]]


def test_what_the_public_knew_at_each_session_end(engine: Engine) -> None:
    """Session 1 ends with the description public; session 2 adds the profession and the
    detail of the roll that stood, never the undone one."""
    two_sessions(engine)
    line = engine.hero_timeline("Lab", HAWK, audience=GMS)
    known = [[p["detail"] for p in s["public"]] for s in line["sessions"]]
    assert [["physical-description"]] == known
    now = [p["detail"] for p in line["now"]["public"]]
    assert ["physical-description", "profession", "modus-operandi"] == now


def test_an_amended_reveal_is_replaced_in_place(engine: Engine) -> None:
    """An amendment voids the original row and puts what stands right after it."""
    table(engine, exposure=1)
    run(engine, RollExposure(hero=HAWK), 2)
    engine.amend("Lab", 4, {"reveal": "weakness"}, reason="the GM's choice")
    rows = engine.hero_timeline("Lab", HAWK, audience=GMS)["rows"]
    expected = [("amended", ["physical-description"]), (None, ["weakness"])]
    actual = [
        (r["voided"] and r["voided"]["kind"], [x["detail"] for x in r["reveals"]]) for r in rows
    ]
    assert expected == actual


def test_the_campaign_view_lists_every_hero(engine: Engine) -> None:
    """The campaign-wide view holds a timeline per hero and each hero's standing per session."""
    table(engine, exposure=1)
    engine.execute("Lab", CreateHero(**{**VOLT, "exposure": 2}))
    run(engine, RollExposure(hero=HAWK), 2)
    run(engine, RollExposure(hero="Lady Volt"), 1, 3)
    run(engine, EndSession())
    view = engine.campaign_timelines("Lab", audience=GMS)
    assert [HAWK, "Lady Volt"] == [line["hero"] for line in view["heroes"]]
    standing = [(h["hero"], h["exposure"], h["peak"]) for h in view["sessions"][0]["heroes"]]
    assert [(HAWK, 2, 2), ("Lady Volt", 1, 2)] == standing
    assert 2 == chart(view["heroes"]).count('class="hero"')


def test_the_chart_marks_each_reveal(engine: Engine) -> None:
    """The SVG has one marker per reveal, the voided one drawn as voided, and no script."""
    two_sessions(engine)
    html = timeline_html(engine.hero_timeline("Lab", HAWK, audience=GMS))
    assert (3, 1) == (html.count('<g class="reveal"'), html.count('<g class="reveal voided"'))
    assert "<script" not in html


def test_only_the_code_has_timelines(engine: Engine) -> None:
    """Another system's campaign, or a name that is no hero, is refused."""
    scene_with_s1(engine)
    with pytest.raises(NotTheCode):
        engine.hero_timeline("Lab", "alice", audience=GMS)


def test_a_timeline_needs_a_known_hero(engine: Engine) -> None:
    """A name nobody in the roster has is refused."""
    table(engine)
    with pytest.raises(UnknownCharacter):
        engine.hero_timeline("Lab", "The Owl", audience=GMS)


# --- Pages: a long history reads and writes a page at a time --------------------------------------


def _timelines_from(views: MemoryViews, engine: Engine) -> list[dict[str, Any]]:
    cid = engine.campaign("Lab").id
    read = partial(views.document, EXPOSURE.name)
    meta = read(f"campaign/{cid}")
    docs = [hero_document(read, f"hero/{cid}/{hero}") for hero in meta["heroes"]]
    return [timeline(doc, meta) for doc in docs if doc is not None]


@settings(max_examples=25, deadline=None)
@given(history=moves, seed=st.integers(0, 2**16))
def test_pages_of_one_row_hold_the_same_timeline(history: list[tuple[str, Any]], seed: int) -> None:
    """Built with pages of one row, undos and amendments included, a hero's timeline is the one
    built with the usual pages."""
    with Engine() as engine:
        table(engine, exposure=1, reward_points=40)
        for number, move in enumerate(history):
            step(engine, move, seed + number)
        usual, paged = MemoryViews(), MemoryViews()
        engine.read_models.catch_up(EXPOSURE, views=usual)
        with patch.object(timeline_model, "PAGE", 1):
            engine.read_models.catch_up(EXPOSURE, views=paged)
        assert _timelines_from(usual, engine) == _timelines_from(paged, engine)


class Writes(MemoryViews):
    """Memory views that remember the documents each catch-up wrote."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[str] = []

    def commit(self, name: str, expected: int, position: int, writes: dict[str, Any]) -> bool:
        self.written = sorted(writes)
        return super().commit(name, expected, position, writes)


def test_one_more_row_writes_the_heads_and_the_last_page(engine: Engine) -> None:
    """After many rows, one more ruling writes the campaign, the hero's head, its last page and
    the ruling's entry: never the pages before."""
    table(engine, exposure=1, reward_points=40)
    views = Writes()
    with patch.object(timeline_model, "PAGE", 2):
        for seed in range(7):  # one Exposure roll a session
            engine.execute("Lab", RollExposure(hero=HAWK), dice=DiceSpec(seed=seed))
            run(engine, EndSession())
            run(engine, StartSession())
        engine.read_models.catch_up(EXPOSURE, views=views)
        campaign = engine.campaign("Lab")
        key = f"hero/{campaign.id}/{campaign.find(HAWK).character_id}"
        head = views.document(EXPOSURE.name, key)
        assert head["pages"] == -(-head["count"] // 2) > 2
        engine.execute("Lab", RollExposure(hero=HAWK), dice=DiceSpec(seed=7))
        engine.read_models.catch_up(EXPOSURE, views=views)
    ruling = engine.campaign("Lab").rulings
    last = f"{key}/{views.document(EXPOSURE.name, key)['pages'] - 1}"
    assert views.written == sorted(
        [f"campaign/{campaign.id}", key, last, f"ruling/{campaign.id}/{ruling}"]
    )
