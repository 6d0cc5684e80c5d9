"""The Sims rule tests share these: the table (Neo, a PC by the creation rules; the secondary
Ninja, Average; the Boss, an NPC with Good Brawler and Average Nerve, in a running scene at the
docks), the ``game`` fixture that sets it, and the blows the Boss deals Neo."""

from __future__ import annotations

import pytest

from domain.audience import GMS
from domain.events import Event
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.commands import AllocateRanks, Attack, CreateCharacter
from domain.rulesets.sims.tables import Rank, RankKind, SheetKind
from domain.rulesets.sims.values import QualityUsed
from engine import Engine
from tests.golden.test_sims import NAME, STARTING_SHEET, run


def table(engine: Engine, **rules: str) -> None:
    engine.create_campaign(NAME, "sims", house_rules=rules)
    engine.execute(NAME, StartSession())
    engine.execute(NAME, StartScene(stage="the docks"))
    engine.execute(NAME, CreateCharacter(character="Neo", player="alice", qualities=STARTING_SHEET))
    engine.execute(
        NAME,
        CreateCharacter(
            character="Ninja",
            player="GM",
            qualities=("Henchman:Average",),
            kind=SheetKind.SECONDARY,
        ),
    )
    engine.execute(
        NAME,
        CreateCharacter(
            character="Boss",
            player="GM",
            qualities=("Brawler:Combat:Good", "Nerve:Mental:Average"),
            kind=SheetKind.NPC,
        ),
    )


def who(engine: Engine, name: str) -> SimsCharacter:
    state: SimsCharacter = engine.character(NAME, name, audience=GMS)
    return state


def hit_neo(engine: Engine, faces: tuple[int, int]) -> None:
    """The Boss's Good Brawler (+2) against Neo's Good Cutlass (TN 9)."""
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), *faces)


@pytest.fixture
def game(engine: Engine) -> Engine:
    """Neo (a PC by the creation rules), the secondary Ninja (Average) and the Boss (an NPC:
    Good Brawler, Average Nerve), in a running scene."""
    table(engine)
    return engine


def knock_neo_out(engine: Engine) -> None:
    """The Boss's Good Brawler beats Neo's Good Cutlass by 2; Neo puts a rank on his Poor
    Charisma, goes out of the scene, and the other rank is discarded (R-PDQ-07, R-PDQ-08)."""
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    run(engine, AllocateRanks(character="Neo", steps=("Charisma",)))
    assert who(engine, "Neo").out


def creation_in(events: tuple[Event, ...]) -> ev.CharacterCreated:
    (created,) = [e for e in events if isinstance(e, ev.CharacterCreated)]
    return created


def quality_used(
    engine: Engine, name: str, quality: str | None, base: Rank, current: int
) -> QualityUsed:
    return QualityUsed(
        character_id=who(engine, name).id,
        character=name,
        quality=quality,
        base=base,
        current=current,
        modifier=2 * current - 2,
    )


def hit_neo_once(engine: Engine, kind: RankKind, quality: str) -> None:
    """The Boss's Good Brawler: 10 against Neo's Good Cutlass (9), one rank of ``kind``."""
    attack = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), kind=kind)
    run(engine, attack, 4, 4)
    run(engine, AllocateRanks(character="Neo", steps=(quality,)))
