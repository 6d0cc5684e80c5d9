"""`make bench`: every figure as our median, the baseline's median and the ratio.

Prints one table and writes it as JSON (``bench/results.json``, or ``--json PATH``). The
baselines run in the same process tree on the same machine, so the ratios hold where absolute
times do not. ``--events`` scales the bulk/replay figures, ``--memory-events`` the large side of
the memory figure, ``--repeat`` the repetitions (each figure reports a median)."""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import time
from pathlib import Path

from bench import (
    community_figures,
    discord_figures,
    postgres_figures,
    server_figures,
    sqlite_figures,
)
from bench.common import ROOT, Row, say, scratch


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
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}x"
        met = {True: "yes", False: "**no**", None: "-"}[r.met]
        baseline = f"{fmt(r.baseline, r.unit)} ({r.baseline_name})" if r.baseline_name else "-"
        figure = f"{r.figure}: {r.note}" if r.note else r.figure
        lines.append(
            f"| {figure} | {fmt(r.ours, r.unit)} | {baseline} | {ratio} | {r.target or '-'} "
            f"| {met} |"
        )
    return "\n".join(lines)


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


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--memory-events", type=int, default=1_000_000)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results.json")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = sqlite_figures.everything(args.repeat, args.events, args.memory_events)
    say("- postgresql")
    rows += postgres_figures.everything(args.repeat, args.events)
    rows += server_figures.everything(scratch())
    rows += community_figures.everything(scratch())
    rows += discord_figures.everything(scratch())
    info = machine()
    info["duration"] = f"{time.perf_counter() - started:.0f} s"
    print(f"{info['date']} on {info['cpu']}, Python {info['python']}, SQLite {info['sqlite']}")
    print(table(rows))
    args.json.write_text(
        json.dumps({"machine": info, "figures": [r.as_dict() for r in rows]}, indent=2) + "\n"
    )
    say(f"({info['duration']}; JSON in {args.json})")


if __name__ == "__main__":
    main()
