"""The Sprawl Goons Action Roll (action_roll.py, R-SG-02, R-SG-03): 2d6 + stat against the DS,
with the relevant items carried and usable, situational bonuses and temporary boosts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    Attack,
    CreateCharacter,
    DisableCyberLimb,
    DropItem,
    MakeActionRoll,
    SlagArmour,
    UseItem,
)
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count
from tests.golden.test_sprawl_goons import one, refused, run, table
from tests.unit.sprawl_goons.conftest import CONSOLE, cast, dix, hurt, tanner_on_a_rooftop


@settings(max_examples=40, deadline=None)
@given(ds=st.integers(-5, 30), faces=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_a_roll_is_refused_below_ds_1_and_otherwise_adds_up(
    ds: int, faces: tuple[int, int]
) -> None:
    """A DS below 1 is refused with nothing appended; otherwise total = dice + stat."""
    with Engine() as engine:
        tanner_on_a_rooftop(engine)
        before = event_count(engine)
        roll = MakeActionRoll(character="Tanner", stat="morphology", ds=str(ds))
        if ds < 1:
            with pytest.raises(errors.InvalidDs):
                engine.execute("S", roll, dice=DiceSpec(faces=faces))
            assert before == event_count(engine)
            return
        (rolled,) = engine.execute("S", roll, dice=DiceSpec(faces=faces)).events
        assert isinstance(rolled, sg.ActionRolled)
        assert (sum(faces) + 2, sum(faces) + 2 >= ds) == (rolled.total, rolled.success)


def test_modifiers_read_a_source_and_a_signed_number(engine: Engine) -> None:
    """R-SG-02: situational bonuses are SOURCE=+N or SOURCE=-N, spaces allowed around both."""
    cast(engine)
    roll = MakeActionRoll(
        character="Dix", stat="cog", ds="hard", bonuses=(" good luck = -2 ", "intel=+3", "x=1")
    )
    rolled = one(run(engine, roll, 3, 4), sg.ActionRolled)
    expected = (
        sg.Modifier(source="good luck", value=-2),
        sg.Modifier(source="intel", value=3),
        sg.Modifier(source="x", value=1),
    )
    assert (expected, 11, 14) == (rolled.modifiers, rolled.total, rolled.ds)


def test_a_dangerous_roll_is_recorded_as_dangerous(engine: Engine) -> None:
    """R-SG-03: a dangerous roll (and every attack) is recorded so; a plain roll is not."""
    cast(engine)
    plain = one(
        run(engine, MakeActionRoll(character="Dix", stat="cog", ds="8"), 3, 4), sg.ActionRolled
    )
    risky = MakeActionRoll(character="Dix", stat="cog", ds="8", dangerous=True)
    dangerous = one(run(engine, risky, 3, 4), sg.ActionRolled)
    attack = Attack(character="Dix", targets=("Zoner",), stat="cog")
    attacked = one(run(engine, attack, 3, 4), sg.ActionRolled)
    assert (False, True, True) == (plain.dangerous, dangerous.dangerous, attacked.dangerous)


def test_a_drug_boost_is_named_in_the_roll(engine: Engine) -> None:
    """R-SG-23, SG-A15: Hyperdex's +1 Morphology shows in a Morphology roll under its name."""
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
    run(engine, UseItem(character="Rex", item="hyperdex"))
    rolled = one(
        run(engine, MakeActionRoll(character="Rex", stat="m", ds="8"), 3, 4), sg.ActionRolled
    )
    assert ((sg.Modifier(source="Brazilian Hyperdex", value=1),), 9) == (
        rolled.modifiers,
        rolled.total,
    )


def test_a_character_carrying_nothing_is_told_so(engine: Engine) -> None:
    """R-SG-02: a relevant item must be carried; with nothing left, the refusal says so."""
    table(engine)
    dix(engine)
    for item in ("console", "arm", "kevlar"):
        run(engine, DropItem(character="Dix", item=item))
    roll = MakeActionRoll(character="Dix", stat="cog", ds="8", items=("deck",))
    error = refused(engine, roll, DomainError, 3, 4)
    assert "ITEM_NOT_OWNED: Dix has no item 'deck' (carries: nothing)" == (
        f"{error.code}: {error.reason}"
    )


def test_slagged_armour_and_a_shut_down_limb_add_nothing(engine: Engine) -> None:
    """Special Rules: slagged armour is useless, a shut-down cyber limb is broken: naming
    either as a relevant item is refused with the reason."""
    table(engine)
    dix(engine)
    hurt(engine)
    run(engine, DisableCyberLimb(character="Dix", limb="arm", injury=1))
    run(engine, SlagArmour(character="Dix", armour="kevlar", injury=2))
    cases = [
        ("kevlar", "ITEM_UNUSABLE: Kevlar jacket is slagged and cannot be used (Special Rules)"),
        (
            "arm",
            "ITEM_UNUSABLE: Cybernetic arm is broken (shut down) and cannot be used "
            "(Special Rules)",
        ),
    ]
    for item, message in cases:
        roll = MakeActionRoll(character="Dix", stat="cognition", ds="8", items=(item,))
        error = refused(engine, roll, DomainError, 3, 4)
        assert message == f"{error.code}: {error.reason}"


def test_against_a_monofilament_attacker_armour_adds_nothing(engine: Engine) -> None:
    """R-SG-19, G-SG-29: facing monofilament, the PC's armour bonus is negated (noted, 0)."""
    table(engine)
    dix(engine)
    roll = MakeActionRoll(
        character="Dix", stat="cognition", ds="8", items=("kevlar", "console"), vs_mono=True
    )
    rolled = one(run(engine, roll, 3, 4), sg.ActionRolled)
    expected = (
        sg.ItemBonus(item="Kevlar jacket", bonus=0, note="negated by monofilament"),
        sg.ItemBonus(item=CONSOLE, bonus=1),
    )
    assert (expected, 10) == (rolled.items, rolled.total)
