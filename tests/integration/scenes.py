"""A scripted Code Green scene and an independent replay, shared by the integration tests."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.campaign import evolve_campaign, evolve_directory
from domain.events import Event, RulingRetracted
from domain.lifecycle import EndScene
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    DeclareTest,
    DisplaceToken,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.state import evolve as evolve_character
from engine import Engine
from engine.application.engine import DIRECTORY_ID
from engine.dice.sources import DiceSpec
from tests.conftest import add_s1_character, place, scene_with_s1

ALICE = "31415"
BOB = "26535"

# Ruling numbers of the scripted scene, in the order `play_scene` records them.
SCENE_COMMANDS = (
    "init",
    "session start",
    "scene start",
    "character create",
    "character create",
    "place",
    "place",
    "test",
    "assist",
    "roll",
    "strain",
    "displace",
    "adapt",
    "scene end",
)
PLACE_ALICE, TEST, ASSIST, ROLL, STRAIN, DISPLACE, ADAPT, SCENE_END = 6, 8, 9, 10, 11, 12, 13, 14


def add_bob(engine: Engine) -> str:
    """A second S1 character (player bob), named 26535."""
    return add_s1_character(engine, "bob", (2, 6, 5, 3, 5))


def play_until_rolled(engine: Engine) -> None:
    """Rulings 1-10: alice tests Legs × Invulnerable (R1C1, R2C2 in the cross), bob assists with
    R1C2, and the pool of three rolls 2, 5, 4."""
    scene_with_s1(engine)
    add_bob(engine)
    place(engine, ALICE, "R1C1", "R2C2", "R3C3")
    place(engine, BOB, "R1C2", "R2C1", "R3C3")
    engine.execute("Lab", DeclareTest(character=ALICE, form="Legs", function="Invulnerable"))
    engine.execute("Lab", AssistTest(helper=BOB, square="R1C2", justification="legs for legs"))
    engine.execute("Lab", RollTest(), dice=DiceSpec(faces=(2, 5, 4)))


def play_scene(engine: Engine) -> None:
    """The whole scene, rulings 1-14: strain d66 35 strikes R2C2 under alice's token, the token
    is displaced to R1C3, alice adapts R1C1 -> R2C1, and the scene ends."""
    play_until_rolled(engine)
    engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))
    engine.execute("Lab", DisplaceToken(character=ALICE, destination="R1C3"))
    engine.execute("Lab", Adapt(character=ALICE, source="R1C1", destination="R2C1"))
    engine.execute("Lab", EndScene())


def stream_ids(engine: Engine, campaign: str = "Lab") -> list[UUID]:
    """The directory, the campaign and every character stream of ``campaign``."""
    state = engine.campaign(campaign)
    return [DIRECTORY_ID, state.id, *(e.character_id for e in state.roster)]


def replay_from_scratch(engine: Engine, stream: UUID, *, lte: int | None = None) -> Any:
    """Fold a stream's stored events with the domain's evolve functions, skipping every version
    a retraction recorded up to ``lte`` voids: no snapshot, no engine loading code."""
    records = list(engine.store.events.get(stream, lte=lte))
    voided = {
        version
        for record in records
        if isinstance(record.event, RulingRetracted)
        for version in record.event.versions
    }
    evolve = evolver_for(engine, stream)
    state: Any = None
    for record in records:
        if record.originator_version not in voided:
            state = evolve(record.event, state)
    return state


def evolver_for(engine: Engine, stream: UUID) -> Any:
    if stream == DIRECTORY_ID:
        return evolve_directory
    if any(stream == entry.campaign_id for entry in engine.directory().campaigns):
        return evolve_campaign

    def character(event: Event, state: Any) -> Any:
        return evolve_character(event, state)

    return character
