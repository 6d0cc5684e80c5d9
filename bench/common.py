"""What every figure shares: timing with medians, a row of the table, and scratch folders."""

from __future__ import annotations

import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from attrs import asdict, define, field

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@define
class Row:
    """One figure: our median, the baseline's median, their ratio and whether the target holds.

    ``ratio`` is ours / baseline for times and ours / baseline for rates alike: ``better`` says
    which way the target points ("<=" a time ratio, ">=" a rate ratio). A latency whose tail
    counts (``tail_row``) has its p99s too, ``ours_p99`` and ``baseline_p99`` (``ours`` and
    ``baseline`` are then the p50s), and its target holds only if it holds for both, unless the
    target is about the p50 alone (``p99_judged`` false: the p99s are shown, not judged)."""

    figure: str
    unit: str
    ours: float | None
    baseline: float | None
    baseline_name: str
    target: str = ""
    note: str = ""
    ours_p99: float | None = None
    baseline_p99: float | None = None
    p99_judged: bool = True

    @property
    def tail(self) -> bool:
        return self.ours_p99 is not None or self.baseline_p99 is not None

    @property
    def ratio(self) -> float | None:
        return _ratio(self.ours, self.baseline)

    @property
    def ratio_p99(self) -> float | None:
        return _ratio(self.ours_p99, self.baseline_p99)

    @property
    def met(self) -> bool | None:
        judged = [self.ratio, self.ratio_p99] if self.tail and self.p99_judged else [self.ratio]
        ratios = [r for r in judged if r is not None]
        if not self.target or len(ratios) < len(judged):
            return None
        sign, bound = self.target.split()
        return all(r <= float(bound) if sign == "<=" else r >= float(bound) for r in ratios)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio, "ratio_p99": self.ratio_p99, "met": self.met}


def _ratio(ours: float | None, baseline: float | None) -> float | None:
    if ours is None or not baseline:
        return None
    return ours / baseline


def percentile(samples: Sequence[float], share: float) -> float:
    """The sample at ``share`` of the way from the least to the greatest (0.99: the p99)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def tail_row(
    figure: str,
    mine: Sequence[float],
    theirs: Sequence[float] | float | None,
    baseline_name: str = "",
    target: str = "",
    note: str = "",
    *,
    p99_judged: bool = True,
) -> Row:
    """A latency row from every sample of ours and of the baseline's (``theirs``; or a bound in
    seconds that p50 and p99 are both held to; or None, no baseline): their p50s and p99s, the
    target judged on both (on the p50 alone without ``p99_judged``)."""
    base50: float | None
    base99: float | None
    if isinstance(theirs, float):
        base50, base99 = theirs, theirs
    elif theirs:
        base50, base99 = median_of(list(theirs)), percentile(theirs, 0.99)
    else:
        base50 = base99 = None
    return Row(
        figure,
        "s",
        median_of(list(mine)) if mine else None,
        base50,
        baseline_name,
        target,
        note,
        ours_p99=percentile(mine, 0.99) if mine else None,
        baseline_p99=base99,
        p99_judged=p99_judged,
    )


def same_at_scale(
    small: dict[str, float], big: dict[str, float], figure: str, short: str
) -> list[Row]:
    """One row a figure measured in a long campaign (``big``) and a short one (``small``):
    ``figure`` names it (``{}`` is the figure's key), ``short`` the short campaign (``a
    campaign of 1,000 rulings``); the target, that the long one costs at most twice as much."""
    return [
        Row(
            figure.format(what),
            "s",
            big[what],
            small[what],
            f"the same in {short}",
            "<= 2",
        )
        for what in small
    ]


def median_of(samples: list[float]) -> float:
    return statistics.median(samples)


def timed(
    action: Callable[[], object], repeat: int, setup: Callable[[], object] | None = None
) -> float:
    """The median wall time of ``action`` over ``repeat`` runs (``setup`` before each, untimed)."""
    samples = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return median_of(samples)


def paired(
    ours: Callable[[], object],
    baseline: Callable[[], object],
    repeat: int,
    *,
    setup: Callable[[], object] | None = None,
    baseline_setup: Callable[[], object] | None = None,
) -> tuple[float, float]:
    """The medians of ``ours`` and of ``baseline``, run in turns (ours, baseline, ours, ...) so
    both see the same moments of a shared, noisy machine; each ``setup`` runs untimed before."""
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(repeat):
        mine.append(timed(ours, 1, setup))
        theirs.append(timed(baseline, 1, baseline_setup))
    return median_of(mine), median_of(theirs)


def process(argv: list[str], stdin: bytes = b"", cwd: Path | None = None) -> Callable[[], None]:
    """Running a whole process (it must exit 0), warmed once: page cache, bytecode caches."""

    def run() -> None:
        subprocess.run(argv, input=stdin, cwd=cwd, check=True, capture_output=True)

    run()
    return run


def timed_process(
    argv: list[str], repeat: int, stdin: bytes = b"", cwd: Path | None = None
) -> float:
    """The median wall time of a whole process (it must exit 0)."""
    return timed(process(argv, stdin, cwd), repeat)


def scratch() -> Path:
    return Path(tempfile.mkdtemp(prefix="campaign-bench-"))


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@define
class Stopwatch:
    """How long each part of a run took, in the order the parts ran (written with the figures,
    so that a run says where its time went)."""

    parts: dict[str, float] = field(factory=dict)

    @contextlib.contextmanager
    def part(self, name: str) -> Iterator[None]:
        say(f"- {name}")
        began = time.perf_counter()
        try:
            yield
        finally:
            self.parts[name] = round(time.perf_counter() - began, 1)
