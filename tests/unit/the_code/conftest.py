"""The Code's rule tests share these: Kestrel, a second hero as the Hawk's rival in contests,
the Hawk replayed from his events alone, and a campaign in session with house rules."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from domain.lifecycle import StartSession
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.commands import CreateHero
from domain.rulesets.the_code.state import evolve
from domain.rulesets.the_code.tables import Detail
from engine import Engine
from tests.golden.test_the_code import HAWK, MITCH, table


def replayed_hawk(**changes: Any) -> TcHero:
    """The Hawk as his HeroCreated alone replays (only ``exposure`` may be changed)."""
    created = tc.HeroCreated(
        character_id=uuid4(),
        code_name=HAWK,
        player="dana",
        secret_identity="Mitch",
        public_identity=False,
        physical_description="tall",
        profession="PI",
        advantages=("keen eyes",),
        weakness="bum leg",
        objective="catch criminals",
        objective_score=6,
        modus_operandi="cuffs",
        motivation=3,
        exposure=changes.pop("exposure", 0),
        popularity=3,
        reward_points=0,
        violent=False,
        secretive=False,
    )
    hero = evolve(created, None)
    assert hero is not None
    return hero


def revealed_by_blab(detail: Detail, level: int | None, exposure: int) -> tc.DetailRevealed:
    """``detail`` revealed by a blab, at ladder ``level`` (None: outside the ladder)."""
    return tc.DetailRevealed(
        detail=detail,
        level=level,
        exposure=exposure,
        cause=tc.RevealCause.BLAB,
        suggested=None,
        gm_override=False,
        value="x",
        session=1,
        source="TraitBlabbed",
    )


def lab_in_session(engine: Engine, **rules: str) -> None:
    """Campaign 'Lab' of The Code in session 1 under house ``rules``, with no hero yet."""
    engine.create_campaign("Lab", "the-code", house_rules=rules)
    engine.execute("Lab", StartSession())


KESTREL = "Kestrel"


def rivals(engine: Engine) -> None:
    """The Hawk and Kestrel, both heroes at Motivation 4 (Objective 8)."""
    table(engine, objective_score=8)
    engine.execute(
        "Lab",
        CreateHero(**{**MITCH, "code_name": KESTREL, "player": "eli", "objective_score": 8}),
    )
