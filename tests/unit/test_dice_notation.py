"""Each operator of d20's notation, rolled over faces handed in and worked out by hand
(``domain.dice_notation`` reads, ``domain.dice_rolling`` rolls): the breakdown shows every face
drawn in place, struck (``~1~``) when it does not count, ``6!`` when it exploded, ``1->2`` when
a minimum or maximum set it; the total is d20's (its integer part)."""

from __future__ import annotations

import pytest

from domain.dice import EnteredDice
from domain.dice_notation import read_notation
from domain.dice_rolling import roll_notation
from domain.free_rolls import read_expression, roll_expression


def rolled(expression: str, *faces: int) -> tuple[str, int]:
    """The breakdown and total of ``expression`` over exactly these faces."""
    dice = EnteredDice(faces)
    result = roll_expression(expression, dice)
    dice.check_all_used()
    assert faces == result.faces
    return result.breakdown, result.total


CASES = [
    # keep (k) and drop (p): the highest or lowest N, more than, less than, equal to
    pytest.param("4d6kh3", (6, 1, 5, 3), "[6,~1~,5,3]", 14, id="kh"),
    pytest.param("4d6kl2", (6, 1, 5, 3), "[~6~,1,~5~,3]", 4, id="kl"),
    pytest.param("4d6k6", (6, 1, 6, 3), "[6,~1~,6,~3~]", 12, id="k-literal"),
    pytest.param("4d6k>4", (6, 1, 5, 3), "[6,~1~,5,~3~]", 11, id="k-more-than"),
    pytest.param("4d6k<3", (6, 1, 5, 2), "[~6~,1,~5~,2]", 3, id="k-less-than"),
    pytest.param("4d6ph1", (6, 1, 5, 3), "[~6~,1,5,3]", 9, id="ph"),
    pytest.param("4d6pl1", (6, 1, 5, 3), "[6,~1~,5,3]", 14, id="pl"),
    pytest.param("4d6p1", (1, 1, 5, 3), "[~1~,~1~,5,3]", 8, id="p-literal"),
    pytest.param("4d6p<3", (6, 1, 5, 2), "[6,~1~,5,~2~]", 11, id="p-less-than"),
    pytest.param("4d6p>4", (6, 1, 5, 2), "[~6~,1,~5~,2]", 3, id="p-more-than"),
    pytest.param("2d20kh1", (7, 7), "[7,~7~]", 7, id="kh-tie-keeps-the-first"),
    pytest.param("2d20kl1", (7, 7), "[7,~7~]", 7, id="kl-tie-keeps-the-first"),
    pytest.param("4d6kh1kl1", (6, 1, 5, 3), "[6,1,~5~,~3~]", 7, id="k-twice-keeps-either"),
    pytest.param("4d6kh3kl1", (6, 1, 5, 3), "[6,1,5,3]", 15, id="k-twice-is-one-keep"),
    pytest.param("4d6kh3pl1", (6, 1, 5, 3), "[6,~1~,5,~3~]", 11, id="keep-then-drop"),
    # rerolls: once (ro), until none is chosen (rr), one more die for the first chosen (ra)
    pytest.param("4d6ro1", (1, 3, 4, 5, 2), "[~1~,2,3,4,5]", 14, id="ro"),
    pytest.param("2d6ro<3", (1, 2, 4, 1), "[~1~,4,~2~,1]", 5, id="ro-once-only"),
    pytest.param("2d6rr1", (1, 1, 1, 3, 5), "[~1~,~1~,5,~1~,3]", 8, id="rr-until-none"),
    pytest.param("1d20rr<20", (3, 19, 20), "[~3~,~19~,20]", 20, id="rr-less-than"),
    pytest.param("2d6ra6", (6, 6, 4), "[6!,6,4]", 16, id="ra-first-chosen-only"),
    pytest.param("2d6ra6", (3, 4), "[3,4]", 7, id="ra-none-chosen"),
    pytest.param("10d6ra6", (1, 2, 3, 4, 5, 1, 2, 3, 6, 1, 6), "[1,2,3,4,5,1,2,3,6!,1,6]", 34,
                 id="ra-avrae-help"),
    # explode (e): one more die for each chosen, and for each chosen of those
    pytest.param("2d6e6", (6, 2, 3), "[6!,2,3]", 11, id="e"),
    pytest.param("3d6e6", (6, 6, 2, 6, 1, 3), "[6!,6!,2,6!,1,3]", 24, id="e-chains"),
    pytest.param("1d6e>4", (5, 6, 2), "[5!,6!,2]", 13, id="e-more-than"),
    pytest.param("4d6e6kh3", (6, 1, 6, 2, 5, 3), "[6!,~1~,6!,~2~,5,~3~]", 17,
                 id="e-then-keep-d20-readme"),
    # minimum (mi) and maximum (ma), of the dice kept when they apply
    pytest.param("4d6mi2", (1, 6, 4, 2), "[1->2,6,4,2]", 14, id="mi"),
    pytest.param("4d6ma4", (6, 1, 5, 3), "[6->4,1,5->4,3]", 12, id="ma"),
    pytest.param("4d6mi3kh2", (1, 6, 2, 5), "[~1->3~,6,~2->3~,5]", 11, id="mi-then-keep"),
    pytest.param("4d6kh2mi3", (1, 6, 2, 5), "[~1~,6,~2~,5]", 11, id="keep-then-mi"),
    pytest.param("2d6mi10", (1, 6), "[1->10,6->10]", 20, id="mi-past-the-die"),
    pytest.param("2d6ma0", (3, 4), "[3->0,4->0]", 0, id="ma-zero"),
    # sets and parentheses: a keep or drop on a set chooses among its items
    pytest.param("(1d4, 2d6)kh1", (3, 2, 5), "(~[3]~, [2,5])", 7, id="set-kh"),
    pytest.param("(1d6,1d8,1d10)kh2", (3, 7, 2), "([3], [7], ~[2]~)", 10, id="avrae-set"),
    pytest.param("(1d4 + 1, 3, 2d6kl1)kh1", (2, 2, 5), "([2] + 1, ~3~, ~[2,5]~)", 3,
                 id="nested-d20-readme"),
    pytest.param("(3d6,)", (1, 2, 3), "([1,2,3],)", 6, id="set-of-one"),
    pytest.param("-1d8 + 4 - (3, 1d4)kh1", (8, 3), "-[8] + 4 - (3, ~[3]~)", -7,
                 id="d20-readme-mixed"),
    pytest.param("(4d6)kh3", (6, 1, 5, 3), "([6,~1~,5,3])", 14, id="parentheses-keep-dice"),
    pytest.param("((4d6)kh3)kl1", (6, 1, 5, 3), "(([~6~,~1~,~5~,3]))", 3, id="nested-keeps"),
    pytest.param("(1d8+4)*2", (5,), "([5] + 4) * 2", 18, id="parentheses-avrae"),
    # arithmetic and comparisons (1 when true, 0 when false); the total's integer part
    pytest.param("1d6/2", (5,), "[5] / 2", 2, id="divide"),
    pytest.param("-1d6/2", (5,), "-[5] / 2", -2, id="divide-toward-zero"),
    pytest.param("1d6//2", (5,), "[5] // 2", 2, id="floor-divide"),
    pytest.param("-1d6//2", (5,), "-[5] // 2", -3, id="floor-divide-down"),
    pytest.param("1d6%4", (5,), "[5] % 4", 1, id="modulo"),
    pytest.param("1d6*1.5", (3,), "[3] * 1.5", 4, id="decimal"),
    pytest.param("1d20>10", (15,), "[15] > 10", 1, id="more-than"),
    pytest.param("1d20<5", (5,), "[5] < 5", 0, id="less-than"),
    pytest.param("1d20>=15", (15,), "[15] >= 15", 1, id="at-least"),
    pytest.param("1d20<=5", (5,), "[5] <= 5", 1, id="at-most"),
    pytest.param("1d20==20", (19,), "[19] == 20", 0, id="equal"),
    pytest.param("1d20!=20", (19,), "[19] != 20", 1, id="not-equal"),
    pytest.param("1d6+1 > 3", (2,), "[2] + 1 > 3", 0, id="sum-then-compare"),
    pytest.param("-1d6", (4,), "-[4]", -4, id="negative"),
    pytest.param("2*-1d6", (4,), "2 * -[4]", -8, id="negative-factor"),
    # annotations label, as written
    pytest.param("1d10[cold]+2d6[piercing]", (4, 2, 3), "[4] [cold] + [2,3] [piercing]", 9,
                 id="annotations"),
    pytest.param("4d6mi2[Fire Bolt]", (1, 2, 3, 4), "[1->2,2,3,4] [Fire Bolt]", 11,
                 id="annotation-as-written"),
    pytest.param("(1 [one], 1d4 [two])", (3,), "(1 [one], [3] [two])", 4, id="in-a-set"),
    # d% is a d100
    pytest.param("1d%+1d10", (42, 7), "[42] + [7]", 49, id="percent"),
    pytest.param("4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)", (8, 1, 5, 1, 2, *(1,) * 8),
                 "4 * ([8,~1~,5] + 9 [fire] + ([1,2!,1,1,1,1,1,1,1,1] + 3 [cold]) / 2)", 116,
                 id="d20-test-standard"),
]  # fmt: skip


@pytest.mark.parametrize(("expression", "faces", "breakdown", "total"), CASES)
def test_each_operator_rolls_as_d20_rolls_it(
    expression: str, faces: tuple[int, ...], breakdown: str, total: int
) -> None:
    assert (breakdown, total) == rolled(expression, *faces)


@pytest.mark.parametrize(("expression", "faces", "breakdown", "total"), CASES)
def test_the_expression_rolled_again_over_its_faces_is_the_same_roll(
    expression: str, faces: tuple[int, ...], breakdown: str, total: int
) -> None:
    """What a roll records (the expression and the faces) is enough to check it: rolled again
    over the faces it drew, it gives the same faces, breakdown and total."""
    first = roll_expression(expression, EnteredDice(faces))
    again = roll_notation(read_notation(expression), EnteredDice(first.faces))
    assert first == again


def test_dice_are_drawn_left_to_right_each_dice_operations_right_after_them() -> None:
    """The order d20 rolls in: each dice, then its rerolls and explosions, then what follows."""
    asked: list[int] = []

    class Counting:
        def roll(self, sides: int) -> int:
            asked.append(sides)
            return sides if asked.count(sides) == 1 else 1  # the first die of a size its highest

    result = roll_expression("1d4 + (1d8, 1d10e10ra10)kh1 + 1d6ro6 + d%", Counting())
    assert [4, 8, 10, 10, 10, 6, 6, 100] == asked
    assert ("[4] + (~[8]~, [10!,1,1]) + [~6~,1] + [100]", 117) == (result.breakdown, result.total)


def test_letters_are_read_in_either_case_and_annotations_as_written() -> None:
    assert ("[3,~1~] [Fire]", 3) == rolled("2D6KH1[Fire]", 3, 1)
    assert "2D6KH1[Fire]" == read_expression("2D6KH1[Fire]").written


def test_each_draw_counts_toward_the_thousand() -> None:
    """A reroll or an explosion is one more draw: 999 rerolls of a d6 and the face that ends
    them are a thousand, the most a roll draws."""
    breakdown, total = rolled("1d6rr1", *(1,) * 999, 4)
    assert (999, 4) == (breakdown.count("~1~"), total)
