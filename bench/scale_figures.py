"""Scale figures: the commands a table runs every night cost the same in a 100,000-ruling
campaign as in a 1,000-ruling one (issue 17).

Each store comes from ``bench.dataset`` (Sprawl Goons: Tanner's imported roll rulings, all in
session 1), then the same evening is played on both through the engine: session 1 ends, session
2 starts, Mara joins and rolls until she has ``later`` rulings (``bench.sizes``: 100 in `make
bench`), in a session of about as many.
The figures are in-process calls of the Engine API, the read models caught up once (untimed)
before: `roll`, `show Mara`, `history Mara`, `log --session 2`, `dice-stats --session 2` and the
recap of the latest session (2).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import dataset
from bench.common import Row, same_at_scale, say, timed
from bench.sizes import Sizes
from domain.audience import GMS
from engine import Engine
from engine.dice.sources import DiceSpec

MODELS = ("recaps", "index", "dice")


def evening(engine: Engine, later: int) -> None:
    """Session 1 ends; in session 2 Mara joins and rolls until she has ``later`` rulings."""
    from domain.lifecycle import EndScene, EndSession, StartScene, StartSession
    from domain.rulesets.sprawl_goons.creation import CreateCharacter

    mara = CreateCharacter(
        character="Mara",
        player="ben",
        morphology=1,
        reaction=2,
        cognition=1,
        equilibrium=0,
        items=("melee:Katana", "armour:Kevlar jacket", "lazarus"),
    )
    for command in (EndScene(), EndSession(), StartSession()):
        engine.execute(dataset.NAME, command)
    engine.execute(dataset.NAME, mara, dice=DiceSpec(faces=(1, 2, 3, 4)))
    engine.execute(dataset.NAME, StartScene(stage="The docks"))
    for _ in range(later - 1):
        engine.execute(dataset.NAME, roll(), dice=DiceSpec(faces=(5, 6)))


def roll() -> Any:
    from domain.rulesets.sprawl_goons.action_roll import MakeActionRoll

    return MakeActionRoll(character="Mara", stat="reaction", ds="10")


def commands(engine: Engine, later: int) -> dict[str, Callable[[], object]]:
    """What each figure times, as the CLI command calls the engine (reads first: `roll` adds a
    ruling each time)."""
    name = dataset.NAME
    dice = DiceSpec(faces=(5, 6))

    def show() -> None:
        engine.campaign(name)
        engine.character(name, "Mara", audience=GMS)

    return {
        "show Mara": show,
        f"history Mara ({later} rulings)": lambda: engine.history(name, "Mara", audience=GMS),
        f"log --session 2 ({later} rulings)": lambda: engine.log(name, session=2, audience=GMS),
        "dice-stats --session 2": lambda: engine.dice_stats(name, session=2, audience=GMS),
        "recap of the latest session": lambda: engine.recap(name, audience=GMS),
        "roll": lambda: engine.execute(name, roll(), dice=dice),
    }


def measured(db: Path, rulings: int, sizes: Sizes) -> dict[str, float]:
    say(f"  building {rulings:,} rulings for the scale figures")
    dataset.build(db, rulings)
    with Engine(str(db)) as engine:
        evening(engine, sizes.later)
        for model in MODELS:
            engine.catch_up(model)
        actions = commands(engine, sizes.later)
        times = {what: timed(action, sizes.repeat * 5) for what, action in actions.items()}
        engine.read_models.close()
    dataset.remove_db(db)
    return times


def figures(work: Path, sizes: Sizes) -> list[Row]:
    large = sizes.events
    small = measured(work / "scale-small.db", sizes.small, sizes)
    big = measured(work / "scale-large.db", large, sizes)
    figure, short = f"`{{}}`, {large:,}-ruling campaign", f"a campaign of {sizes.small:,} rulings"
    return same_at_scale(small, big, figure, short)
