"""A table bot in a dozen lines of the Python API: open a store, create a Sprawl Goons campaign,
seat a player, let the player roll with seeded dice, undo the GM's mistake, print the recap.

Usage: python examples/bot.py [--db PATH]   (default: a store in memory)
"""

from __future__ import annotations

import argparse

from domain.audience import TABLE
from domain.events import Role
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets.sprawl_goons.commands import CreateCharacter, MakeActionRoll
from engine import MEMORY, DiceSpec, Engine
from projections.render_md import recap_md


def run(db: str) -> str:
    """Play a short scene and return its session's recap (Markdown)."""
    with Engine(db) as table:
        table.create_campaign("Neon Alley", "sprawl-goons", gm="Rosa", members={"ana": Role.PLAYER})
        table.execute("Neon Alley", StartSession())
        table.execute("Neon Alley", StartScene(stage="The container stacks"))
        tanner = CreateCharacter(
            character="Tanner",
            player="ana",
            morphology=2,
            reaction=1,
            cognition=1,
            equilibrium=0,
            items=("melee:Katana", "armour:Kevlar jacket", "lazarus"),
        )
        table.execute("Neon Alley", tanner, dice=DiceSpec(seed=7))
        roll = MakeActionRoll(character="Tanner", stat="reaction", ds="10")
        result = table.execute("Neon Alley", roll, dice=DiceSpec(seed=42))  # the GM's: seeded
        print(f"ruling {result.number}: {result.command}, dice {[d.face for d in result.dice]}")
        table.execute("Neon Alley", AddNote(text="the guard is asleep"))  # a slip of the GM's
        table.undo("Neon Alley", reason="that was for the next scene")
        table.execute("Neon Alley", EndScene())
        table.execute("Neon Alley", EndSession())
        return recap_md(table.recap("Neon Alley", audience=TABLE))  # what every member reads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=MEMORY, help="a SQLite file or postgresql:// URL")
    print(run(parser.parse_args().db), end="")


if __name__ == "__main__":
    main()
