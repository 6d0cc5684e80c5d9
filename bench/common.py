"""What every figure shares: timing with medians, a row of the table, and scratch folders."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import asdict, define

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@define
class Row:
    """One figure: our median, the baseline's median, their ratio and whether the target holds.

    ``ratio`` is ours / baseline for times and ours / baseline for rates alike: ``better`` says
    which way the target points ("<=" a time ratio, ">=" a rate ratio)."""

    figure: str
    unit: str
    ours: float | None
    baseline: float | None
    baseline_name: str
    target: str = ""
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.ours is None or not self.baseline:
            return None
        return self.ours / self.baseline

    @property
    def met(self) -> bool | None:
        if self.ratio is None or not self.target:
            return None
        sign, bound = self.target.split()
        return self.ratio <= float(bound) if sign == "<=" else self.ratio >= float(bound)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio, "met": self.met}


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
            f"the same in a campaign of {short}",
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
