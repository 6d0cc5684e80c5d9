"""Fairness of the dice: face counts per die size and source, with a chi-square test against fair
dice. Counts every die rolled (an undone ruling's dice were still rolled); an amendment reuses
its ruling's dice, so it adds none."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from attrs import frozen

from domain.dice import Die, Provenance
from domain.plain import Plain


@frozen
class FaceCounts(Plain):
    """How often each face of one die size came up from one source, and how fair that looks."""

    sides: int
    source: Provenance | None
    counts: tuple[int, ...]  # index 0 is face 1

    @property
    def rolls(self) -> int:
        return sum(self.counts)

    @property
    def chi_square(self) -> float:
        expected = self.rolls / self.sides
        return sum((n - expected) ** 2 / expected for n in self.counts) if expected else 0.0

    @property
    def p_value(self) -> float:
        """Chance of a spread at least this uneven from fair dice (small: suspicious)."""
        if not self.rolls:
            return 1.0
        return chi_square_survival(self.chi_square, self.sides - 1)

    @property
    def enough(self) -> bool:
        """The test needs about five expected rolls per face to mean much."""
        return self.rolls >= 5 * self.sides


def tally(dice: Iterable[tuple[Die, Provenance | None]]) -> list[FaceCounts]:
    counters: dict[tuple[int, Provenance | None], Counter[int]] = {}
    for die, source in dice:
        counters.setdefault((die.sides, source), Counter())[die.face] += 1
    return [
        FaceCounts(sides, source, tuple(counter[f] for f in range(1, sides + 1)))
        for (sides, source), counter in sorted(
            counters.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))
        )
    ]


def chi_square_survival(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable with ``dof`` degrees of freedom: the regularized
    upper incomplete gamma Q(dof/2, x/2)."""
    return _upper_gamma_q(dof / 2.0, x / 2.0)


def _upper_gamma_q(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(500):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # continued fraction for Q (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)
