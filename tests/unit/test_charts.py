"""The charts' geometry: round count ticks, the fair-dice line where it belongs and labelled, the
timeline's legend, and a label placement pass whose labels never overlap."""

from __future__ import annotations

import itertools
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.dice import Provenance
from projections.chart_layout import Box, Label, place, text_width, ticks
from projections.dice_chart import chart as dice_chart
from projections.dice_chart import page as dice_page
from projections.dice_chart import scale, too_few, verdict
from projections.dice_stats import FaceCounts
from projections.exposure_layout import WIDTH, layout
from projections.render_html import recap_html, timeline_html
from projections.render_svg import chart as exposure_chart
from projections.stylesheet import STYLESHEET
from projections.views import HeroTimeline, Recap, Reveal, Row

SVG = "{http://www.w3.org/2000/svg}"


def _svg(text: str) -> ElementTree.Element:
    return ElementTree.fromstring(text)


def _texts(svg: ElementTree.Element, cls: str) -> list[str]:
    return [
        "".join(t.itertext())
        for t in svg.iter(f"{SVG}text")
        if cls in (t.get("class") or "").split()
    ]


def _reveal(detail: str, session: int | None = 1) -> Reveal:
    return {
        "detail": detail,
        "level": 2,
        "value": "x",
        "cause": "session-roll",
        "gm_override": False,
        "suggested": None,
        "session": session,
    }


def _row(ruling: int, after: int, reveals: list[Reveal], session: int = 1) -> Row:
    return {
        "amended_by": None,
        "ruling": ruling,
        "command": "exposure",
        "session": session,
        "at": "2026-11-29T19:30:00+00:00",
        "actor": "gm",
        "changes": [
            {
                "before": after - 1,
                "after": after,
                "delta": 1,
                "cause": "session-roll",
                "peak_before": after - 1,
                "peak_after": after,
            }
        ],
        "because": [],
        "reveals": reveals,
        "identity_public": False,
        "voided": None,
        "replaces": None,
    }


def _hero(name: str, rows: list[Row]) -> HeroTimeline:
    return {
        "format": "campaign-log/exposure-timeline",
        "version": 1,
        "campaign": "Lab",
        "hero": name,
        "player": "dana",
        "start": 1,
        "created": 1,
        "rows": rows,
        "sessions": [],
        "now": {"exposure": 1, "peak": 1, "public": []},
    }


def _crowded() -> HeroTimeline:
    """Twenty rulings in a row, each revealing a long-named detail (two at a time, some)."""
    names = ("physical-description", "profession", "modus-operandi", "secret-identity")
    rows = [
        _row(
            ruling,
            min(10, 1 + ruling // 3),
            [_reveal(f"{names[ruling % 4]}-{ruling}")]
            + ([_reveal(f"extra-{ruling}")] if ruling % 5 == 0 else []),
            session=1 + ruling // 2,
        )
        for ruling in range(2, 22)
    ]
    return _hero("The Hawk", rows)


# --- chart_layout -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        (0, [0, 1]),
        (4.2, [0, 1, 2, 3, 4, 5]),
        (7, [0, 2, 4, 6, 8]),
        (10, [0, 2, 4, 6, 8, 10]),
        (130, [0, 50, 100, 150]),
        (1999, [0, 500, 1000, 1500, 2000]),
    ],
)
def test_ticks_are_round_and_reach_the_top(top: float, expected: list[int]) -> None:
    """Steps of 1, 2 or 5 times a power of ten, from 0 to the first tick at or above the top."""
    assert expected == ticks(top)


@given(st.floats(0, 1e6))
def test_ticks_cover_the_data_in_at_most_six_even_steps(top: float) -> None:
    """At most six ticks, evenly spaced, the last at or above the highest count."""
    found = ticks(top)
    steps = {b - a for a, b in itertools.pairwise(found)}
    assert (True, True, 1) == (len(found) <= 6, found[-1] >= top, len(steps))


def test_a_label_that_would_overlap_takes_its_next_place_or_is_dropped() -> None:
    """The second label cannot go right (taken), so goes left; the third has nowhere and is
    dropped."""
    bounds = Box(0, 0, 400, 100)
    right = Label("modus-operandi", 200, 50, 12)
    left = Label("weakness", 190, 50, 12, "end")
    first, second, third = place([[right], [right, left], [right, left]], [], bounds)
    assert (right, left, None) == (first, second, third)


@given(
    st.lists(
        st.tuples(
            st.text("abcdefgh-", min_size=1, max_size=20), st.floats(0, 400), st.floats(0, 200)
        ),
        max_size=30,
    )
)
def test_placed_labels_never_overlap_and_stay_inside(
    wanted: list[tuple[str, float, float]],
) -> None:
    """Whatever is asked for, the labels placed are inside the bounds and pairwise apart."""
    bounds = Box(0, 0, 400, 200)
    options = [
        [Label(text, x, y, 12), Label(text, x, y, 12, "end"), Label(text, x, y - 14, 12)]
        for text, x, y in wanted
    ]
    placed = [label.box for label in place(options, [], bounds) if label is not None]
    assert all(box.inside(bounds) for box in placed)
    assert [] == [(a, b) for a, b in itertools.combinations(placed, 2) if a.overlaps(b)]


# --- the Exposure chart -------------------------------------------------------------------------


def test_a_crowded_timeline_places_no_two_labels_over_each_other() -> None:
    """Twenty close reveals: every label kept (and the leader of one raised above its diamond)
    is clear of every other label and diamond, inside the chart; the ones with no room are
    dropped (their diamond keeps a tooltip)."""
    plan = layout([_crowded()])
    boxes = [box for label in plan.labels for box in label.space]
    assert [] == [(a, b) for a, b in itertools.combinations(boxes, 2) if a.overlaps(b)]
    diamonds = [m.box for m in plan.marks]
    named = [box for m in plan.marks if m.label is not None for box in m.label.space]
    assert [] == [(a, b) for a in named for b in diamonds if a.overlaps(b)]
    assert any(m.label.leader for m in plan.marks if m.label is not None)
    assert all(0 <= b.x and b.right <= WIDTH and 0 <= b.y <= plan.height for b in boxes)
    assert 0 < len(named) < len(plan.marks)


def test_a_reveal_is_named_right_beside_its_diamond_where_there_is_room() -> None:
    """One reveal alone: its name starts just right of its diamond, on its line."""
    plan = layout([_hero("The Hawk", [_row(2, 2, [_reveal("profession")]), _row(3, 3, [])])])
    (mark,) = plan.marks
    assert mark.label is not None
    assert ("profession", "start", mark.x + 9, mark.y + 4) == (
        mark.label.text,
        mark.label.anchor,
        mark.label.x,
        mark.label.y,
    )


def test_session_names_under_the_axis_do_not_collide() -> None:
    """Ten two-ruling sessions: names staggered, shortened or dropped, never overlapping."""
    plan = layout([_crowded()])
    boxes = [s.label.box for s in plan.sessions if s.label is not None]
    assert [] == [(a, b) for a, b in itertools.combinations(boxes, 2) if a.overlaps(b)]
    assert len(boxes) >= 2


def test_the_legend_says_dot_diamond_and_hollow_and_names_each_hero() -> None:
    """Dot = Exposure, diamond = reveal, hollow = voided; a line per hero when there are two."""
    one = _svg(exposure_chart([_crowded()]))
    legend = next(g for g in one.iter(f"{SVG}g") if g.get("class") == "legend")
    keys = [(g.get("data-symbol"), "".join(g.itertext())) for g in legend]
    assert [("dot", "Exposure"), ("diamond", "reveal"), ("hollow", "voided (hollow)")] == keys
    two = layout([_crowded(), _hero("Lady Volt", [_row(30, 3, [])])])
    assert ["line", "line"] == [k.symbol for k in two.legend[3:]]
    assert ["The Hawk", "Lady Volt"] == [k.label.text for k in two.legend[3:]]


def test_the_chart_follows_the_page_width_and_keeps_its_axes() -> None:
    """width 100% and a viewBox (no fixed pixel size); both axes and their titles are drawn."""
    svg = _svg(exposure_chart([_crowded()]))
    assert ("100%", None) == (svg.get("width"), svg.get("height"))
    assert f"0 0 {WIDTH} " in (svg.get("viewBox") or "")
    assert ["0", "2", "4", "6", "8", "10"] == [t for t in _texts(svg, "tick") if t.isdigit()][:6]
    assert ["Exposure", "rulings, in log order"] == _texts(svg, "axis-title")
    assert 2 == sum(1 for x in svg.iter(f"{SVG}line") if x.get("class") == "axis")


# --- the dice chart -----------------------------------------------------------------------------

D6 = FaceCounts(6, Provenance.PHYSICAL, (14, 6, 12, 8, 11, 9))  # 60 rolls, chi-square 4.2


def test_the_dice_chart_has_a_count_axis_faces_and_counts() -> None:
    """Y ticks 0..15 by 5 (counts), faces 1..6 along the bottom, each bar's count above it."""
    svg = _svg(dice_chart(D6))
    assert ["0", "5", "10", "15"] == _texts(svg, "y-tick")
    assert ["1", "2", "3", "4", "5", "6"] == _texts(svg, "x-tick")
    assert ["14", "6", "12", "8", "11", "9"] == _texts(svg, "count")
    assert ["rolls", "face"] == _texts(svg, "axis-title")


def test_the_expected_line_sits_at_the_fair_count_and_says_it() -> None:
    """60 rolls of a d6: the dashed line is at 10 (two thirds up a 0..15 axis), labelled."""
    svg = _svg(dice_chart(D6))
    (line,) = [x for x in svg.iter(f"{SVG}line") if x.get("class") == "expected"]
    s = scale(D6)
    assert f"{s.y(10):.1f}" == line.get("y1") == line.get("y2")
    assert s.y(10) == pytest.approx(s.y(0) - (s.y(0) - s.y(15)) * 2 / 3)
    assert ["expected 10"] == _texts(svg, "expected-label")
    bars = {r.get("data-face"): float(r.get("height") or 0) for r in svg.iter(f"{SVG}rect")}
    assert bars["1"] == pytest.approx(s.y(0) - s.y(14), abs=0.1)


def test_a_d100_names_every_tenth_face_and_drops_counts_that_do_not_fit() -> None:
    """A hundred narrow bars: faces 1, 10, 20 ... 100 under them, whose labels do not overlap."""
    d100 = FaceCounts(100, Provenance.PHYSICAL, tuple(range(100, 200)))
    svg = _svg(dice_chart(d100))
    faces = _texts(svg, "x-tick")
    assert ["1", "10", "20"] == faces[:3]
    assert [] == _texts(svg, "count")
    spots = [
        float(t.get("x") or 0) for t in svg.iter(f"{SVG}text") if "x-tick" in (t.get("class") or "")
    ]
    gaps = [b - a for a, b in itertools.pairwise(spots)]
    assert min(gaps) > text_width("100", 12)


@pytest.mark.parametrize(
    ("counts", "shade", "words"),
    [
        (
            (14, 6, 12, 8, 11, 9),
            "fair",
            "chi-square 4.2 with 5 degrees of freedom, p = 0.52: consistent with fair dice",
        ),
        (
            (30, 5, 5, 5, 5, 10),
            "unfair",
            "chi-square 50.0 with 5 degrees of freedom, p < 0.001: unlikely to be fair (p < 0.01)",
        ),
        (
            (18, 4, 14, 5, 10, 9),
            "uneven",
            "chi-square 14.2 with 5 degrees of freedom, p = 0.014: uneven enough to watch"
            " (p < 0.05), though chance can do it",
        ),
    ],
)
def test_the_test_result_is_said_in_words(counts: tuple[int, ...], shade: str, words: str) -> None:
    """The chi-square, its degrees of freedom, p, and what that means for the dice: fair
    (p >= 0.05), worth watching (0.01 <= p < 0.05), unlikely to be fair (p < 0.01)."""
    assert (shade, words) == verdict(FaceCounts(6, Provenance.PHYSICAL, counts))


def test_too_few_rolls_are_said_and_no_verdict_given() -> None:
    """25 rolls of a d6 (about 4 a face): the page says the test needs 30, and judges nothing."""
    row = FaceCounts(6, Provenance.SEEDED, (6, 4, 3, 4, 7, 1))
    assert "" == verdict(row)[0]
    assert "needs at least 5 (30 rolls of a d6)" in (too_few(row) or "")
    html = dice_page("Lab", [row])
    assert '<p class="note">Too few rolls' in html
    assert too_few(D6) is None


def test_every_page_wears_the_one_stylesheet() -> None:
    """The recap, the timeline and the dice-stats page carry the same inline stylesheet."""
    recap: Recap = {
        "format": "campaign-log/recap",
        "version": 1,
        "campaign": {"name": "Lab", "system": "the-code", "gm": "Sam"},
        "session": {"number": 1, "started_at": "2026-11-29T19:30:00+00:00", "ended_at": None},
        "before_session": [],
        "scenes": [],
        "story": [],
        "highlights": [],
        "characters": [],
        "corrections": [],
        "disputes": [],
    }
    pages = (recap_html(recap), timeline_html(_crowded()), dice_page("Lab", [D6]))
    assert [1, 1, 1] == [p.count(f"<style>{STYLESHEET}</style>") for p in pages]
    assert [1, 1, 1] == [p.count("<style>") for p in pages]
