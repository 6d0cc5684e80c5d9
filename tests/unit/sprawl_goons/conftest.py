"""The Sprawl Goons rule tests share these: the crew (Dix the hacker, Doc the medic, Tanner) and
the cast around them (the Zoner, the Vault, and the dead: Cass and Stiff), a view of the
engine's state to decide a command on, and Tanner alone on a rooftop."""

from __future__ import annotations

from uuid import UUID, uuid4

import pytest
from attrs import define

from domain.campaign import CampaignState
from domain.commands import Command
from domain.dice import EnteredDice
from domain.errors import DomainError
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.commands import AddItem, CreateCharacter, EndRound, Fall
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.golden.test_sprawl_goons import CAMPAIGN, npc, run, sheet, table, tanner


def tanner_on_a_rooftop(engine: Engine, **rules: str) -> None:
    """Campaign 'S' in a running scene on a rooftop, with Tanner (Morphology 2, Reaction 1,
    Cognition 1) and his three starting items."""
    engine.create_campaign("S", "sprawl-goons", house_rules=rules)
    engine.execute("S", StartSession())
    engine.execute("S", StartScene(stage="A rooftop"))
    tanner = CreateCharacter(
        character="Tanner",
        player="ana",
        morphology=2,
        reaction=1,
        cognition=1,
        equilibrium=0,
        items=("penlight", "toolkit", "drone"),
    )
    engine.execute("S", tanner, dice=DiceSpec(faces=(1, 1, 1)))


CONSOLE = "Ono-Sendai Cyberspace Console and 'trodes"


def dix(engine: Engine) -> None:
    """Dix: Cognition 2, a console, a cybernetic arm and a kevlar jacket."""
    create = CreateCharacter(
        character="Dix",
        player="hal",
        morphology=0,
        reaction=1,
        cognition=2,
        equilibrium=1,
        items=("console", "implant:Cybernetic arm", "armour:Kevlar jacket"),
    )
    run(engine, create, 1, 1, 1)


def hurt(engine: Engine) -> None:
    """Dix falls 40 m: injury 1 to the arm; then 3 m more: injury 2 to the leg."""
    run(engine, Fall(character="Dix", metres=40), 2, 5)
    run(engine, Fall(character="Dix", metres=3), 3, 1)


def doc(engine: Engine) -> None:
    """Doc: Cognition 2, four Lazarus Patches, a toolkit, a penlight and a first aid kit."""
    create = CreateCharacter(
        character="Doc",
        player="fay",
        morphology=0,
        reaction=1,
        cognition=2,
        equilibrium=1,
        items=("lazarus", "toolkit", "penlight"),
    )
    run(engine, create, 1, 1, 1, 4)
    run(engine, AddItem(character="Doc", item="First aid kit", category="gear"))


def corpses(engine: Engine) -> None:
    """Cass, a PC dead of a 7+ injury (Character Death), and Stiff, an NPC fallen to DS 0."""
    create = CreateCharacter(
        character="Cass",
        player="gil",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("penlight", "toolkit", "drone"),
    )
    run(engine, create, 1, 1, 1)
    run(engine, Fall(character="Cass", metres=40), 2, 5)
    run(engine, Fall(character="Cass", metres=3), 6, 1)
    run(engine, EndRound())
    run(engine, EndRound())
    npc(engine, "Stiff", "5")
    run(engine, Fall(character="Stiff", metres=30))
    assert (True, True) == (sheet(engine, "Cass").dead, sheet(engine, "Stiff").dead)


def cast(engine: Engine) -> None:
    """Dix and Doc (PCs), Tanner at 10/12, the Zoner (NPC, DS 10), the Vault (a system), and
    the dead: Cass (a PC) and Stiff (an NPC)."""
    table(engine)
    dix(engine)
    doc(engine)
    tanner(engine)
    run(engine, Fall(character="Tanner", metres=6))
    npc(engine, "Zoner", "10")
    npc(engine, "Vault", "9", system=True)
    corpses(engine)


@define
class StateView:
    """The engine's campaign and characters, one of them changed by hand."""

    campaign: CampaignState
    characters: dict[UUID, SgCharacter]

    def character(self, character_id: UUID) -> SgCharacter:
        return self.characters[character_id]

    def new_id(self) -> UUID:
        return uuid4()


def decided(engine: Engine, command: Command) -> DomainError:
    """The refusal ``command`` decides on, from the engine's state (before any replay)."""
    view = StateView(
        campaign=engine.campaign(CAMPAIGN),
        characters={c.id: c for c in (sheet(engine, n) for n in ("Dix", "Zoner"))},
    )
    with pytest.raises(DomainError) as raised:
        command.decide(view, EnteredDice(()))
    return raised.value
