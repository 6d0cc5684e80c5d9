"""The rolls a post's text holds (``domain.post_rolls``): which brackets are rolls, where the
expression ends and what the roll is for begins, with the whole of the notation."""

from __future__ import annotations

import pytest

from domain.dice import EnteredDice
from domain.dice_rolling import TooManyDraws
from domain.post_rolls import roll_inline, rolls_written


@pytest.mark.parametrize(
    ("text", "read"),
    [
        pytest.param("[2d6+1]", [("2d6+1", "")], id="plain"),
        pytest.param("[4d6kh3 for the climb]", [("4d6kh3", "the climb")], id="for"),
        pytest.param("[1d20 the lock]", [("1d20", "the lock")], id="why-without-for"),
        pytest.param("[4d6ro1kh3 stats]", [("4d6ro1kh3", "stats")], id="reroll-then-keep"),
        pytest.param("[(1d4, 2d6)kh1 for it]", [("(1d4, 2d6)kh1", "it")], id="a-set"),
        pytest.param("[(1d8+4)*2 the hammer]", [("(1d8+4)*2", "the hammer")], id="parentheses"),
        pytest.param("[-1d4 cold]", [("-1d4", "cold")], id="a-sign-first"),
        pytest.param("[1d6 * 2 for x]", [("1d6 * 2", "x")], id="spaces-in-notation"),
        pytest.param("[1d10[cold] + 2d6[piercing] the knife]",
                     [("1d10[cold] + 2d6[piercing]", "the knife")], id="annotations"),
        pytest.param("[1d6 [fire] the blast]", [("1d6 [fire]", "the blast")], id="apart"),
        pytest.param("[1d20ro1 adv+3 for luck]", [("1d20ro1 adv+3", "luck")], id="advantage"),
        pytest.param("[2d6 3 goblins]", [("2d6", "3 goblins")], id="a-why-of-a-number"),
        pytest.param("[1d6 (the fire)]", [("1d6", "(the fire)")], id="a-why-in-parentheses"),
        pytest.param("[an aside [1d6] here]", [("1d6", "")], id="inside-an-aside"),
        pytest.param("[2d6 +]", [("2d6 +", "")], id="cut-short: refused whole"),
        pytest.param("[1d6 *2x]", [("1d6 *2x", "")], id="not-notation: refused whole"),
        pytest.param("[2d7x for luck]", [("2d7x", "luck")], id="not-notation-before-for"),
        pytest.param("[an aside] [1 hour later] [(see above)]", [], id="no-die-first"),
        pytest.param("[2d6](https://x.y) [2d6][ref]", [], id="links"),
    ],
)  # fmt: skip
def test_a_bracket_starting_with_a_die_is_a_roll_and_its_words_what_for(
    text: str, read: list[tuple[str, str]]
) -> None:
    assert read == [(w.expression, w.why) for w in rolls_written(text)]


def test_where_each_roll_stands() -> None:
    text = "Neo [1d10[cold] + 2 ice] then [(1d6, 1d8)kh1]."
    ice, blade = rolls_written(text)
    assert ("[1d10[cold] + 2 ice]", "[(1d6, 1d8)kh1]") == (
        text[ice.start : ice.end],
        text[blade.start : blade.end],
    )


def test_a_posts_rolls_draw_two_thousand_dice_at_most_together() -> None:
    """Each roll a thousand, the post's two thousand: a third roll past them is refused."""
    text = "[1d2rr1] [1d2rr1] [1d2rr1]"
    faces = (1,) * 999 + (2,) + (1,) * 999 + (2,) + (1,) * 5
    with pytest.raises(TooManyDraws) as refusal:
        roll_inline(text, EnteredDice(faces))
    assert "the post's rolls would draw more than 2000 dice, the most a post draws" in (
        refusal.value.reason
    )
    assert [1000, 1000] == [len(r.faces) for r in roll_inline(text[:18], EnteredDice(faces))]
