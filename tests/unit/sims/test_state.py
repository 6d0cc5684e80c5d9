"""Sims strict replay (state.py, state_recovery.py): a history that does not fit the character
is refused."""

from __future__ import annotations

import pytest

from domain.errors import ReplayMismatch
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.commands import Attack, SucceedCampaign
from domain.rulesets.sims.state import evolve
from domain.rulesets.sims.tables import Danger, Rank, RankKind
from engine import Engine
from tests.golden.test_sims import run
from tests.unit.sims.conftest import who


def test_a_stream_that_does_not_start_with_the_character_does_not_fit() -> None:
    """Replay: a character's stream starts with CharacterCreated."""
    with pytest.raises(ReplayMismatch) as raised:
        evolve(ev.DangerDeclared(danger=Danger.CONTINUING), None)
    assert "a character stream must start with CharacterCreated" == str(raised.value)


def test_ranks_owed_block_a_second_hit_on_replay(game: Engine) -> None:
    """A character with ranks to distribute takes no more until they are placed: replaying a
    second DamageRanksInflicted on it does not fit (R-PDQ-07)."""
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    hit = ev.DamageRanksInflicted(
        ranks=1, kind=RankKind.DAMAGE, source="Boss", bonus_ranks=0, killing=False
    )
    with pytest.raises(errors.AllocationPending) as raised:
        evolve(hit, who(game, "Neo"))
    assert {"name": "Neo", "ranks": 2, "kind": RankKind.DAMAGE} == raised.value.data


def test_an_upgrade_spent_without_one_does_not_fit(game: Engine) -> None:
    """Replay: a QualityUpgraded with no upgrade earned is refused, naming the character."""
    upgrade = ev.QualityUpgraded(quality="Cutlass", before=Rank.GOOD, after=Rank.EXPERT)
    with pytest.raises(errors.NoUpgradeAvailable) as raised:
        evolve(upgrade, who(game, "Neo"))
    assert {"name": "Neo"} == raised.value.data
    run(game, SucceedCampaign())
    run(game, SucceedCampaign())
    upgraded = evolve(upgrade, who(game, "Neo"))
    assert isinstance(upgraded, SimsCharacter)
    assert (1, Rank.EXPERT) == (upgraded.upgrades, upgraded.qualities[0].base)
