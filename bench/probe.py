"""Replay the benchmark character of a store without snapshots; print the peak RSS in KiB.

Run as ``python -m bench.probe DB`` by the memory figure, one fresh process per store. The peak
is the process's ``VmHWM``: ``ru_maxrss`` would carry over the forking parent's peak."""

from __future__ import annotations

import sys
from pathlib import Path

from bench import dataset
from bench.sqlite_figures import without_snapshots
from engine import Engine


def main(db: Path) -> None:
    with Engine(str(db)) as engine:
        t = dataset.table(engine)
    streams = without_snapshots(db)
    loaded = streams.load(t.character_id, t.evolve_character)
    status = Path("/proc/self/status").read_text().splitlines()
    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    print(peak, loaded.version)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
