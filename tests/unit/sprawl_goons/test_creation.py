"""Sprawl Goons character creation (creation.py, R-SG-01): stats totalling 4, three starting
items (list picks or CATEGORY:NAME), and the cash and uses rolled."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import CreateCharacter
from domain.rulesets.sprawl_goons.tables import Category
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count
from tests.golden.test_sprawl_goons import one, only, refused, run, sheet, table

stat_lists = st.tuples(*[st.integers(-2, 5)] * 4)


@settings(max_examples=40, deadline=None)
@given(stats=stat_lists, picks=st.integers(0, 5))
def test_every_bad_creation_is_refused_and_appends_nothing(
    stats: tuple[int, int, int, int], picks: int
) -> None:
    """Stats must be >= 0 and total 4, with exactly three items; anything else appends nothing."""
    with Engine() as engine:
        engine.create_campaign("S", "sprawl-goons")
        items = ("penlight", "toolkit", "drone", "handcuffs", "mirrorshades")[:picks]
        m, r, c, e = stats
        command = CreateCharacter(
            character="Case",
            player="cy",
            morphology=m,
            reaction=r,
            cognition=c,
            equilibrium=e,
            items=items,
        )
        valid = min(stats) >= 0 and sum(stats) == 4 and picks == 3
        before = event_count(engine)
        if valid:
            engine.execute("S", command, dice=DiceSpec(faces=(1, 1, 1)))
            assert before < event_count(engine)
        else:
            with pytest.raises(DomainError):
                engine.execute("S", command, dice=DiceSpec(faces=(1, 1, 1)))
            assert before == event_count(engine)


def test_creation_rolls_cash_and_names_a_fake_id(engine: Engine) -> None:
    """R-SG-01: 3d6 x 10 cash; a Fake ID is named for whom it claims; a credit card rolls 2d6
    uses; with no player named, the character plays itself."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="  ",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("fake id: Ana Ruiz ", "credit card", "toolkit"),
    )
    events = run(engine, create, 1, 2, 3, 6, 5)
    created = one(events, sg.CharacterCreated)
    assert ("Eve", 12, 10, 1) == (
        created.player,
        created.resilience,
        created.inventory,
        created.level,
    )
    assert sg.StartingCashRolled(dice=(1, 2, 3), cash=60) == one(events, sg.StartingCashRolled)
    items = [(e.item.name, e.item.uses, e.uses_dice) for e in only(events, sg.ItemAcquired)]
    assert [
        ("Fake ID (Ana Ruiz)", None, ()),
        ("Stolen Credit Card", 11, (6, 5)),
        ("Toolkit", None, ()),
    ] == items


def test_a_starting_pick_is_read_without_its_punctuation(engine: Engine) -> None:
    """R-SG-01: a pick names a list entry by key or name, whatever the punctuation around it."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("[credit card]", "(Penlight)", "toolkit"),
    )
    events = run(engine, create, 1, 1, 1, 3, 4)
    names = [e.item.name for e in only(events, sg.ItemAcquired)]
    assert ["Stolen Credit Card", "Penlight", "Toolkit"] == names


def test_a_starting_armor_pick_reads_as_armour(engine: Engine) -> None:
    """R-SG-01: 'armor' is read as the list's 'armour' (ARMOUR:NAME to specify)."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("Armor: Kevlar vest", "penlight", "toolkit"),
    )
    events = run(engine, create, 1, 1, 1)
    item = only(events, sg.ItemAcquired)[0].item
    assert ("Kevlar vest", Category.ARMOUR) == (item.name, item.category)


def test_a_custom_item_keeps_a_colon_in_its_name(engine: Engine) -> None:
    """R-SG-01: CATEGORY:NAME splits at the first colon; the rest is the item's name."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("penlight", "toolkit"),
        custom=("gear:Data chip: Maas-Neotek",),
    )
    run(engine, create, 1, 1, 1)
    assert "Data chip: Maas-Neotek" == sheet(engine, "Eve").items[-1].name


def test_four_starting_items_are_counted_with_the_custom_ones(engine: Engine) -> None:
    """R-SG-01 (G-SG-10): three starting items, list picks and custom ones together."""
    table(engine)
    create = CreateCharacter(
        character="Eve",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("penlight", "toolkit"),
        custom=("gear:Rope", "gear:Tape"),
    )
    error = refused(engine, create, DomainError, 1, 1, 1)
    assert (
        "STARTING_ITEM_COUNT_MUST_BE_THREE: choose 3 starting items, got 4 (Starting Items)"
        == f"{error.code}: {error.reason}"
    )
