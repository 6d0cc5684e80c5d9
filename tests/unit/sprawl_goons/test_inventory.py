"""Sprawl Goons inventory and cash (inventory.py, R-SG-09, R-SG-23): items added, found,
dropped, used, reloaded and ruled bulky, and cash changed."""

from __future__ import annotations

import pytest

from domain.errors import DomainError
from domain.lifecycle import EndScene
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    AddItem,
    Attack,
    ChangeCash,
    CreateCharacter,
    DropItem,
    Ignite,
    Reload,
    RuleBulkiness,
    TakeAim,
    UseItem,
)
from domain.rulesets.sprawl_goons.tables import Category, Location, Stat
from engine import Engine
from tests.golden.test_sprawl_goons import CAMPAIGN, npc, one, refused, run, sheet, smg_table, table
from tests.unit.sprawl_goons.conftest import cast, decided, dix


def test_an_item_added_and_ruled_light(engine: Engine) -> None:
    """R-SG-09: an item joins with the kind, bonus, uses and bulk the referee gives (armor reads
    as armour); ruled not bulky, it leaves the Inventory count."""
    cast(engine)
    added = run(engine, AddItem(character="Dix", item=" Mesh ", category="armor", bonus=2, uses=3))
    item = one(added, sg.ItemAcquired).item
    assert ("Mesh", Category.ARMOUR, 2, 3, True) == (
        item.name,
        item.category,
        item.bonus,
        item.uses,
        item.bulky,
    )
    ruled = run(engine, RuleBulkiness(character="Dix", item="mesh", bulky=False, reason=" light "))
    expected = sg.ItemBulkinessRuled(
        item="Mesh", bulky=False, reason="light", bulky_items=2, encumbrance=0
    )
    assert (expected,) == ruled
    assert not sheet(engine, "Dix").item("Mesh").bulky  # type: ignore[union-attr]


def test_only_implants_are_limbs_and_only_ranged_weapons_have_magazines(engine: Engine) -> None:
    """R-SG-09: an item joins as what it is: gear named 'Cyber arm brace' is no limb and has no
    magazine; an implant so named is the arm; a ranged weapon starts with a full magazine."""
    cast(engine)
    kinds = (("Cyber arm brace", "gear"), ("Cyber arm", "implant"), ("Pistol", "ranged"))
    made = []
    for name, kind in kinds:
        item = one(
            run(engine, AddItem(character="Tanner", item=name, category=kind)), sg.ItemAcquired
        )
        made.append((item.item.limb, item.item.bursts_fired, item.item.bulky))
    assert [(None, None, True), (Location.ARM, None, False), (None, 0, True)] == made


def test_an_item_held_already_is_refused_when_decided(engine: Engine) -> None:
    """R-SG-09: an item joins under a name the character does not carry yet (any case)."""
    table(engine)
    dix(engine)
    npc(engine, "Zoner", "10")
    error = decided(engine, AddItem(character="Dix", item=" kevlar JACKET ", category="gear"))
    assert "ITEM_ALREADY_HELD" == error.code


@pytest.mark.parametrize(
    ("bulky", "counts"), [(True, "already counts"), (False, "already does not count")]
)
def test_a_bulk_ruling_must_change_the_item_when_decided(
    engine: Engine, bulky: bool, counts: str
) -> None:
    """R-SG-09: the referee's ruling on an item's bulk must change it; the command refuses one
    that would not, saying how the item counts now."""
    table(engine)
    dix(engine)
    npc(engine, "Zoner", "10")
    if not bulky:
        run(engine, RuleBulkiness(character="Dix", item="kevlar", bulky=False))
    error = decided(engine, RuleBulkiness(character="Dix", item="kevlar", bulky=bulky))
    assert (
        f"BULKINESS_UNCHANGED: Kevlar jacket {counts} towards Dix's Inventory Score (Inventory)"
    ) == f"{error.code}: {error.reason}"


def test_an_item_is_found_by_its_name_or_the_one_name_holding_the_words(engine: Engine) -> None:
    """Items are named loosely: the exact name (any case) first, else the only item whose name
    holds the words; words held by several names find none."""
    cast(engine)
    run(engine, AddItem(character="Doc", item="Kit", category="gear"))
    assert (sg.ItemDropped(item="Kit"),) == run(engine, DropItem(character="Doc", item=" KIT "))
    assert (sg.ItemDropped(item="First aid kit"),) == run(
        engine, DropItem(character="Doc", item="aid")
    )
    error = refused(engine, DropItem(character="Doc", item="t"), DomainError)
    assert (
        "ITEM_NOT_OWNED: Doc has no item 't' (carries: Lazarus Patches, Toolkit, Penlight)"
        == f"{error.code}: {error.reason}"
    )


def test_dropping_and_reloading_name_the_item(engine: Engine) -> None:
    """R-SG-09: a dropped item leaves the kit; a ranged weapon reloads to a full magazine."""
    smg_table(engine)
    run(engine, Attack(character="Kat", targets=("Zoner",), stat="r", full_auto="smg"), 6, 6)
    assert (sg.WeaponReloaded(item="SMG"),) == run(engine, Reload(character="Kat", item="smg"))
    assert 0 == sheet(engine, "Kat").item("SMG").bursts_fired  # type: ignore[union-attr]
    assert (sg.ItemDropped(item="Toolkit"),) == run(engine, DropItem(character="Kat", item="tool"))
    assert None is sheet(engine, "Kat").item("Toolkit")


def test_a_drug_gives_plus_1_for_the_scene_and_wears_off(engine: Engine) -> None:
    """R-SG-23, SG-A15: a dose of Hyperdex is one use and +1 Morphology until the scene ends."""
    table(engine)
    create = CreateCharacter(
        character="Rex",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("hyperdex", "penlight", "toolkit"),
    )
    run(engine, create, 1, 1, 1)
    used = run(engine, UseItem(character="Rex", item="hyperdex"))
    boost = sg.TempModifierApplied(stat=Stat.MORPHOLOGY, value=1, source="Brazilian Hyperdex")
    assert (sg.ItemUsed(item="Brazilian Hyperdex", before=3, after=2), boost) == used
    npc(engine, "Zoner", "10")
    run(engine, TakeAim(character="Rex", target="Zoner"))
    run(engine, Ignite(character="Rex", damage=1))
    cleared = engine.execute(CAMPAIGN, EndScene()).events
    what = (
        "Brazilian Hyperdex (+1 morphology) wears off",
        "aim on Zoner lost",
        "the fire goes out",
    )
    assert sg.SceneEffectsCleared(what=what) in cleared


def test_a_used_up_consumable_has_no_uses_left(engine: Engine) -> None:
    """R-SG-23: the fifth patch of a blister of four is refused by name."""
    cast(engine)
    for _ in range(4):
        run(engine, UseItem(character="Doc", item="lazarus"))
    error = refused(engine, UseItem(character="Doc", item="lazarus"), DomainError)
    assert "NO_USES_LEFT: Lazarus Patches has no uses left" == f"{error.code}: {error.reason}"


def test_cash_may_be_spent_to_the_last_coin(engine: Engine) -> None:
    """R-SG-23: spending all one's cash is allowed (30 of 30); a reason defaults to 'unstated'."""
    cast(engine)
    spent = sg.CashChanged(delta=-30, before=30, after=0, reason="unstated")
    assert (spent,) == run(engine, ChangeCash(character="Dix", delta=-30, reason=" "))
    gained = sg.CashChanged(delta=5, before=0, after=5, reason="loot")
    assert (gained,) == run(engine, ChangeCash(character="Dix", delta=5, reason=" loot "))
