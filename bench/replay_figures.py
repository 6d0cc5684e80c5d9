"""Replay against the log: `campaign replay --session 1` of a 10,000-ruling session (`make
bench`'s size, ``bench.sizes``) narrates each ruling with the states after it, and should cost
about what `campaign log --session 1` of that session costs plus the states it prints (issue 17:
<= 3x). Whole processes, output discarded, run in turns.
"""

from __future__ import annotations

from pathlib import Path

from bench import dataset
from bench.common import BIN, Row, paired, process, say
from bench.sizes import Sizes


def figures(work: Path, sizes: Sizes) -> list[Row]:
    db = work / "session-replay.db"
    dataset.remove_db(db)
    rulings = sizes.session
    say(f"  building a session of {rulings:,} rulings for the replay figure")
    dataset.build(db, rulings)
    campaign = [str(BIN / "campaign"), "--db", str(db)]
    replay = process([*campaign, "replay", "--session", "1"])
    log = process([*campaign, "log", "--session", "1"])
    ours, baseline = paired(replay, log, sizes.repeat)
    dataset.remove_db(db)
    return [
        Row(
            f"`campaign replay --session 1` of a {rulings:,}-ruling session",
            "s",
            ours,
            baseline,
            "`campaign log --session 1` of the same session",
            "<= 3",
        )
    ]
