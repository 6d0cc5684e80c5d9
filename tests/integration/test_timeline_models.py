"""The Exposure reveal timeline: every change and reveal with its cause, what the public knew at
each session's end, undone and amended rulings voided rather than dropped, and the chart."""

from __future__ import annotations

import pytest

from cli.recap_views import NotTheCode, campaign_timelines, hero_timeline
from domain.errors import UnknownCharacter
from domain.lifecycle import EndSession, StartSession
from domain.rulesets.the_code.commands import Blab, CreateHero, RollExposure
from domain.rulesets.the_code.tables import Detail
from engine import Engine
from projections.render_html import timeline_html
from projections.render_svg import chart
from tests.conftest import scene_with_s1
from tests.golden.test_the_code import HAWK, MITCH, run, table

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
    first = hero_timeline(engine, "Lab", HAWK)["rows"][0]
    expected = (4, 1, [(1, 2, "session-roll")], ["Exposure roll [2]: an even die: +1"])
    changes = [(c["before"], c["after"], c["cause"]) for c in first["changes"]]
    assert expected == (first["ruling"], first["session"], changes, first["because"])


def test_an_undone_reveal_stays_voided(engine: Engine) -> None:
    """The undone roll's row and reveal are kept, marked voided with who and why."""
    two_sessions(engine)
    rows = hero_timeline(engine, "Lab", HAWK)["rows"]
    voided = [(r["ruling"], r["voided"]["by"], r["voided"]["actor"]) for r in rows if r["voided"]]
    assert [(8, 9, "Sam")] == voided
    assert ["modus-operandi"] == [x["detail"] for r in rows if r["voided"] for x in r["reveals"]]


def test_what_the_public_knew_at_each_session_end(engine: Engine) -> None:
    """Session 1 ends with the description public; session 2 adds the profession and the
    detail of the roll that stood, never the undone one."""
    two_sessions(engine)
    line = hero_timeline(engine, "Lab", HAWK)
    known = [[p["detail"] for p in s["public"]] for s in line["sessions"]]
    assert [["physical-description"]] == known
    now = [p["detail"] for p in line["now"]["public"]]
    assert ["physical-description", "profession", "modus-operandi"] == now


def test_an_amended_reveal_is_replaced_in_place(engine: Engine) -> None:
    """An amendment voids the original row and puts what stands right after it."""
    table(engine, exposure=1)
    run(engine, RollExposure(hero=HAWK), 2)
    engine.amend("Lab", 4, {"reveal": "weakness"}, reason="the GM's choice")
    rows = hero_timeline(engine, "Lab", HAWK)["rows"]
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
    view = campaign_timelines(engine, "Lab")
    assert [HAWK, "Lady Volt"] == [line["hero"] for line in view["heroes"]]
    standing = [(h["hero"], h["exposure"], h["peak"]) for h in view["sessions"][0]["heroes"]]
    assert [(HAWK, 2, 2), ("Lady Volt", 1, 2)] == standing
    assert 2 == chart(view["heroes"]).count('class="hero"')


def test_the_chart_marks_each_reveal(engine: Engine) -> None:
    """The SVG has one marker per reveal, the voided one drawn as voided, and no script."""
    two_sessions(engine)
    html = timeline_html(hero_timeline(engine, "Lab", HAWK))
    assert (3, 1) == (html.count('<g class="reveal"'), html.count('<g class="reveal voided"'))
    assert "<script" not in html


def test_only_the_code_has_timelines(engine: Engine) -> None:
    """Another system's campaign, or a name that is no hero, is refused."""
    scene_with_s1(engine)
    with pytest.raises(NotTheCode):
        hero_timeline(engine, "Lab", "alice")


def test_a_timeline_needs_a_known_hero(engine: Engine) -> None:
    """A name nobody in the roster has is refused."""
    table(engine)
    with pytest.raises(UnknownCharacter):
        hero_timeline(engine, "Lab", "The Owl")
