"""A short scene of each system for the live pages' tests: a campaign with a GM and two players
(alice, bob) and their characters, set up through the engine, and the scene the browser tests
play through the pages' forms: alice and bob roll, the GM rules, bob disputes alice's roll, the
GM resolves the dispute by undoing it."""

from __future__ import annotations

from typing import Any

from attrs import frozen

from domain.events import Role
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.code_green import commands as cg
from domain.rulesets.sims import commands as sims
from domain.rulesets.sprawl_goons import commands as sg
from domain.rulesets.the_code import commands as tc
from engine import DiceSpec, Engine

GM = "Rosa"
PLAYERS = ("alice", "bob")
XSS = "<img src=x onerror=alert(1)>"


@frozen
class Move:
    """One form filled in and sent on a member's page: the verb, its fields, the dice."""

    who: str  # "gm", "alice" or "bob"
    verb: str
    fields: dict[str, Any]
    dice: str = ""


@frozen
class Scene:
    system: str
    campaign: str
    alice_rolls: Move
    bob_rolls: Move
    gm_rules: Move
    amend_bob: str = ""  # the GM's correction of bob's roll, KEY=VALUE (where the system has one)


def _hero(name: str, player: str) -> tc.CreateHero:
    return tc.CreateHero(
        player=player,
        code_name=name,
        secret_identity=f"{name}'s other self",
        physical_description="tall, trench coat",
        profession="private eye",
        advantages=("keen eyes",),
        weakness="bum leg",
        objective="catch criminals",
        objective_score=6,
        modus_operandi="handcuffs crooks to a phone booth",
    )


def seat(engine: Engine, scene: Scene) -> None:
    """The campaign, its members, the players' characters, a running session and scene."""
    members = dict.fromkeys(PLAYERS, Role.PLAYER)
    engine.create_campaign(scene.campaign, scene.system, gm=GM, members=members)
    made: list[Any] = {
        "code-green": [
            cg.CreateCharacter(
                player="alice",
                form=("Legs", "Tail", "Teeth"),
                function=("Cryptic", "Invulnerable", "Phasing"),
            ),
            cg.CreateCharacter(
                player="bob",
                form=("Blood", "Eyes", "Wings"),
                function=("Phasing", "Toxic", "Electric"),
            ),
        ],
        "the-code": [_hero("The Hawk", "alice"), _hero("Lady Volt", "bob")],
        "sprawl-goons": [
            sg.CreateCharacter(
                character="Tanner",
                player="alice",
                morphology=2,
                reaction=1,
                cognition=1,
                equilibrium=0,
                items=("melee:Katana", "armour:Kevlar jacket", "lazarus"),
            ),
            sg.CreateCharacter(
                character="Vex",
                player="bob",
                morphology=0,
                reaction=2,
                cognition=1,
                equilibrium=1,
                items=("melee:Knife", "armour:Kevlar jacket", "lazarus"),
            ),
        ],
        "sims": [
            sims.CreateCharacter(
                character="Neo", player="alice", qualities=("Kung Fu:Combat:Good",), custom=True
            ),
            sims.CreateCharacter(
                character="Cypher", player="bob", qualities=("Knives:Combat:Good",), custom=True
            ),
        ],
    }[scene.system]
    for number, command in enumerate(made):
        engine.execute(scene.campaign, command, dice=DiceSpec(seed=number + 1))
    engine.execute(scene.campaign, StartSession(physical_dice=True))  # the forms take faces
    engine.execute(scene.campaign, StartScene(stage="The first scene"))
    if scene.system == "code-green":  # tokens on the diagonal: each test finds a token
        for player in PLAYERS:
            name = character_of(engine, scene.campaign, player)
            place = cg.PlaceTokens(character=name, squares=("R1C1", "R2C2", "R3C3"))
            engine.execute(scene.campaign, place)


def character_of(engine: Engine, campaign: str, player: str) -> str:
    state = engine.campaign(campaign)
    return next(e.name for e in state.roster if e.player == player)


SCENES = (
    Scene(
        system="code-green",
        campaign="Night Shift",
        alice_rolls=Move("alice", "test", {"form": "Legs", "function": "Cryptic", "roll": True}),
        bob_rolls=Move("bob", "dice", {"expression": "2d6", "why": "does the radio work"}),
        gm_rules=Move("gm", "note", {"text": "The guard hears something in the cold room"}),
    ),
    Scene(
        system="the-code",
        campaign="Rain City",
        alice_rolls=Move("alice", "dice", {"expression": "1d10", "why": "spot the crook"}),
        bob_rolls=Move("bob", "dice", {"expression": "2d10", "why": "the roof jump"}),
        gm_rules=Move(
            "gm", "step", {"character": "The Hawk", "task": "the alley", "profession": True}
        ),
    ),
    Scene(
        system="sprawl-goons",
        campaign="Docklands",
        alice_rolls=Move("alice", "roll", {"stat": "reaction", "ds": "10"}),
        bob_rolls=Move("bob", "roll", {"stat": "cognition", "ds": "12"}),
        gm_rules=Move("gm", "npc", {"character": "Zone Boss ganger", "ds": "moderate"}),
        amend_bob="ds=14",
    ),
    Scene(
        system="sims",
        campaign="Zion",
        alice_rolls=Move(
            "alice",
            "roll",
            {"qualities": "Kung Fu", "difficulty": "Good", "task": "the wall"},
        ),
        bob_rolls=Move("bob", "roll", {"qualities": "Knives", "difficulty": "Average"}),
        gm_rules=Move(
            "gm", "simple", {"character": "Neo", "difficulty": "Average", "task": "the door"}
        ),
    ),
)


def played(system: str) -> tuple[Engine, Scene]:
    """A fresh in-memory store with the system's scene seated, and the scene."""
    scene = next(s for s in SCENES if s.system == system)
    engine = Engine()
    seat(engine, scene)
    return engine, scene


def actions_now(
    engine: Engine, campaign: str, who: str, character: str | None = None
) -> list[tuple[str, bool]]:
    """The actions the rules allow ``who`` now (``Engine.actions``): each verb and whether it
    is expected, in order."""
    found = engine.actions(campaign, reader=who, character=character).actions
    return [(a.verb, a.expected) for a in found]
