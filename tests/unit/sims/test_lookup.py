"""What the GM types, as the Sims rules read it (lookup.py, R-PDQ-01): qualities as
NAME:AREA:RANK, a defender as NAME:QUALITY, a rank by its name."""

from __future__ import annotations

import pytest

from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import Attack, CreateCharacter, JudgeSimple
from domain.rulesets.sims.tables import Area, Rank
from engine import Engine
from tests.golden.test_sims import of, refused, run
from tests.unit.sims.conftest import creation_in


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Cutlass:Good", id="no-area-for-a-full-sheet"),
        pytest.param(":Combat:Good", id="no-name"),
        pytest.param("Cut:lass:Combat:Good", id="four-parts"),
    ],
)
def test_an_unreadable_quality_is_quoted_back(game: Engine, text: str) -> None:
    """NAME:AREA:RANK, or NAME:RANK for a secondary NPC only (Qualities)."""
    command = CreateCharacter(character="Tank", player="carol", qualities=(text,), custom=True)
    error = refused(game, command, errors.UnreadableQuality)
    assert {"text": text} == error.data


def test_a_quality_is_read_with_spaces_and_any_case(game: Engine) -> None:
    """' Cutlass : combat : good ' is the Good Combat quality Cutlass (Qualities)."""
    command = CreateCharacter(
        character="Tank", player="carol", qualities=(" Cutlass : combat : good ",), custom=True
    )
    (quality,) = creation_in(run(game, command)).qualities
    assert ev.QualitySpec(name="Cutlass", area=Area.COMBAT, rank=Rank.GOOD) == quality


def test_a_defender_named_with_an_empty_quality_defends_at_its_default(game: Engine) -> None:
    """'Boss:' names no quality: the Boss defends with no applicable quality, Average (TN 7)."""
    command = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Boss: ",))
    (attack,) = of(run(game, command, 1, 1), ev.ConflictAttackRolled)
    assert (None, 1, 7) == (
        attack.setup.defense.quality,
        attack.setup.defense.current,
        attack.setup.tn,
    )


def test_an_unknown_difficulty_is_quoted_back(game: Engine) -> None:
    """UnknownRank quotes the difficulty as typed (Ranks)."""
    command = JudgeSimple(character="Neo", quality="Cutlass", difficulty="Legendary")
    assert {"rank": "Legendary"} == refused(game, command, errors.UnknownRank).data
