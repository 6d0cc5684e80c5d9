"""Dice expressions players meet, gathered from the d20 library's own tests (tests/test_dice.py,
test_utils.py, test_arguments.py), its README and Avrae's ``!roll`` help: what ``campaign dice``
is measured against. ``python -m tests.unit.d20_corpus`` counts how many are accepted, and
why the rest are refused."""

from __future__ import annotations

import random
from collections import Counter

D20_TESTS = (
    # test_dice.py
    "1d20", "1+1", "4d6kh3", "(1)", "(1,)", "((1d6))", "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)",
    "(1d4, 2+2, 3d6kl1)kh1", "((10d6kh5)kl2)kh1", "(((1d6)))",
    "1 + 3 * 6", "1 + (3 * 6)", "(1 + 3) * 6", "1 + 2 + 3", "(1 + 2) + 3", "1 + (2 + 3)",
    "1 + 2 == 2", "1 + (2 == 2)",
    "1001d6", "6d0", "10d6mil1",
    "10d6k1k2k3", "10d6k1ph1", "(1, 2, 3)k1k2",
    "1", "10000", "1.5", "0.5", ".5",
    "0d6", "d6", "1d6", "2d6",
    "(1, 1)",
    "+1", "-1", "--1", "-+-++---+1",
    "2 + 2", "2 - 2", "2 * 5", "15 / 2", "15 // 2", "13 % 2",
    "10 / 0", "10 // 0", "10 % 0",
    "1 == 1", "1 == 2", "1 > 1", "2 > 1", "1 < 1", "1 < 2",
    "1 >= 1", "1 >= 2", "1 <= 1", "2 <= 1", "1 != 1", "1 != 2",
    "(1, 2, 3, 4, 5)k3", "(1, 2, 3, 4, 5)k<3", "(1, 2, 3, 4, 5)k>3", "(1, 2, 3, 4, 5)kl2",
    "(1, 2, 3, 4, 5)kh2", "(1)k1", "(1)k2",
    "(1, 2, 3, 4, 5)k1k2", "(1, 2, 3, 4, 5)kh1kl1",
    "(1, 2, 3, 4, 5)p3", "(1, 2, 3, 4, 5)p1p2", "(1, 2, 3, 4, 5)ph1pl1",
    "1d20rr<20", "1d20rr>1", "1d20rr<21", "1d1rr1",
    "1d1ro1", "1d6rol1",
    "1d1ra1", "1d6ral1",
    "1d2e2", "1d20e<21", "1d1e1",
    "10d6mi6", "10d6mi10", "10d6mi2",
    "10d6ma1", "10d6ma0", "10d6ma5",
    # test_utils.py
    "1d20+1", "d20-1d4", "1d20ro1", "1 [a] + 2 + 3 [b] + 4", "1 [a] + 2 + 3", "1 + 2 + 3 + 4",
    "8d6", "8d6 [fire]", "1d20 + 4d6 + 3", "-1d8 + 4 - (3, 1d4)kh1",
    # test_arguments.py (comments: d20 reads them only when asked to)
    "1d20 foo bar", "1d20 keep something",
)  # fmt: skip

D20_README = (
    "1d20+5", "2d6ro<3", "8d6mi2", "(1d4 + 1, 3, 2d6kl1)kh1", "4d6e6kh3",
    "3d6 [fire] + 1d4 [piercing]", "-(1d8 + 3) [healing]", "(1 [one], 2 [two], 3 [three])",
    "1d20 I rolled a d20", "3d6 + 1d4 + 3", "100d20", "1d20+" * 50 + "1d20", "10d20rr<20",
    "d20", "3d6", "()", "(2,)", "(1, 3+3, 1d20)", "(3d6)", "(3d6,)",
)  # fmt: skip

AVRAE_HELP = (
    "1d20+4", "1d8+2+1d6", "1d20+1 adv", "1d20-3 dis", "(1d8+4)*2",
    "1d10[cold]+2d6[piercing] Ice Knife", "2d20kh1+4", "2d20kl1-2", "4d6mi2[fire]", "10d6ra6",
    "4d6ro<3", "2d6e6", "(1d6,1d8,1d10)kh2", "(1d6,1d8,1d10)",
)  # fmt: skip

EXPRESSIONS = tuple(dict.fromkeys(D20_TESTS + D20_README + AVRAE_HELP))


class Seeded:
    """Dice from a seeded generator: the measure is the same each time it is run."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll(self, sides: int) -> int:
        return self.random.randint(1, sides)


def measure() -> Counter[str]:
    """How each expression fares: ``accepted``, or the code it is refused with."""
    from domain.errors import DomainError
    from domain.free_rolls import roll_expression

    fared: Counter[str] = Counter()
    for expression in EXPRESSIONS:
        try:
            roll_expression(expression, Seeded(7))
        except DomainError as error:
            fared[error.code] += 1
        else:
            fared["accepted"] += 1
    return fared


if __name__ == "__main__":
    fared = measure()
    print(f"{len(EXPRESSIONS)} expressions: {dict(fared.most_common())}")
