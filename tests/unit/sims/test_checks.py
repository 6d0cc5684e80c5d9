"""The checks every Sims command makes first (checks.py): nobody out of the scene acts or is hit
(R-PDQ-06, R-PDQ-08), the dead do nothing (Out for Blood), and what is owed comes first."""

from __future__ import annotations

import pytest

from domain.commands import Command
from domain.errors import CharacterDead
from domain.lifecycle import EndScene, StartScene
from domain.rulesets.sims import errors
from domain.rulesets.sims.commands import (
    AllocateRanks,
    Attack,
    AuthorizeRecovery,
    JudgeSimple,
    Kill,
    PlaceRecovery,
    Reroll,
    RollComplicated,
    RollRecovery,
    SucceedCampaign,
    UpgradeQuality,
)
from domain.rulesets.sims.tables import RankKind
from engine import Engine
from tests.golden.test_sims import NAME, refused, run
from tests.unit.sims.conftest import hit_neo, hit_neo_once, knock_neo_out, table


def test_acting_while_out_of_the_scene_is_refused(game: Engine) -> None:
    """An out-of-the-scene character cannot roll, attack or be attacked."""
    hit_neo(game, (5, 4))
    run(game, AllocateRanks(character="Neo", steps=("Charisma",)))
    refused(
        game,
        RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Poor"),
        errors.ActorOutOfScene,
        3,
        3,
    )
    refused(
        game,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)),
        errors.ActorOutOfScene,
        3,
        3,
    )
    refused(
        game,
        Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo",)),
        errors.TargetOutOfScene,
        3,
        3,
    )


def test_an_out_of_scene_defender_is_refused_even_on_a_miss(game: Engine) -> None:
    """TargetOutOfScene comes before the dice: snake eyes, which would miss, is refused too, and
    nothing is recorded (R-PDQ-06 errors; use Out for Blood instead, R-PDQ-09)."""
    knock_neo_out(game)
    command = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo",))
    error = refused(game, command, errors.TargetOutOfScene, 1, 1)
    assert {"name": "Neo"} == error.data


def test_an_out_of_scene_character_cannot_roll_even_an_easy_task(game: Engine) -> None:
    """ActorOutOfScene before any dice, whatever they would show (R-PDQ-08)."""
    knock_neo_out(game)
    refused(
        game,
        RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Poor"),
        errors.ActorOutOfScene,
        6,
        6,
    )


@pytest.fixture
def graveyard(engine: Engine) -> Engine:
    """lethality=choose-at-start; the Ninja is killed by Neo's killing blow, Neo is hurt (one
    Damage Rank on Hiding) and may roll for recovery."""
    table(engine, lethality="choose-at-start")
    run(
        engine,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
        4,
        4,
    )
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 4, 4)
    run(engine, AllocateRanks(character="Neo", steps=("Hiding",)))
    run(engine, AuthorizeRecovery(character="Neo"))
    return engine


@pytest.mark.parametrize(
    ("command", "what"),
    [
        pytest.param(
            RollComplicated(character="Ninja", qualities=(), difficulty="Poor"), "act", id="act"
        ),
        pytest.param(
            Attack(attacker="Boss", qualities=("Brawler",), targets=("Ninja",)),
            "take ranks",
            id="take-ranks",
        ),
        pytest.param(
            RollComplicated(
                character="Neo", qualities=("Cutlass",), difficulty="Poor", helpers=("Ninja",)
            ),
            "join forces",
            id="join-forces",
        ),
        pytest.param(Reroll(attacker="Ninja"), "roll again", id="roll-again"),
        pytest.param(
            AllocateRanks(character="Ninja", steps=("Henchman",)),
            "distribute ranks",
            id="distribute",
        ),
        pytest.param(RollRecovery(character="Ninja"), "recover", id="roll-recovery"),
        pytest.param(AuthorizeRecovery(character="Ninja"), "recover", id="authorize"),
        pytest.param(PlaceRecovery(character="Ninja", steps=()), "recover", id="place"),
        pytest.param(Kill(attacker="Neo", victim="Ninja"), "be killed again", id="kill-again"),
    ],
)
def test_the_dead_are_refused_saying_what_they_cannot_do(
    graveyard: Engine, command: Command, what: str
) -> None:
    """CHARACTER_DEAD names what the dead character was asked to do (Out for Blood)."""
    error = refused(graveyard, command, CharacterDead, 3, 3)
    assert f"Ninja is dead and cannot {what} (Out for Blood)" == error.reason


def test_a_dead_player_character_cannot_improve(graveyard: Engine) -> None:
    """Upgrades are for the living (Characters Improvement, Out for Blood)."""
    run(graveyard, SucceedCampaign())
    graveyard.execute(NAME, EndScene())
    graveyard.execute(NAME, StartScene(stage="the alley"))
    attack = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), killing=True)
    run(graveyard, attack, 6, 6)
    run(graveyard, AllocateRanks(character="Neo", steps=("Charisma",)))
    error = refused(graveyard, UpgradeQuality(character="Neo", quality="Cutlass"), CharacterDead)
    assert "Neo is dead and cannot improve (Out for Blood)" == error.reason


def test_recovered_ranks_are_placed_before_acting(game: Engine) -> None:
    """RecoveryChoicePending: Neo rolled his recovery and must place the rank before he acts
    (R-PDQ-13)."""
    hit_neo_once(game, RankKind.DAMAGE, "Hiding")
    run(game, AuthorizeRecovery(character="Neo"))
    run(game, RollRecovery(character="Neo"), 3)
    command = JudgeSimple(character="Neo", quality="Cutlass", difficulty="Poor")
    error = refused(game, command, errors.RecoveryChoicePending)
    assert {"name": "Neo", "count": 1} == error.data
