"""The streaming figures: peak RSS of the commands that walk a whole campaign (`verify`,
`export`, `import`), each in a fresh process, over a long campaign against a short one. They read
and write a page at a time, so the long campaign should cost them little more memory. And of the
reads that show a part of it (`log --session N` of a 100-ruling session, `history NAME` of a
character with 100 rulings), which read only that part through the ruling index (kept up to date
by a `campaign projections --once` first, as a server's worker would).

The stores come from ``bench.dataset`` (Sprawl Goons, imported roll rulings, a snapshot of each
stream after every save of 10k events); each is exported once, and that file is what `import`
reads into an empty store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench import dataset
from bench.common import Row, say
from bench.sizes import Sizes

COMMANDS = ("verify", "export", "import", "log --session 2", "history Mara")


def peak(argv: list[str]) -> float:
    """The peak RSS of one `campaign` command in a fresh process, in MiB."""
    probe = [sys.executable, "-m", "bench.command_probe", *argv]
    out = subprocess.run(probe, check=True, capture_output=True, text=True).stdout
    return int(out.split()[-1]) / 1024


def peaks(work: Path, events: int, later: int) -> dict[str, float]:
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
    later_session(db, later)
    subprocess.run([*campaign(db), "projections", "--once"], check=True, capture_output=True)
    found["log --session 2"] = peak(["--db", str(db), "log", "--session", "2"])
    found["history Mara"] = peak(["--db", str(db), "history", "Mara"])
    for path in (db, copy):
        dataset.remove_db(path)
    export.unlink(missing_ok=True)
    return found


def campaign(db: Path) -> list[str]:
    return [sys.executable, "-m", "cli", "--db", str(db)]


def later_session(db: Path, later: int) -> None:
    """After the long session, a second one: a new character, Mara, and ``later`` of her rolls."""
    from domain.lifecycle import EndScene, EndSession, StartScene, StartSession
    from domain.rulesets.sprawl_goons.commands import CreateCharacter, MakeActionRoll
    from engine import DiceSpec, Engine

    with Engine(str(db)) as engine:
        engine.execute(dataset.NAME, EndScene())
        engine.execute(dataset.NAME, EndSession())
        engine.execute(dataset.NAME, StartSession())
        engine.execute(dataset.NAME, StartScene(stage="The docks, at dawn"))
        mara = CreateCharacter(
            character="Mara",
            player="bo",
            morphology=1,
            reaction=2,
            cognition=1,
            equilibrium=0,
            items=("melee:Katana", "armour:Kevlar jacket", "penlight"),
        )
        engine.execute(dataset.NAME, mara, dice=DiceSpec(faces=(3, 4, 5)))
        roll = MakeActionRoll(character="Mara", stat="reaction", ds="10")
        for _ in range(later - 1):
            engine.execute(dataset.NAME, roll, dice=DiceSpec(faces=(3, 3)))


def figures(work: Path, sizes: Sizes) -> list[Row]:
    small, large = sizes.memory_small, sizes.memory_events
    few, many = peaks(work, small, sizes.later), peaks(work, large, sizes.later)
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
