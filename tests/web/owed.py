"""A scene of each system (``tests.web.scenes``) with something owed, for the turn panel: Code
Green's alice has a Legs/Cryptic test open; Sprawl Goons' Tanner and Vex have rolled initiative
(Tanner 6 + 1 = 7, Vex 1 + 2 = 3); the Sims' Neo and Cypher are in a conflict's turn order
(both Good: Neo wins the roll-off 5 to 2, his turn); The Code's session runs (both heroes'
Exposure rolls are due)."""

from __future__ import annotations

from domain.rulesets.code_green import commands as cg
from domain.rulesets.sims import commands as sims
from domain.rulesets.sprawl_goons import commands as sg
from engine import DiceSpec, Engine
from tests.web.scenes import Scene, character_of, seat


def owe(engine: Engine, scene: Scene) -> None:
    """The scene's commands that leave something owed (after ``seat``)."""
    if scene.system == "code-green":
        name = character_of(engine, scene.campaign, "alice")
        engine.execute(
            scene.campaign, cg.DeclareTest(character=name, form="Legs", function="Cryptic")
        )
    elif scene.system == "sprawl-goons":
        rolled = sg.RollInitiative(combatants=("Tanner", "Vex"))
        engine.execute(scene.campaign, rolled, dice=DiceSpec(faces=(6, 1)))
    elif scene.system == "sims":
        order = sims.SetTurnOrder(entries=("Neo:Kung Fu", "Cypher:Knives"))
        engine.execute(scene.campaign, order, dice=DiceSpec(faces=(5, 2)))


def seat_owing(engine: Engine, scene: Scene) -> None:
    """The scene's campaign seated, then left owing."""
    seat(engine, scene)
    owe(engine, scene)
