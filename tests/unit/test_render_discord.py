"""Discord messages: lists instead of tables, and parts that each fit in one message, cut at
headings first, then between lines, then between words, with nothing lost."""

from __future__ import annotations

import re
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from projections.render_discord import MIN_CHARS, TooFewChars, size, split, timeline_discord
from projections.views import HeroTimeline

LABEL = re.compile(r"\n\n\(([0-9]+)/([0-9]+)\)\Z")
ROOM = 20  # more than a part's number takes, "\n\n(1234/1234)"


def contents(parts: list[str]) -> list[str]:
    """The parts without their numbers, after checking the numbers run 1..n of n."""
    if len(parts) == 1:
        assert LABEL.search(parts[0]) is None
        return parts
    found = [LABEL.search(part) for part in parts]
    assert [(str(n), str(len(parts))) for n in range(1, len(parts) + 1)] == [
        m.groups() if m else None for m in found
    ]
    return [part[: m.start()] for part, m in zip(parts, found, strict=True) if m]


def starts(text: str, pieces: list[str]) -> list[int]:
    """Where each piece begins in ``text``, if the pieces are the text in order with only line
    breaks left out between them (else an AssertionError)."""
    at, begun = 0, []
    for piece in pieces:
        while text.startswith("\n", at) and not text.startswith(piece, at):
            at += 1
        assert text.startswith(piece, at), (text[at : at + 40], piece[:40])
        begun.append(at)
        at += len(piece)
    assert "" == text[at:].strip("\n")
    return begun


unspaced = st.characters(blacklist_categories=["Cs", "Zs"], blacklist_characters="\n")
words = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=12)
line = st.one_of(
    st.lists(words, max_size=40).map(" ".join),  # a line of words, at times long
    st.lists(words, min_size=1, max_size=8).map(lambda w: "## " + " ".join(w)),  # a heading
    st.lists(words, max_size=10).map(lambda w: "- " + " ".join(w)),  # a list item
    st.just(""),
    st.text(max_size=300),  # anything: runs of line breaks, emoji, controls
    st.text(unspaced, min_size=90, max_size=700),  # one word longer than a part
)
texts = st.lists(line, max_size=60).map("\n".join)
limits = st.integers(MIN_CHARS, 600)


@settings(max_examples=300, deadline=None)
@given(texts, limits)
def test_every_part_fits_and_the_parts_are_the_text(text: str, limit: int) -> None:
    """Each part is at most the limit (emoji counted as two) and, its number removed, the parts
    in order are the whole text: only line breaks between two parts are left out."""
    parts = split(text, limit)
    assert all(size(part) <= limit for part in parts)
    starts(text, contents(parts))
    assert (parts == []) == (text.strip("\n") == "")


@settings(max_examples=200, deadline=None)
@given(texts, limits)
def test_a_line_is_cut_only_when_it_alone_is_too_long(text: str, limit: int) -> None:
    """When every line fits in a part, each part begins at the start of a line and ends at the
    end of one."""
    if any(size(one) > limit - ROOM for one in text.split("\n")):
        return
    pieces = contents(split(text, limit))
    for at, piece in zip(starts(text, pieces), pieces, strict=True):
        assert at == 0 or text[at - 1] == "\n"
        assert text[at + len(piece) :][:1] in ("", "\n")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(line, max_size=12).map("\n".join), min_size=1, max_size=12), limits)
def test_a_scene_that_fits_is_never_cut(scenes: list[str], limit: int) -> None:
    """When every scene (a heading and its lines) fits in a part, every part after the first
    starts at a heading: scenes stay whole."""
    text = "\n\n".join(f"## Scene {n}\n{scene}" for n, scene in enumerate(scenes, 1))
    if any(size(s) > limit - ROOM for s in re.split(r"\n(?=#{1,6} )", text)):
        return
    for piece in contents(split(text, limit))[1:]:
        assert re.match(r"#{1,6} ", piece), piece[:40]


def test_a_long_line_is_cut_between_words() -> None:
    """A line longer than a part is cut after a space, and a part does not start with what a
    message would read as markup (here a `#` that would make a heading)."""
    text = " ".join(["word"] * 40 + ["#5"] + ["word"] * 40)
    parts = contents(split(text, 100))
    assert all(part.endswith(" ") for part in parts[:-1])
    assert not any(part.startswith("#") for part in parts)
    assert text == "".join(parts)


def test_a_text_that_fits_is_one_message_without_a_number() -> None:
    """A short recap is one message, as written (without the line breaks at its ends)."""
    assert ["# Night Shift\n\n- a line"] == split("\n# Night Shift\n\n- a line\n", 2000)


def test_parts_are_numbered_in_order() -> None:
    """Three scenes of 800 characters make three parts of 2000, numbered (1/3) to (3/3)."""
    text = "\n\n".join(f"## Scene {n}\n\n- " + "x" * 780 for n in (1, 2, 3))
    parts = split(text, 1000)
    assert ["(1/3)", "(2/3)", "(3/3)"] == [part.rsplit("\n", 1)[1] for part in parts]
    assert [f"## Scene {n}" for n in (1, 2, 3)] == [part.split("\n")[0] for part in parts]


@pytest.mark.parametrize("limit", [0, -5, MIN_CHARS - 1])
def test_a_limit_too_small_for_a_line_is_refused(limit: int) -> None:
    """Fewer than MIN_CHARS characters a part is refused with a typed error (exit 2)."""
    with pytest.raises(TooFewChars) as refused:
        split("# A recap\n", limit)
    assert isinstance(refused.value, DomainError)
    assert "TOO_FEW_CHARS" == refused.value.code


def test_a_timeline_is_a_list_with_voided_rows_struck() -> None:
    """A hero's rows are list items, never a table; a voided row is struck through and says who
    voided it and why."""
    row = {
        "ruling": 32,
        "session": 2,
        "changes": [
            {"before": 3, "after": 4, "cause": "blab", "peak_after": 4},
        ],
        "because": ["Exposure roll [2,4]"],
        "reveals": [],
        "voided": {"kind": "undone", "by": 33, "actor": "Sam", "reason": "no MO"},
        "amended_by": None,
    }
    view = {
        "hero": "The Hawk",
        "campaign": "Rain City",
        "player": "dana",
        "start": 1,
        "rows": [row],
        "sessions": [],
        "now": {"exposure": 3, "peak": 4, "public": []},
    }
    text = timeline_discord(cast(HeroTimeline, view))  # the keys the renderer reads
    assert "|" not in text
    expected = (
        "- ~~**#32**, session 2: Exposure 3 -> 4 (blab, peak 4)~~ "
        "VOIDED: undone by #33 (Sam): no MO\n"
        "  - ~~because: Exposure roll [2,4]~~\n"
    )
    assert expected in text
