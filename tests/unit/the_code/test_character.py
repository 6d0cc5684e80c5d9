"""The hero's own questions (character.py, DIGEST 4.1): what the public does not know yet, each
detail as it stands, and the hero through the converter."""

from __future__ import annotations

from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.commands import FollowMo
from domain.rulesets.the_code.tables import LADDER
from engine import Engine
from engine.store.mapper import converter
from tests.golden.test_the_code import HAWK, MITCH, run, sheet, spend_motivation, table


def test_the_unrevealed_details_follow_the_ladder(engine: Engine) -> None:
    """What the public does not know yet, in ladder order (DIGEST 4.1)."""
    table(engine, exposure=3)
    assert LADDER[2:] == sheet(engine).unrevealed()


def test_each_detail_is_revealed_as_it_stands(engine: Engine) -> None:
    """What the public learns of each detail: the Objective with its score, Motivation as
    current/maximum, every Advantage (DIGEST 4.1)."""
    table(engine, advantages=("keen eyes", "contacts"))
    spend_motivation(engine, 1)
    hawk = sheet(engine)
    assert [
        MITCH["physical_description"],
        HAWK,
        MITCH["modus_operandi"],
        "catch criminals (6)",
        "keen eyes, contacts",
        "bum leg",
        MITCH["profession"],
        "2/3",
        "Mitch",
    ] == [hawk.value_of(d) for d in LADDER]


def test_a_hero_round_trips_through_the_mapper(engine: Engine) -> None:
    """A hero with reveals and session flags survives unstructure/structure (snapshots)."""
    table(engine, exposure=3, public_identity=True)
    run(engine, FollowMo(hero=HAWK))
    hero = sheet(engine)
    assert hero == converter.structure(converter.unstructure(hero), TcHero)
