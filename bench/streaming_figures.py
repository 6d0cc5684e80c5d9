"""The streaming figures: peak RSS of the commands that walk a whole campaign (`verify`,
`export`, `import`), each in a fresh process, over a long campaign against a short one. They read
and write a page at a time, so the long campaign should cost them little more memory.

The stores come from ``bench.dataset`` (Sprawl Goons, imported roll rulings, a snapshot of each
stream after every save of 10k events); each is exported once, and that file is what `import`
reads into an empty store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench import dataset
from bench.common import Row, say

COMMANDS = ("verify", "export", "import")


def peak(argv: list[str]) -> float:
    """The peak RSS of one `campaign` command in a fresh process, in MiB."""
    probe = [sys.executable, "-m", "bench.command_probe", *argv]
    out = subprocess.run(probe, check=True, capture_output=True, text=True).stdout
    return int(out.split()[-1]) / 1024


def peaks(work: Path, events: int) -> dict[str, float]:
    db, copy, export = (work / f"streaming-{events}{end}" for end in (".db", "-copy.db", ".jsonl"))
    say(f"  building {events:,} events for the streaming figure")
    dataset.remove_db(db)
    dataset.build(db, events // 2)
    found = {
        "verify": peak(["--db", str(db), "verify"]),
        "export": peak(["--db", str(db), "export", "--out", str(export)]),
    }
    dataset.remove_db(copy)
    found["import"] = peak(["--db", str(copy), "import", str(export)])
    for path in (db, copy):
        dataset.remove_db(path)
    export.unlink(missing_ok=True)
    return found


def figures(work: Path, small: int, large: int) -> list[Row]:
    few, many = peaks(work, small), peaks(work, large)
    return [
        Row(
            f"peak RSS, `campaign {command}` of {large:,} events",
            "MiB",
            many[command],
            few[command],
            f"the same over {small:,} events",
            "<= 2",
        )
        for command in COMMANDS
    ]
