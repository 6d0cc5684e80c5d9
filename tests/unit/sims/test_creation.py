"""Sims sheets (creation.py, R-PDQ-01, R-PDQ-02): a player character by the creation rules
(PDQ-A2), GM sheets, secondary NPCs, and a quality replaced with the GM's approval."""

from __future__ import annotations

import pytest

from domain.commands import Command
from domain.errors import DomainError, EmptyText, NameTaken
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import CreateCharacter, ReplaceQuality
from domain.rulesets.sims.tables import Area, Rank, SheetKind
from engine import Engine
from tests.golden.test_sims import STARTING_SHEET, refused, run
from tests.golden.test_sims_rulings import table as catalogue_table
from tests.unit.sims.conftest import creation_in, who


def test_a_player_sheet_is_recorded_as_written(game: Engine) -> None:
    """CharacterCreated carries the player, the kind, the ten qualities in order, strengths and
    weaknesses trimmed (blank ones dropped), and that the creation rules were checked."""
    command = CreateCharacter(
        character=" Trinity ",
        player=" carol ",
        qualities=STARTING_SHEET,
        strengths=(" Glass Jaw? no: Iron Jaw ", " "),
        weaknesses=("Bad Credit Rating ",),
    )
    created = creation_in(run(game, command))
    assert ("Trinity", "carol", SheetKind.PC, False) == (
        created.name,
        created.player,
        created.kind,
        created.custom,
    )
    assert ("Glass Jaw? no: Iron Jaw",) == created.strengths
    assert ("Bad Credit Rating",) == created.weaknesses
    assert [q.split(":")[0] for q in STARTING_SHEET] == [q.name for q in created.qualities]
    assert (Area.COMBAT, Rank.GOOD) == (created.qualities[0].area, created.qualities[0].rank)


def test_an_npc_without_a_player_is_the_gms(engine: Engine) -> None:
    """An NPC sheet naming no player is played by the campaign's GM; it is not checked against
    the creation rules (R-PDQ-01: GM sheets)."""
    catalogue_table(engine)
    command = CreateCharacter(
        character="Oracle", player=" ", qualities=("Foresight:Mental:Master",), kind=SheetKind.NPC
    )
    created = creation_in(run(engine, command))
    assert ("Morpheus", SheetKind.NPC, True) == (created.player, created.kind, created.custom)


def test_a_secondary_npc_is_one_combat_rank(game: Engine) -> None:
    """A secondary NPC's one quality defaults to the Combat area (its Difficulty rank)."""
    command = CreateCharacter(
        character="Guard", player="GM", qualities=("Guard:Good",), kind=SheetKind.SECONDARY
    )
    (quality,) = creation_in(run(game, command)).qualities
    assert ("Guard", Area.COMBAT, Rank.GOOD) == (quality.name, quality.area, quality.rank)


@pytest.mark.parametrize(
    ("command", "what"),
    [
        pytest.param(
            CreateCharacter(character=" ", player="carol", qualities=STARTING_SHEET),
            "the character's name",
            id="name",
        ),
        pytest.param(
            CreateCharacter(character="Tank", player=" ", qualities=STARTING_SHEET),
            "the player's name",
            id="player-of-a-pc",
        ),
        pytest.param(
            ReplaceQuality(character="Neo", quality="Sailor", new_name=" ", gm_approved=True),
            "the new quality's name",
            id="new-quality",
        ),
    ],
)
def test_an_empty_text_names_what_is_missing(game: Engine, command: Command, what: str) -> None:
    """EmptyText says which text the command left empty (DIGEST 0.3)."""
    error = refused(game, command, EmptyText)
    assert f"{what} must not be empty" == error.reason


def test_a_name_is_taken_whatever_its_case(game: Engine) -> None:
    """NameTaken: 'neo' is Neo (Characters)."""
    command = CreateCharacter(character="neo", player="carol", qualities=STARTING_SHEET)
    error = refused(game, command, NameTaken)
    assert "'neo' is already a character's name in this campaign (Characters)" == error.reason


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        pytest.param(
            "Judo:Combat:Average",
            "Judo:Mental:Average",
            "a player character has exactly two Combat qualities, got 1 (Qualities)",
            id="R-PDQ-01-one-combat",
        ),
        pytest.param(
            "Judo:Combat:Average",
            "Judo:Combat:Poor",
            "a new character has two Good qualities, one Poor and the rest Average; got 2 Poor, "
            "6 Average, 2 Good (Ranks; use --custom for a GM-made sheet)",
            id="G-PDQ-35-two-poor",
        ),
        pytest.param(
            "Judo:Combat:Average",
            "Judo:Combat:Master",
            "a new character has two Good qualities, one Poor and the rest Average; got 1 Poor, "
            "6 Average, 2 Good, 1 Master (Ranks; use --custom for a GM-made sheet)",
            id="G-PDQ-35-a-master",
        ),
        pytest.param(
            "Sailor:Professional:Average",
            "Sailor:Rebirth:Average",
            "Sailor is in Rebirth; a new character's qualities are Physical, Mental, Social, "
            "Professional or Combat (Qualities)",
            id="R-PDQ-01-wrong-area",
        ),
    ],
)
def test_a_sheet_against_the_creation_rules_says_what_is_wrong(
    game: Engine, old: str, new: str, reason: str
) -> None:
    """The creation rules name what the sheet got: the Combat count, the ranks in ladder order,
    an area a new character cannot have (R-PDQ-01, PDQ-A2)."""
    sheet = tuple(new if q == old else q for q in STARTING_SHEET)
    command = CreateCharacter(character="Tank", player="carol", qualities=sheet)
    assert reason == refused(game, command, DomainError).reason


def test_replacing_a_quality_keeps_its_rank(game: Engine) -> None:
    """With the GM's approval Sailor becomes Parkour, still Average."""
    run(
        game,
        ReplaceQuality(
            character="Neo", quality="Sailor", new_name="Parkour", area="Physical", gm_approved=True
        ),
    )
    parkour = who(game, "Neo").quality("Parkour")
    assert parkour is not None
    assert Rank.AVERAGE == parkour.base


def test_replacing_a_quality_keeps_rank_and_may_move_its_area(game: Engine) -> None:
    """QualityReplaced: Sailor becomes Parkour, moved to Physical; the rank stays (R-PDQ-02)."""
    command = ReplaceQuality(
        character="Neo", quality="sailor", new_name=" Parkour ", area=" physical ", gm_approved=True
    )
    events = run(game, command)
    assert [ev.QualityReplaced(old="Sailor", new="Parkour", area=Area.PHYSICAL)] == list(events)


def test_a_quality_may_be_renamed_in_another_case(game: Engine) -> None:
    """Renaming Sailor to SAILOR is no duplicate: it is the quality replaced (R-PDQ-02)."""
    command = ReplaceQuality(character="Neo", quality="Sailor", new_name="SAILOR", gm_approved=True)
    events = run(game, command)
    assert [ev.QualityReplaced(old="Sailor", new="SAILOR", area=Area.PROFESSIONAL)] == list(events)


@pytest.mark.parametrize(
    ("command", "error", "reason"),
    [
        pytest.param(
            ReplaceQuality(character="Neo", quality="Sailor", new_name="judo", gm_approved=True),
            errors.DuplicateQualityName,
            "judo is on the sheet twice; every quality has its own name (Qualities)",
            id="duplicate",
        ),
        pytest.param(
            ReplaceQuality(
                character="Neo", quality="Sailor", new_name="X", area="Sea", gm_approved=True
            ),
            errors.UnknownArea,
            "'Sea' is not an area; choose one of: Physical, Mental, Social, Professional, "
            "Combat, Master+, Rebirth, Extraordinary (Qualities)",
            id="unknown-area",
        ),
    ],
)
def test_a_replacement_is_refused_with_its_reason(
    game: Engine, command: ReplaceQuality, error: type[DomainError], reason: str
) -> None:
    """The new name must be free and the area known (R-PDQ-02)."""
    assert reason == refused(game, command, error).reason
