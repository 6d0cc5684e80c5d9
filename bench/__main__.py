"""`make bench`: every figure as our median, the baseline's median and the ratio.

Prints one table and writes it as JSON (``bench/results.json``, or ``--json PATH``), with how
long each part of the run took. The baselines run in the same process tree on the same machine,
so the ratios hold where absolute times do not. ``--size smoke`` runs every figure at the
smallest sizes that still run its code (``bench.sizes``; the test suite's check that the bench
runs, its figures meaningless); ``--events`` scales the bulk/replay figures, ``--memory-events``
the large side of the memory figures, ``--repeat`` the repetitions (each figure reports a
median), over the chosen size."""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import attrs

from bench import (
    community_figures,
    discord_figures,
    postgres_figures,
    server_figures,
    sqlite_figures,
)
from bench.common import ROOT, Row, Stopwatch, say, scratch
from bench.sizes import BY_NAME, Sizes


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        return f"{value * 1000:.2f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "events/s":
        return f"{value:,.0f}/s"
    return f"{value:,.1f} {unit}"


def table(rows: list[Row]) -> str:
    lines = [
        "| figure | ours | baseline | ratio | target | met |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        met = {True: "yes", False: "**no**", None: "-"}[r.met]
        ours, theirs = cell(r.ours, r.ours_p99, r), cell(r.baseline, r.baseline_p99, r)
        baseline = f"{theirs} ({r.baseline_name})" if r.baseline_name else "-"
        figure = f"{r.figure}: {r.note}" if r.note else r.figure
        ratio = both(r.ratio, r.ratio_p99, r, lambda x: f"{x:.2f}x")
        target = f"p50 {r.target}" if r.target and r.tail and not r.p99_judged else r.target
        lines.append(f"| {figure} | {ours} | {baseline} | {ratio} | {target or '-'} | {met} |")
    return "\n".join(lines)


def cell(p50: float | None, p99: float | None, row: Row) -> str:
    """A value of ``row`` as the table shows it (with its p99 when its tail counts)."""
    return both(p50, p99, row, lambda value: fmt(value, row.unit))


def both(p50: float | None, p99: float | None, row: Row, shown: Callable[[float], str]) -> str:
    def one(value: float | None) -> str:
        return "-" if value is None else shown(value)

    return f"p50 {one(p50)}, p99 {one(p99)}" if row.tail else one(p50)


def machine() -> dict[str, str]:
    cpu = "?"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [ln for ln in cpuinfo.read_text().splitlines() if ln.startswith("model name")]
        cpu = f"{len(names)} x {names[0].split(':', 1)[1].strip()}" if names else "?"
    return {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "cpu": cpu,
        "system": platform.platform(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
    }


def sizes_of(args: argparse.Namespace) -> Sizes:
    """The chosen size, with the counts given on the command line instead of its own."""
    given = {"repeat": args.repeat, "events": args.events, "memory_events": args.memory_events}
    return attrs.evolve(BY_NAME[args.size], **{k: v for k, v in given.items() if v is not None})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--size", choices=sorted(BY_NAME), default="default")
    parser.add_argument("--repeat", type=int, help="3 by default")
    parser.add_argument("--events", type=int, help="100,000 by default")
    parser.add_argument("--memory-events", type=int, help="1,000,000 by default")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results.json")
    args = parser.parse_args(argv)
    sizes = sizes_of(args)
    watch = Stopwatch()
    started = time.perf_counter()
    rows = sqlite_figures.everything(sizes, watch)
    with watch.part("postgresql"):
        rows += postgres_figures.everything(sizes)
    with watch.part("the server, on loopback"):
        rows += server_figures.everything(scratch(), sizes)
    with watch.part("a server that holds a community, on loopback"):
        rows += community_figures.everything(scratch(), sizes)
    with watch.part("Discord interactions, on loopback"):
        rows += discord_figures.everything(scratch(), sizes)
    info = machine()
    info["duration"] = f"{time.perf_counter() - started:.0f} s"
    info["size"] = args.size
    print(f"{info['date']} on {info['cpu']}, Python {info['python']}, SQLite {info['sqlite']}")
    print(table(rows))
    figures = [r.as_dict() for r in rows]
    written = {"machine": info, "sizes": attrs.asdict(sizes), "parts": watch.parts}
    args.json.write_text(json.dumps({**written, "figures": figures}, indent=2) + "\n")
    say(f"({info['duration']}; JSON in {args.json})")


if __name__ == "__main__":
    main()
