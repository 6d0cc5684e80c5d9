"""Free rolls (``domain.free_rolls``), without a store: the notation read by d20's parser, rolled
with the dice we hand it (entered faces), every refusal typed. Given an expression and faces ->
then the event (or the error). Each operator of the notation: test_dice_notation.py; held to
d20's own evaluation: test_dice_notation_d20.py."""

from __future__ import annotations

from uuid import uuid4

import pytest
from attrs import frozen
from hypothesis import given
from hypothesis import strategies as st

from domain.campaign import CampaignState
from domain.commands import Change
from domain.dice import EnteredDice
from domain.errors import DomainError, NotEnoughDice
from domain.events import FreeRollMade
from domain.free_rolls import (
    AdvantageWithoutOneD20,
    DividesByZero,
    FreeRollOutOfBounds,
    KeepOrDropOutOfRange,
    RollFreely,
    TooManyDraws,
    UnreadableDiceNotation,
    notation,
    read_expression,
)
from projections.describe import describe


@frozen
class FakeView:
    campaign: CampaignState

    def character(self, character_id: object) -> None:
        raise AssertionError("a free roll reads no character")

    def new_id(self) -> object:
        raise AssertionError("a free roll makes no stream")


def view() -> FakeView:
    return FakeView(CampaignState(id=uuid4(), name="Lab", system="sims", gm="Rosa", house_rules=()))


def rolled(expression: str, *faces: int, why: str = "to see if it rains") -> FreeRollMade:
    dice = EnteredDice(faces)
    (change,) = RollFreely(expression=expression, why=why).decide(view(), dice)
    dice.check_all_used()
    assert isinstance(change, Change)
    assert isinstance(change.event, FreeRollMade)
    return change.event


@pytest.mark.parametrize(
    ("expression", "faces", "total", "line"),
    [
        pytest.param("2d6+1", (3, 5), 9, "2d6+1 [3,5] + 1 = 9", id="NdS-plus-constant"),
        pytest.param("1d20-1d4+2", (15, 3), 14, "1d20-1d4+2 [15] - [3] + 2 = 14", id="dice-minus"),
        pytest.param("4d6kh3", (6, 1, 5, 3), 14, "4d6kh3 [6,~1~,5,3] = 14", id="keep-highest"),
        pytest.param("2d20kl1", (17, 4), 4, "2d20kl1 [~17~,4] = 4", id="keep-lowest"),
        pytest.param("2d20kh1", (7, 7), 7, "2d20kh1 [7,~7~] = 7", id="tie-keeps-the-earlier"),
        pytest.param("-1+1d6", (6,), 5, "-1+1d6 -1 + [6] = 5", id="leading-minus"),
        pytest.param("d%", (42,), 42, "d% [42] = 42", id="percentile"),
        pytest.param("d20", (20,), 20, "d20 [20] = 20", id="one-die-unwritten-count"),
        pytest.param("2D6 + 3", (1, 1), 5, "2D6 + 3 [1,1] + 3 = 5", id="capital-d-and-spaces"),
        pytest.param("1d4--1", (2,), 3, "1d4--1 [2] + 1 = 3", id="minus-minus"),
        pytest.param("4d6ro1", (1, 3, 4, 5, 2), 14, "4d6ro1 [~1~,2,3,4,5] = 14", id="reroll"),
        pytest.param("2d6e6", (6, 2, 3), 11, "2d6e6 [6!,2,3] = 11", id="explode"),
        pytest.param("(1d8+4)*2", (5,), 18, "(1d8+4)*2 ([5] + 4) * 2 = 18", id="times"),
    ],
)
def test_a_free_roll_adds_up_its_terms_from_the_dice_given(
    expression: str, faces: tuple[int, ...], total: int, line: str
) -> None:
    """Every face comes from the dice handed to the command, in the order drawn; the event
    carries the faces, the breakdown (a face that does not count struck) and the total, and
    reads as one log line."""
    made = rolled(expression, *faces)
    assert total == made.total
    assert faces == made.faces
    assert f"free roll {line}: to see if it rains" == describe(made)


def test_the_event_carries_every_resolved_value() -> None:
    """Replay never re-rolls: the faces, the breakdown and the total are all in the event."""
    made = rolled("4d6kh3-2", 6, 1, 5, 3, why="  stats  ")
    expected = FreeRollMade(
        expression="4d6kh3-2",
        why="stats",
        faces=(6, 1, 5, 3),
        breakdown="[6,~1~,5,3] - 2",
        total=12,
    )
    assert expected == made


def test_each_die_is_asked_of_the_source_with_its_sides() -> None:
    """The library's roller is never used: our source is asked for each die, in order."""
    asked: list[int] = []

    class Counting:
        def roll(self, sides: int) -> int:
            asked.append(sides)
            return 1

    RollFreely(expression="2d6+1d20-d4+d%", why="x").decide(view(), Counting())
    assert [6, 6, 20, 4, 100] == asked


@pytest.mark.parametrize(
    ("expression", "error", "says"),
    [
        pytest.param("", UnreadableDiceNotation, "it is empty", id="empty"),
        pytest.param("   ", UnreadableDiceNotation, "it is empty", id="blank"),
        pytest.param("2d", UnreadableDiceNotation, "ends too soon", id="cut-short"),
        pytest.param("1d6+", UnreadableDiceNotation, "ends too soon", id="dangling-plus"),
        pytest.param("2d6 extra", UnreadableDiceNotation, "'extra' at character 5", id="words"),
        pytest.param("2D6 Extra", UnreadableDiceNotation, "'Extra' at character 5", id="as-typed"),
        pytest.param("abc", UnreadableDiceNotation, "not dice notation", id="not-dice"),
        pytest.param("1d6 # hi", UnreadableDiceNotation, "not dice notation", id="comment"),
        pytest.param("4d6x2", UnreadableDiceNotation, "'x2' at character 4", id="no-such-op"),
        pytest.param("1d6^2", UnreadableDiceNotation, "'^2' at character 4", id="no-power"),
        pytest.param("4d6mil1", UnreadableDiceNotation, "at least a number, as in mi2, not mil1",
                     id="minimum-of-a-selection"),
        pytest.param("4d6mah1", UnreadableDiceNotation, "at most a number, as in ma2, not mah1",
                     id="maximum-of-a-selection"),
        pytest.param("3", FreeRollOutOfBounds, "rolls no dice", id="no-dice"),
        pytest.param("(1, 2)kh1", FreeRollOutOfBounds, "rolls no dice", id="a-set-of-numbers"),
        pytest.param("0d6", FreeRollOutOfBounds, "rolls 0d6", id="zero-dice"),
        pytest.param("1d1", FreeRollOutOfBounds, "rolls a d1", id="one-side"),
        pytest.param("1d0", FreeRollOutOfBounds, "rolls a d0", id="no-sides"),
        pytest.param("1d1001", FreeRollOutOfBounds, "rolls a d1001", id="too-many-sides"),
        pytest.param("(1d6, 1d1)kh1", FreeRollOutOfBounds, "rolls a d1", id="in-a-set"),
        pytest.param("101d6", FreeRollOutOfBounds, "rolls 101 dice", id="too-many-dice"),
        pytest.param("60d6+41d4", FreeRollOutOfBounds, "rolls 101 dice", id="too-many-together"),
        pytest.param("(60d6, 41d4)", FreeRollOutOfBounds, "rolls 101 dice", id="in-sets"),
        pytest.param("4d6kh5", KeepOrDropOutOfRange,
                     "keeps the highest 5 of 4d6, which has 4 dice: keep the highest 1 to 4",
                     id="keep-more-than-rolled"),
        pytest.param("4d6kl0", KeepOrDropOutOfRange, "keeps the lowest 0 of 4d6", id="keep-none"),
        pytest.param("4d6ph5", KeepOrDropOutOfRange,
                     "drops the highest 5 of 4d6, which has 4 dice: drop the highest 1 to 4",
                     id="drop-more-than-rolled"),
        pytest.param("4d6ro1kh5", KeepOrDropOutOfRange, "keeps the highest 5 of 4d6",
                     id="rerolls-add-no-dice"),
        pytest.param("(1d4, 2d6)kh3", KeepOrDropOutOfRange,
                     "keeps the highest 3 of (1d4, 2d6), which has 2 values", id="set"),
        pytest.param("(4d6)kl5", KeepOrDropOutOfRange, "keeps the lowest 5 of (4d6)",
                     id="parentheses-around-dice"),
        pytest.param("(1d6+1)kh2", KeepOrDropOutOfRange, "which has 1 value", id="one-value"),
        pytest.param("1d6+" * 25 + "1", FreeRollOutOfBounds, "101 characters", id="too-long"),
    ],
)  # fmt: skip
def test_a_bad_expression_is_refused_with_a_typed_error(
    expression: str, error: type[DomainError], says: str
) -> None:
    """Refused before any die is rolled, with a stable code and a one-line reason."""
    dice = EnteredDice((1,) * 200)
    with pytest.raises(error) as caught:
        RollFreely(expression=expression, why="x").decide(view(), dice)
    assert says in caught.value.reason
    assert "\n" not in caught.value.reason
    with pytest.raises(DomainError, match="roll used only 0"):
        dice.check_all_used()  # not a die was taken


@pytest.mark.parametrize(
    ("expression", "faces", "error", "says"),
    [
        pytest.param("1d6rr<7", (3,) * 1000, TooManyDraws,
                     "'1d6rr<7' would draw more than 1000 dice, the most a free roll draws",
                     id="reroll-forever"),
        pytest.param("1d2e2", (2,) * 1000, TooManyDraws, "more than 1000 dice",
                     id="explode-forever"),
        pytest.param("4d6e6kh5", (1, 2, 3, 4), KeepOrDropOutOfRange, "which has 4 dice",
                     id="no-explosion-came"),
        pytest.param("1d6/(1d2-1)", (6, 1), DividesByZero, "'1d6/(1d2-1)' divides by zero",
                     id="by-a-zero-rolled"),
        pytest.param("1d6//0", (6,), DividesByZero, "divides by zero", id="floor-division"),
        pytest.param("1d6%0", (6,), DividesByZero, "divides by zero", id="modulo"),
    ],
)  # fmt: skip
def test_what_only_the_dice_tell_is_refused_once_they_are_drawn(
    expression: str, faces: tuple[int, ...], error: type[DomainError], says: str
) -> None:
    """A reroll or explosion that never stops (d20 stops at a thousand dice too), a division by
    a zero the dice made: refused, nothing recorded (the ruling's dice go unrecorded with it)."""
    if error is KeepOrDropOutOfRange:  # after e, kh5 keeps what came: d20 keeps all four
        assert 10 == rolled(expression, *faces).total
        return
    with pytest.raises(error) as caught:
        rolled(expression, *faces)
    assert says in caught.value.reason


def test_the_codes_are_stable() -> None:
    expected = [
        "UNREADABLE_DICE_NOTATION",
        "FREE_ROLL_OUT_OF_BOUNDS",
        "KEEP_OR_DROP_OUT_OF_RANGE",
        "TOO_MANY_DRAWS",
        "DIVIDES_BY_ZERO",
        "ADVANTAGE_WITHOUT_ONE_D20",
    ]
    refusals = (
        UnreadableDiceNotation,
        FreeRollOutOfBounds,
        KeepOrDropOutOfRange,
        TooManyDraws,
        DividesByZero,
        AdvantageWithoutOneD20,
    )
    assert expected == [e.code for e in refusals]


def test_why_is_optional_and_the_line_reads_well_without_it() -> None:
    made = rolled("1d6", 3, why="  ")
    assert "" == made.why
    assert "free roll 1d6 [3] = 3" == describe(made)
    assert "free roll 1d6 [3] = 3: to see if it rains" == describe(rolled("1d6", 3))


@pytest.mark.parametrize(
    ("typed", "recorded", "faces", "total"),
    [
        pytest.param("d20+3 adv", "2d20kh1+3", (7, 15), 18, id="adv-ends-the-expression"),
        pytest.param("1d20 dis", "2d20kl1", (7, 15), 7, id="dis"),
        pytest.param("d20 adv+3", "2d20kh1+3", (15, 7), 18, id="adv-right-after-the-d20"),
        pytest.param("D20 Advantage - 1", "2d20kh1 - 1", (2, 9), 8, id="the-word-in-full"),
        pytest.param("1d20dis+1d4", "2d20kl1+1d4", (12, 4, 3), 7, id="no-space"),
        pytest.param("d20+d20 dis", "d20+2d20kl1", (5, 6, 2), 7, id="the-d20-it-follows"),
    ],
)
def test_adv_and_dis_after_a_d20_read_as_keep_highest_or_lowest_of_two(
    typed: str, recorded: str, faces: tuple[int, ...], total: int
) -> None:
    """Advantage as tables say it; the roll records the standard notation, whose terms (two
    d20s, one dropped) are what a reader of dice notation checks the faces against."""
    assert recorded == notation(typed)
    made = rolled(typed, *faces)
    assert (recorded, total) == (made.expression, made.total)
    assert 2 == made.breakdown.count("~")  # one d20 of the two struck: ~7~
    assert read_expression(recorded).written == read_expression(typed).written


def test_advantage_of_a_d20_that_rerolls_rolls_two_that_reroll() -> None:
    """A halfling's lucky d20 at advantage: both d20s reroll a 1, then the higher is kept."""
    assert "2d20ro1kh1+5" == notation("1d20ro1+5 adv")
    made = rolled("1d20ro1+5 adv", 1, 15, 9)
    assert ("2d20ro1kh1+5", "[~1~,~9~,15] + 5", 20) == (made.expression, made.breakdown, made.total)


@pytest.mark.parametrize(
    "typed", ["2d6 adv", "d% dis", "d20kh1 adv", "d20+d20+1 adv", "adv", "d20 adv dis", "d12 dis"]
)
def test_advantage_of_anything_but_one_d20_is_refused(typed: str) -> None:
    dice = EnteredDice((1,) * 10)
    with pytest.raises(AdvantageWithoutOneD20) as caught:
        RollFreely(expression=typed, why="").decide(view(), dice)
    assert "ADVANTAGE_WITHOUT_ONE_D20" == caught.value.code
    assert "single d20" in caught.value.reason


def test_words_that_only_start_like_adv_are_not_advantage() -> None:
    """`d20 advance` is not notation (refused as any text is), never a roll with advantage."""
    assert "d20 advance" == notation("d20 advance")
    with pytest.raises(UnreadableDiceNotation):
        read_expression("d20 advance")


def test_entered_dice_must_fit_the_expression() -> None:
    """Too few faces, or a face off the die, are refused as for any roll."""
    with pytest.raises(NotEnoughDice):
        rolled("2d6", 3)
    with pytest.raises(DomainError, match="a d6 has faces 1 to 6"):
        rolled("1d6", 7)


def test_the_bounds_are_inclusive() -> None:
    """100 dice and 1000 sides are allowed; a die of 2 sides too."""
    assert 100 == read_expression("99d2+1d1000").dice
    assert 100 == rolled("100d2", *(1,) * 100).total
    assert 1000 == len(rolled("1d6rr<6", *(1,) * 999, 6).faces)  # a thousand draws, no more


@given(st.text(max_size=30))
def test_any_text_is_read_or_refused_with_a_domain_error(text: str) -> None:
    """Whatever is typed, the parser answers with an expression or a typed refusal, never a
    crash."""
    try:
        read = read_expression(text)
    except DomainError:
        return
    assert 1 <= read.dice <= 100


@given(
    st.lists(
        st.tuples(st.integers(1, 6), st.sampled_from([4, 6, 8, 10, 12, 20]), st.booleans()),
        min_size=1,
        max_size=4,
    ),
    st.integers(-50, 50),
    st.data(),
)
def test_the_total_is_the_signed_sum_of_the_kept_faces(
    terms: list[tuple[int, int, bool]], constant: int, data: st.DataObject
) -> None:
    """A differential check against a whole-expression sum computed here."""
    expression = "".join(f"{'-' if minus else '+'}{n}d{s}" for n, s, minus in terms)
    expression += f"{constant:+d}"
    faces = [data.draw(st.integers(1, s)) for n, s, _ in terms for _ in range(n)]
    made = rolled(expression, *faces)
    expected, position = constant, 0
    for n, _, minus in terms:
        value = sum(faces[position : position + n])
        expected += -value if minus else value
        position += n
    assert expected == made.total


@given(st.lists(st.integers(1, 20), min_size=1, max_size=8), st.data())
def test_keep_highest_and_lowest_keep_that_many_of_the_faces(
    faces: list[int], data: st.DataObject
) -> None:
    keep = data.draw(st.integers(1, len(faces)))
    high = rolled(f"{len(faces)}d20kh{keep}", *faces)
    low = rolled(f"{len(faces)}d20kl{keep}", *faces)
    assert sum(sorted(faces)[-keep:]) == high.total
    assert sum(sorted(faces)[:keep]) == low.total
    assert len(faces) - keep == high.breakdown.count("~") // 2 == low.breakdown.count("~") // 2
