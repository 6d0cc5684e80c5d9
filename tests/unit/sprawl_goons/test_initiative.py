"""Sprawl Goons initiative (initiative.py, R-SG-05, SG-A9, SG-A10): a d6 + Reaction + speedware,
encumbrance, and ties rolled off from the top down."""

from __future__ import annotations

import pytest

from domain.dice import EnteredDice
from domain.events import Event
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.commands import AddItem, CreateCharacter, RollInitiative
from domain.rulesets.sprawl_goons.state import evolve
from domain.rulesets.sprawl_goons.tables import Stat
from engine import Engine
from tests.golden.test_sprawl_goons import CAMPAIGN, npc, one, only, run, sheet, table, tanner
from tests.unit.sprawl_goons.conftest import StateView


def gang(engine: Engine, *names: str) -> None:
    table(engine)
    for name in names:
        npc(engine, name, "10")


def places(events: tuple[Event, ...], names: tuple[str, ...]) -> dict[str, tuple[object, ...]]:
    rolled = only(events, sg.InitiativeRolled)
    return {n: (r.total, r.place, r.roll_off) for n, r in zip(names, rolled, strict=True)}


def test_a_roll_off_settles_the_higher_faces_first(engine: Engine) -> None:
    """SG-A10: four NPCs tied on 3 roll off; the two on 5 are still level and roll again
    before the two on 2 do (the order is settled from the top down)."""
    names = ("Ash", "Bo", "Cy", "Di")
    gang(engine, *names)
    events = run(engine, RollInitiative(combatants=names), 3, 3, 3, 3, 5, 5, 2, 2, 3, 1, 6, 4)
    expected = {
        "Ash": (3, 1, (5, 3)),
        "Bo": (3, 2, (5, 1)),
        "Cy": (3, 3, (2, 6)),
        "Di": (3, 4, (2, 4)),
    }
    assert expected == places(events, names)


def test_a_tie_rolled_again_keeps_the_next_tie_waiting(engine: Engine) -> None:
    """SG-A10: two separate ties: the upper one rolls level and rolls again, and the lower
    one still rolls off after it."""
    names = ("Ash", "Bo", "Cy", "Di")
    gang(engine, *names)
    roll = RollInitiative(combatants=names, modifiers=("Ash=+1", "Bo=+2", "ash=+1"))
    events = run(engine, roll, 3, 3, 3, 3, 4, 4, 6, 1, 2, 5)
    expected = {
        "Ash": (5, 1, (4, 6)),
        "Bo": (5, 2, (4, 1)),
        "Cy": (3, 4, (2,)),
        "Di": (3, 3, (5,)),
    }
    assert expected == places(events, names)
    assert [2, 2, 0, 0] == [r.modifier for r in only(events, sg.InitiativeRolled)]


def test_speedware_named_with_a_colon_in_its_name(engine: Engine) -> None:
    """R-SG-05: ``WHO:ITEM`` splits at the first colon, so an item's own colon stays in it;
    each augment or drug adds 1 (G-SG-11)."""
    table(engine)
    create = CreateCharacter(
        character="Rex",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("implant:Reflex booster: Mk II", "penlight", "toolkit"),
    )
    run(engine, create, 1, 1, 1)
    rolled = one(
        run(engine, RollInitiative(combatants=("Rex",), items=("Rex:Reflex booster: Mk II",)), 4),
        sg.InitiativeRolled,
    )
    assert ((sg.ItemBonus(item="Reflex booster: Mk II", bonus=1),), 6) == (
        rolled.items,
        rolled.total,
    )


def test_a_boost_to_reaction_counts_in_initiative(engine: Engine) -> None:
    """R-SG-05: initiative adds Reaction as it stands, a temporary boost included (a drug's +1
    Reaction, SG-A15); a Morphology boost does not count."""
    table(engine)
    tanner(engine)
    boosted: SgCharacter | None = sheet(engine, "Tanner")
    for stat in (Stat.REACTION, Stat.MORPHOLOGY):
        boosted = evolve(sg.TempModifierApplied(stat=stat, value=1, source="Adrenal"), boosted)
    assert boosted is not None
    view = StateView(campaign=engine.campaign(CAMPAIGN), characters={boosted.id: boosted})
    changes = RollInitiative(combatants=("Tanner",)).decide(view, EnteredDice((4,)))
    rolled = changes[0].event
    assert isinstance(rolled, sg.InitiativeRolled)
    assert (4, 2, 6) == (rolled.die, rolled.reaction, rolled.total)


@pytest.mark.parametrize(
    ("on", "burden", "total"), [("true", 1, 4), ("false", 0, 5)], ids=["SG-A9-on", "SG-A9-off"]
)
def test_encumbrance_slows_initiative_by_house_rule(
    engine: Engine, on: str, burden: int, total: int
) -> None:
    """SG-A9: an item beyond the Inventory Score costs 1 on initiative, a Reaction roll,
    unless encumbranceOnInitiative is off."""
    table(engine, encumbranceOnInitiative=on)
    tanner(engine)
    for n in range(8):
        run(engine, AddItem(character="Tanner", item=f"Brick {n}", category="gear"))
    assert 1 == sheet(engine, "Tanner").encumbrance
    rolled = one(run(engine, RollInitiative(combatants=("Tanner",)), 4), sg.InitiativeRolled)
    assert (4, 1, burden, total) == (rolled.die, rolled.reaction, rolled.encumbrance, rolled.total)
