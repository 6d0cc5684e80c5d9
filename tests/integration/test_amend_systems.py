"""Amendment in every system: amend then load == the history written right in the first place.

Each scenario plays a short history, amends one ruling's GM parameter keeping its dice, then plays
the corrected history from scratch with the dice the amendment used, and compares every sheet."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from uuid import UUID

import pytest

from domain.audience import GMS
from domain.commands import Command
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.sims.creation import CreateCharacter as SimsCharacter
from domain.rulesets.sims.situations import RollComplicated
from domain.rulesets.sprawl_goons.commands import CreateCharacter as GoonCharacter
from domain.rulesets.sprawl_goons.commands import MakeActionRoll
from domain.rulesets.the_code.creation import CreateHero
from domain.rulesets.the_code.exposure import RollExposure
from engine import Engine
from engine.dice.sources import DiceSpec

Step = tuple[Command, tuple[int, ...]]

NEO_QUALITIES = (
    "Outdoorsman:Physical:Good",
    "Kung Fu:Combat:Good",
    "Gunplay:Combat:Average",
    "Hacker:Mental:Poor",
    "Courier:Professional:Average",
    "Charm:Social:Average",
    "Stealth:Physical:Average",
    "Driving:Professional:Average",
    "Trivia:Mental:Average",
    "Bluff:Social:Average",
)

SCENARIOS: dict[str, tuple[str, list[Step], int, dict[str, str], Callable[[Command], Command]]] = {
    # The GM ruled the MO was followed (an extra Exposure die); corrected: it was not.
    "the-code-mo-followed": (
        "the-code",
        [
            (
                CreateHero(
                    player="dana",
                    code_name="The Hawk",
                    secret_identity="Mitch",
                    physical_description="tall, trench coat",
                    profession="private eye",
                    advantages=("keen eyes",),
                    weakness="bum leg",
                    objective="catch criminals",
                    objective_score=6,
                    modus_operandi="handcuff to the phone booth",
                    exposure=1,
                ),
                (),
            ),
            (RollExposure(hero="The Hawk", mo_followed=True), (3, 5)),
        ],
        4,
        {"mo_followed": "false"},
        lambda c: RollExposure(hero="The Hawk"),
    ),
    # The referee set DS 14 on a dangerous roll; corrected: DS 10.
    "sprawl-goons-ds": (
        "sprawl-goons",
        [
            (
                GoonCharacter(
                    character="Tanner",
                    player="ana",
                    morphology=2,
                    reaction=1,
                    cognition=1,
                    equilibrium=0,
                    items=("melee:Katana", "armour:Kevlar jacket", "lazarus"),
                ),
                (3, 4, 5, 2),
            ),
            (StartScene(stage="An ambush"), ()),
            (MakeActionRoll(character="Tanner", stat="reaction", ds="14", dangerous=True), (4, 5)),
        ],
        5,
        {"ds": "10"},
        lambda c: MakeActionRoll(character="Tanner", stat="reaction", ds="10", dangerous=True),
    ),
    # The GM set the hazardous climb at Good; corrected: Average (fewer Damage Ranks).
    "sims-difficulty": (
        "sims",
        [
            (SimsCharacter(character="Neo", player="alice", qualities=NEO_QUALITIES), ()),
            (StartScene(stage="The club wall"), ()),
            (
                RollComplicated(
                    character="Neo", qualities=("Hacker",), difficulty="Good", hazardous=True
                ),
                (3, 3),
            ),
        ],
        5,
        {"difficulty": "Average"},
        lambda c: RollComplicated(
            character="Neo", qualities=("Hacker",), difficulty="Average", hazardous=True
        ),
    ),
}


def counter_ids() -> Callable[[], UUID]:
    numbers: Iterator[int] = itertools.count(1)
    return lambda: UUID(int=next(numbers))


def play(engine: Engine, system: str, steps: Sequence[Step]) -> None:
    engine.create_campaign("Lab", system)
    engine.execute("Lab", StartSession())
    for command, faces in steps:
        engine.execute("Lab", command, dice=DiceSpec(faces=faces))


def sheets(engine: Engine) -> list[Any]:
    return engine.characters("Lab", audience=GMS)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_amend_equals_the_history_written_right(frozen: None, scenario: str) -> None:
    """The amended ruling's consequences are exactly those of the corrected command."""
    system, steps, ruling, changes, corrected = SCENARIOS[scenario]
    with Engine(new_id=counter_ids()) as amended, Engine(new_id=counter_ids()) as direct:
        play(amended, system, steps)
        before = sheets(amended)
        result = amended.amend("Lab", ruling, changes, reason="the GM misjudged")
        index = ruling - 3  # rulings 1 and 2 are the campaign and the session
        used = tuple(d.face for d in result.dice)
        fixed = [*steps[:index], (corrected(steps[index][0]), used), *steps[index + 1 :]]
        play(direct, system, fixed)

        assert sheets(direct) == sheets(amended)
        assert before != sheets(amended)
