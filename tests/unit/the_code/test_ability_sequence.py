"""The Ability Sequence ruled for a task (ability_sequence.py, DIGEST 4.1, R-TC-02, TC-A22)."""

from __future__ import annotations

import pytest

from domain.rulesets.the_code import errors
from domain.rulesets.the_code.commands import CreateNpc, RuleAbilityStep
from engine import Engine
from tests.conftest import refused
from tests.golden.test_the_code import run, table


@pytest.mark.parametrize(
    ("trait", "calls"),
    [
        pytest.param("Profession", {"profession": True}, id="4.1-no-profession"),
        pytest.param("Advantage", {"advantage": True}, id="4.1-no-advantage"),
        pytest.param("Weakness", {"weakness": True}, id="TC-A22-no-weakness"),
    ],
)
def test_a_trait_the_npc_lacks_is_named_in_the_refusal(
    engine: Engine, trait: str, calls: dict[str, bool]
) -> None:
    """TraitMissing names the character, the trait it lacks and the task (DIGEST 4.1)."""
    table(engine)
    run(engine, CreateNpc(character="a nobody"))
    command = RuleAbilityStep(character="a nobody", task="pick the lock", **calls)
    error = refused(engine, command, errors.TraitMissing)
    assert {"name": "a nobody", "trait": trait, "task": "pick the lock"} == error.data
