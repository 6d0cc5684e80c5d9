"""The actions offered agree with the rules (Hypothesis, Code Green): along random plays of
the offered actions, a verb the state hides is refused by its ``decide`` whatever the
character, and a state-only verb offered (a test with no applicable pair, a roll, an adaptation,
a displacement, a recovery) is decided without refusal."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.errors import DomainError
from domain.rulesets.code_green import commands as cg
from engine import DiceSpec, Engine
from engine.application.actions import KnownView
from tests.web.scenes import GM, SCENES, seat

SCENE = SCENES[0]  # Code Green, tokens placed on the diagonal


class Fours:
    """A die that always shows 4 (or its top face)."""

    def roll(self, sides: int) -> int:
        return min(4, sides)


def _square(c: Any) -> str:
    return str(sorted(c.tokens)[0]) if c.tokens else "R1C1"


def _free(c: Any) -> str:
    free = c.free_squares()
    return str(free[0]) if free else "R1C1"


def _adapt(c: Any) -> Any:
    moves = c.legal_moves()
    if not moves:
        return cg.Adapt(character=c.name)
    return cg.Adapt(character=c.name, source=str(moves[0][0]), destination=str(moves[0][1]))


# verb -> the command for a character's state, with parameters that fit it
CANONICAL: dict[str, Callable[[Any], Any]] = {
    "test": lambda c: cg.DeclareTest(character=c.name, form=None, function=None),
    "roll": lambda c: cg.RollTest(character=c.name),
    "adapt": _adapt,
    "displace": lambda c: cg.DisplaceToken(character=c.name, destination=_free(c)),
    "recover": lambda c: cg.Recover(character=c.name),
    "strain": lambda c: cg.SufferStrain(character=c.name, destination=_free(c)),
    "assist": lambda c: cg.AssistTest(helper=c.name, square=_square(c), justification="x"),
    "place": lambda c: cg.PlaceTokens(character=c.name, squares=("R1C1", "R2C2", "R3C3")),
}
EXACT = frozenset({"test", "roll", "adapt", "displace", "recover"})  # their refusals: state only


def _decided(engine: Engine, command: Any) -> bool:
    campaign = engine.campaign(SCENE.campaign)
    try:
        command.decide(KnownView(engine, campaign, GM), Fours())
    except DomainError:
        return False
    return True


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 1), st.integers(1, 6)), max_size=8))
def test_what_is_offered_is_what_the_rules_allow(plays: list[tuple[int, int, int]]) -> None:
    """After each offered action played, for each character: every verb hidden is refused by
    the rules, and every state-only verb offered is decided."""
    engine = Engine()
    seat(engine, SCENE)
    for pick, who, face in plays:
        roster = engine.campaign(SCENE.campaign).roster
        for entry in roster:
            c = engine.character(SCENE.campaign, entry.name, audience=GMS)
            shown = {
                a.verb for a in engine.actions(SCENE.campaign, reader=GM, character=c.name).actions
            }
            for verb, make in CANONICAL.items():
                decided = _decided(engine, make(c))
                if verb not in shown:
                    assert not decided, (verb, c.name)
                elif verb in EXACT:
                    assert decided, (verb, c.name)
        entry = roster[who]
        c = engine.character(SCENE.campaign, entry.name, audience=GMS)
        offered = [
            a.verb
            for a in engine.actions(SCENE.campaign, reader=GM, character=entry.name).actions
            if a.verb in CANONICAL
        ]
        if offered:
            command = CANONICAL[offered[pick % len(offered)]](c)
            with suppress(DomainError):  # offered, but refused by a parameter (strain's limit)
                engine.execute(SCENE.campaign, command, dice=DiceSpec(seed=face))
