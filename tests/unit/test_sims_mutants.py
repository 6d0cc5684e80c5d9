"""Sims RPG rules at the edges mutation testing found unguarded (issue 18): refusals whose dice
would have missed anyway, strategies met at the wrong moment, and the arithmetic of each
outcome. Each test states what the GM sees (events, refusals with their data, the sheet)."""

from __future__ import annotations

import attrs
import pytest

from domain.commands import Command
from domain.errors import (
    CharacterDead,
    DomainError,
    EmptyText,
    InvalidDieFace,
    NameTaken,
    NotAMember,
    NotAPlayerCharacter,
    ReplayMismatch,
    UnknownMember,
)
from domain.events import Event
from domain.lifecycle import EndScene, StartScene
from domain.rulesets.sims import errors, tables
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.commands import (
    AllocateRanks,
    AnnounceMission,
    Attack,
    AuthorizeRecovery,
    CompleteAdventure,
    CreateCharacter,
    DeclareDanger,
    DeclareStrategy,
    EndTurn,
    JudgeSimple,
    Kill,
    PlaceRecovery,
    ReplaceQuality,
    Reroll,
    RollComplicated,
    RollRecovery,
    SendPrivateMessage,
    SetTurnOrder,
    SucceedCampaign,
    SucceedMission,
    TakeMasterPlus,
    TakeRebirth,
    UpgradeQuality,
)
from domain.rulesets.sims.state import evolve
from domain.rulesets.sims.tables import (
    Area,
    Danger,
    DiceMode,
    Outcome,
    Rank,
    RankKind,
    SheetKind,
    ShiftSource,
    Strategy,
    TieBreak,
)
from domain.rulesets.sims.values import (
    AttackSetup,
    QualityUsed,
    RankRestored,
    Roll,
    Shift,
    TurnSlot,
)
from engine import Engine
from engine.dice_sources import DiceSpec
from tests.conftest import event_count
from tests.golden.test_catalogue_sims import REFUSALS, Refusal
from tests.golden.test_sims import NAME, STARTING_SHEET, of, refused
from tests.golden.test_sims_rulings import refused_as, run_as
from tests.golden.test_sims_rulings import table as catalogue_table
from tests.unit.test_sims_rules import run, table, who


@pytest.fixture
def game(engine: Engine) -> Engine:
    """Neo (a PC by the creation rules), the secondary Ninja (Average) and the Boss (an NPC:
    Good Brawler, Average Nerve), in a running scene."""
    table(engine)
    return engine


def _knock_neo_out(engine: Engine) -> None:
    """The Boss's Good Brawler beats Neo's Good Cutlass by 2; Neo puts a rank on his Poor
    Charisma, goes out of the scene, and the other rank is discarded (R-PDQ-07, R-PDQ-08)."""
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    run(engine, AllocateRanks(character="Neo", steps=("Charisma",)))
    assert who(engine, "Neo").out


# --- Out of the scene (R-PDQ-06, R-PDQ-08) --------------------------------------------------------


def test_an_out_of_scene_defender_is_refused_even_on_a_miss(game: Engine) -> None:
    """TargetOutOfScene comes before the dice: snake eyes, which would miss, is refused too, and
    nothing is recorded (R-PDQ-06 errors; use Out for Blood instead, R-PDQ-09)."""
    _knock_neo_out(game)
    command = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo",))
    error = refused(game, command, errors.TargetOutOfScene, 1, 1)
    assert {"name": "Neo"} == error.data


def test_an_out_of_scene_character_cannot_roll_even_an_easy_task(game: Engine) -> None:
    """ActorOutOfScene before any dice, whatever they would show (R-PDQ-08)."""
    _knock_neo_out(game)
    refused(
        game,
        RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Poor"),
        errors.ActorOutOfScene,
        6,
        6,
    )


# --- Strategies met at the wrong moment (R-PDQ-10) ---------------------------------------------


def test_full_defense_as_a_reaction_needs_no_other_strategy(game: Engine) -> None:
    """A defender already in Full Defense cannot declare it again as a reaction: refused with
    StrategyAlreadyActive, nothing recorded (R-PDQ-10)."""
    run(game, DeclareStrategy(character="Ninja", strategy="full-defense"))
    command = Attack(
        attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), full_defense=("Ninja",)
    )
    error = refused(game, command, errors.StrategyAlreadyActive, 1, 1)
    assert {"name": "Ninja", "strategy": Strategy.FULL_DEFENSE} == error.data


def test_full_attack_needs_no_other_strategy(game: Engine) -> None:
    """An attacker in Full Defense cannot also go Full Attack (R-PDQ-10)."""
    run(game, DeclareStrategy(character="Neo", strategy="full-defense"))
    command = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), full_attack=True)
    error = refused(game, command, errors.StrategyAlreadyActive, 1, 1)
    assert {"name": "Neo", "strategy": Strategy.FULL_DEFENSE} == error.data


def test_a_declared_full_attack_upshifts_the_attack_without_declaring_again(game: Engine) -> None:
    """Full Attack declared beforehand: the attack is upshifted and adds a damage rank, and no
    second StrategyDeclared is recorded (R-PDQ-10, PDQ Ex9)."""
    run(game, DeclareStrategy(character="Neo", strategy="full-attack"))
    events = run(
        game,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), full_attack=True),
        3,
        3,
    )
    assert [] == [e for e in events if isinstance(e, ev.StrategyDeclared)]
    (attack,) = [e for e in events if isinstance(e, ev.ConflictAttackRolled)]
    assert [ShiftSource.FULL_ATTACK] == [s.source for s in attack.roll.shifts]
    assert (Outcome.HIT, 3, 3 + 1) == (attack.outcome, attack.margin, attack.ranks)


# --- Re-rolling a tie (R-PDQ-06, PDQ-A1) ----------------------------------------------------------


def test_a_reroll_without_a_tie_is_refused(game: Engine) -> None:
    """NoTieToReroll, whether the attacker is named or not (PDQ-A1)."""
    refused(game, Reroll(), errors.NoTieToReroll, 3, 3)
    refused(game, Reroll(attacker="Neo"), errors.NoTieToReroll, 3, 3)


# --- Every refusal as the GM reads it (DIGEST 0.3) ----------------------------------------------

# The reason each scenario of the catalogue (tests/golden/test_catalogue_sims.py) is refused with:
# the rule it names and the data it carries (who, which quality, how many ranks, what to run).
REASONS = {
    "UNREADABLE_QUALITY": (
        "'Cutlass' is not a quality: write NAME:AREA:RANK, e.g. Cutlass:Combat:Good (Qualities)"
    ),
    "UNKNOWN_AREA": (
        "'Sea' is not an area; choose one of: Physical, Mental, Social, Professional, Combat, "
        "Master+, Rebirth, Extraordinary (Qualities)"
    ),
    "UNKNOWN_RANK": (
        "'Superb' is not a rank; choose one of: Poor, Average, Good, Expert, Master (Ranks)"
    ),
    "WRONG_QUALITY_COUNT": "a player character has exactly 10 qualities, got 9 (Qualities)",
    "WRONG_COMBAT_QUALITY_COUNT": (
        "a player character has exactly two Combat qualities, got 1 (Qualities)"
    ),
    "WRONG_AREA": (
        "Hiding is in Extraordinary; a new character's qualities are Physical, Mental, Social, "
        "Professional or Combat (Qualities)"
    ),
    "WRONG_RANK_DISTRIBUTION": (
        "a new character has two Good qualities, one Poor and the rest Average; got 1 Poor, 6 "
        "Average, 3 Good (Ranks; use --custom for a GM-made sheet)"
    ),
    "DUPLICATE_QUALITY_NAME": (
        "cutlass is on the sheet twice; every quality has its own name (Qualities)"
    ),
    "SECONDARY_NEEDS_ONE_RANK": (
        "a secondary NPC is one Difficulty rank, got 2 qualities (Recovering, Ex. 8)"
    ),
    "NO_QUALITIES": "a sheet needs at least one quality",
    "QUALITY_NOT_OWNED": "Neo has no quality 'Piano'; its qualities are Kung Fu, Outdoorsman",
    "GM_APPROVAL_REQUIRED": (
        "replacing a quality needs the GM's approval first (Master Chart note); record it with "
        "--gm-approved"
    ),
    "ACTOR_OUT_OF_SCENE": (
        "Ninja is out of the scene and cannot act until no quality is below Poor (Out of the Scene)"
    ),
    "TARGET_OUT_OF_SCENE": (
        "Ninja is out of the scene already; a helpless character can only be killed (`campaign "
        "kill`) (Out for Blood)"
    ),
    "CONTRIBUTOR_OUT_OF_SCENE": (
        "Ninja is out of the scene and cannot join forces (Using Multiple Qualities)"
    ),
    "ALLOCATION_PENDING": (
        "Neo must first distribute 7 Damage Rank(s) over its qualities (`campaign allocate`) "
        "(Damage)"
    ),
    "TIE_REROLL_PENDING": (
        "Cypher's attack on Smith tied: nobody is hurt and the attack is rolled again before "
        "anything else (`campaign reroll`) (Example 3 note)"
    ),
    "NO_TIE_TO_REROLL": "no attack is tied; only a tied attack is rolled again (Example 3 note)",
    "SIMPLE_SITUATION_NO_ROLL_NEEDED": (
        "the GM ruled 'the wall' a simple situation Neo succeeds at without a roll in this scene; "
        "no roll is needed (undo that ruling to roll instead) (Simple Situation)"
    ),
    "RECOVERY_CHOICE_PENDING": (
        "Neo must first choose where its 1 recovered rank(s) go (`campaign restore`)"
    ),
    "NOT_YOUR_TURN": "it is Smith's turn, not Neo's (Attacker - Defender)",
    "CANNOT_ATTACK_SELF": "Neo cannot be its own defender (Attacker - Defender)",
    "DEFENDER_TWICE": (
        "Ninja is named twice; split an attack between different targets (Multiple Targets)"
    ),
    "NO_TARGETS": "an attack needs at least one defender (Attacker - Defender)",
    "KILLING_NOT_CHOSEN": (
        "killing damage is chosen at the start of a conflict only under house rule "
        "lethality=choose-at-start (Out for Blood)"
    ),
    "STRATEGY_ALREADY_ACTIVE": (
        "Neo plays full-defense until its next turn already (Conflict Strategies)"
    ),
    "UNKNOWN_STRATEGY": (
        "'turtle' is not a strategy; choose full-attack or full-defense (Conflict Strategies)"
    ),
    "NOT_A_DEFENDER": (
        "Cypher is not a defender of this attack, so it cannot react with Full Defense"
    ),
    "NO_ALLOCATION_PENDING": "Neo has no Failure or Damage Ranks to distribute (Damage)",
    "ALLOCATION_COUNT_MISMATCH": (
        "Neo took 2 rank(s); distribute every one of them, or stop at the step that takes a "
        "quality below Poor; got 1 step(s) (Damage)"
    ),
    "STEPS_AFTER_OUT_OF_SCENE": (
        "Kung Fu went below Poor at step 3: Neo is out of the scene and the remaining ranks are "
        "discarded, so no steps may follow (Out of the Scene)"
    ),
    "BOTTOM_OUT_LAST": (
        "house rule forceBottomOutLast: Kung Fu may go below Poor only once every other quality "
        "is at Poor"
    ),
    "NOTHING_TO_RECOVER": "Neo has no lost ranks to recover (Recovering from Damage)",
    "RECOVERY_NOT_AUTHORIZED": (
        "Neo recovers no more ranks until the GM says to roll again (`campaign "
        "authorize-recovery`) (Recovering from Damage, Continuing Danger)"
    ),
    "RECOVERY_ALREADY_AUTHORIZED": "Neo may roll for recovery already (Recovering from Damage)",
    "NO_RECOVERY_PENDING": "Neo has no recovered ranks to place; roll first (`campaign recover`)",
    "RECOVERY_STEP_COUNT_MISMATCH": (
        "Neo has 1 recovered rank(s) to place, got 2 step(s) (Recovering)"
    ),
    "ABOVE_BASE_RANK": (
        "Kung Fu is back at its Good rank already; recovery restores lost ranks only (Recovering "
        "from Damage)"
    ),
    "VICTIM_NOT_OUT_OF_SCENE": (
        "Ninja is not helpless: only a character out of the scene can be killed (Out for Blood)"
    ),
    "NOT_A_PHYSICAL_CONFLICT": (
        "Ninja went out on Failure Ranks: only a physical conflict, fought with Damage Ranks, "
        "kills (Out for Blood)"
    ),
    "KILL_NOT_ON_NEXT_TURN": (
        "Ninja went out during this turn; the kill is a statement on the attacker's next turn "
        "(Out for Blood)"
    ),
    "SCENE_HAS_UNFINISHED_BUSINESS": (
        "Neo: 2 Damage Rank(s) to distribute; finish it before the scene ends"
    ),
    "NO_UPGRADE_AVAILABLE": (
        "Neo has no upgrade to spend: upgrades come from a successful campaign or an announced "
        "Upgrade Mission (Characters Improvement)"
    ),
    "QUALITY_ALREADY_MASTER": (
        "M0 is Master: it cannot be improved further (Characters Improvement)"
    ),
    "MISSION_NOT_ANNOUNCED": (
        "'The Vault' was not announced to any character in advance as an Upgrade Mission; the GM "
        "announces it before the mission (`campaign mission announce`) (Characters Improvement)"
    ),
    "MISSION_ALREADY_ANNOUNCED": "'The Vault' is announced for Neo already",
    "NOT_ENOUGH_MASTERS": "Master+ needs Master in at least 3 qualities; Neo has 0 (Master +)",
    "HAS_MASTER_PLUS_QUALITIES": (
        "Trinity took Master+ qualities; Rebirth is for characters without them (Rebirth)"
    ),
    "TOO_MANY_EXTRAORDINARY": (
        "only one of the four Rebirth qualities may be psychic or extraordinary (Rebirth)"
    ),
    "WRONG_EXTRA_COUNT": "Master+ brings exactly 2 new qualities, got 1 (Master +)",
    "TURN_ORDER_TOO_SHORT": (
        "a conflict needs at least two sides; got 1 character(s) (Conflict Situation)"
    ),
    "NO_TURN_ORDER": (
        "no conflict has a turn order; set one with `campaign turns` (Attacker - Defender)"
    ),
    "MESSAGE_TO_SELF": "bob cannot write a private message to themself (Behind the Scenes)",
    "OBSERVER_CANNOT_MESSAGE": (
        "olly is an observer: private messages pass between the GM and the players (Behind the "
        "Scenes)"
    ),
    "MESSAGE_NEEDS_CHARACTER": (
        "neither Morpheus nor carol plays a character to keep the message with; name the "
        "character it comes from (Behind the Scenes)"
    ),
}


@pytest.mark.parametrize("case", REFUSALS, ids=[case.code for case in REFUSALS])
def test_each_refusal_reads_its_rule_and_data(engine: Engine, case: Refusal) -> None:
    """A refusal names the rule it enforces and what the GM needs to set things right
    (DIGEST 0.3: errors carry data); nothing is appended (R-PDQ-01..15 errors)."""
    catalogue_table(engine, **case.house_rules)
    for command, faces in case.given:
        engine.execute(NAME, command, dice=DiceSpec(faces=faces))
    before = event_count(engine)
    with pytest.raises(DomainError) as raised:
        engine.execute(NAME, case.when, actor=case.actor, dice=DiceSpec(faces=case.faces))
    assert (case.code, REASONS[case.code]) == (raised.value.code, raised.value.reason)
    assert before == event_count(engine)


# --- The Master Chart (DIGEST 3.1) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "modifier", "tn", "clamped", "name"),
    [
        pytest.param(-1, -4, 3, 5, "zeroed", id="PDQ-A8-below-poor"),
        pytest.param(0, -2, 5, 5, "Poor", id="3.1-poor"),
        pytest.param(1, 0, 7, 7, "Average", id="3.1-average"),
        pytest.param(2, 2, 9, 9, "Good", id="3.1-good"),
        pytest.param(3, 4, 11, 11, "Expert", id="3.1-expert"),
        pytest.param(4, 6, 13, 13, "Master", id="PDQ-X7-master"),
        pytest.param(5, 8, 15, 13, "Master+1", id="PDQ-A8-master-upshifted"),
        pytest.param(6, 10, 17, 13, "Master+2", id="PDQ-A8-twice-above-master"),
    ],
)
def test_the_master_chart_reads_each_rung(
    index: int, modifier: int, tn: int, clamped: int, name: str
) -> None:
    """modifier = 2·idx − 2 and TN = 2·idx + 5 along the ladder, extrapolated off it or clamped
    to 5..13 (DIGEST 3.1, PDQ-A8); the rung's name as the sheet shows it."""
    assert (modifier, tn, clamped, name) == (
        tables.modifier(index),
        tables.target_number(index),
        tables.target_number(index, clamp=True),
        tables.rank_name(index),
    )


def test_each_rank_knows_its_level_and_modifier() -> None:
    """Poor..Master are levels 0..4 with modifiers -2..+6 (Master Chart)."""
    assert [(0, -2), (1, 0), (2, 2), (3, 4), (4, 6)] == [(r.level, r.modifier) for r in Rank]


@pytest.mark.parametrize(
    ("text", "rank"),
    [(" good ", Rank.GOOD), ("MASTER", Rank.MASTER), ("Poor", Rank.POOR), ("great", None)],
)
def test_ranks_are_read_whatever_the_case(text: str, rank: Rank | None) -> None:
    """A rank is named as the chart names it, in any case, with spaces around (Ranks)."""
    assert rank == tables.find_rank(text)


@pytest.mark.parametrize(
    ("text", "area"),
    [(" combat ", Area.COMBAT), ("MASTER+", Area.MASTER_PLUS), ("Sea", None)],
)
def test_areas_are_read_whatever_the_case(text: str, area: Area | None) -> None:
    """An area is named as the rules name it, in any case (Qualities)."""
    assert area == tables.find_area(text)


# --- Sheets (R-PDQ-01, R-PDQ-02) ------------------------------------------------------------------


def _created(events: tuple[Event, ...]) -> ev.CharacterCreated:
    (created,) = [e for e in events if isinstance(e, ev.CharacterCreated)]
    return created


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
    created = _created(run(game, command))
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
    created = _created(run(engine, command))
    assert ("Morpheus", SheetKind.NPC, True) == (created.player, created.kind, created.custom)


def test_a_secondary_npc_is_one_combat_rank(game: Engine) -> None:
    """A secondary NPC's one quality defaults to the Combat area (its Difficulty rank)."""
    command = CreateCharacter(
        character="Guard", player="GM", qualities=("Guard:Good",), kind=SheetKind.SECONDARY
    )
    (quality,) = _created(run(game, command)).qualities
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


# --- Improvement (R-PDQ-14) -----------------------------------------------------------------------


def _elder(engine: Engine, masters: int, *more: str) -> None:
    """Trinity: a GM-made player sheet with ``masters`` Master qualities (and ``more``)."""
    qualities = (*(f"M{n}:Combat:Master" for n in range(masters)), *more)
    run(
        engine,
        CreateCharacter(character="Trinity", player="carol", qualities=qualities, custom=True),
    )


def test_only_living_player_characters_share_a_campaign_success(game: Engine) -> None:
    """UpgradeGranted for each living PC, none for NPCs or the dead; an adventure completed is
    recorded for the same characters and earns nothing (R-PDQ-14, PDQ-A14)."""
    _elder(game, 0, "Luck:Social:Good")
    _knock_neo_out(game)
    run(game, Kill(attacker="Boss", victim="Neo"))
    events = run(game, CompleteAdventure(adventure=" The Docks "))
    assert [ev.AdventureCompleted(adventure="The Docks")] == list(events)
    events = run(game, SucceedCampaign())
    assert [ev.UpgradeGranted(source="the campaign succeeded", mission=None)] == list(events)
    assert [1, 0, 0] == [who(game, n).upgrades for n in ("Trinity", "Neo", "Boss")]


def test_an_upgrade_mission_rewards_those_it_was_announced_to(game: Engine) -> None:
    """Announced to Neo and Trinity, the mission succeeds for both: one upgrade each, and the
    mission is spent (R-PDQ-14)."""
    _elder(game, 0, "Luck:Social:Good")
    announced = run(game, AnnounceMission(mission=" The Vault ", characters=("Neo", "Trinity")))
    assert [ev.UpgradeMissionAnnounced(mission="The Vault")] * 2 == list(announced)
    events = run(game, SucceedMission(mission="The Vault ", characters=("Trinity",)))
    assert [ev.UpgradeGranted(source="Upgrade Mission The Vault", mission="The Vault")] == list(
        events
    )
    assert [(0, ("The Vault",)), (1, ())] == [
        (who(game, n).upgrades, who(game, n).missions) for n in ("Neo", "Trinity")
    ]
    error = refused(
        game,
        SucceedMission(mission="The Vault", characters=("Trinity",)),
        errors.MissionNotAnnounced,
    )
    assert {"name": "Trinity", "mission": "The Vault"} == error.data
    run(game, SucceedMission(mission="The Vault"))
    assert [1, 1] == [who(game, n).upgrades for n in ("Neo", "Trinity")]


def test_an_announced_mission_of_nobody_names_any_character(game: Engine) -> None:
    """MissionNotAnnounced for a mission nobody was told about (R-PDQ-14)."""
    error = refused(game, SucceedMission(mission=" The Moon "), errors.MissionNotAnnounced)
    assert {"name": "any character", "mission": "The Moon"} == error.data
    assert (
        "the mission's name must not be empty"
        == refused(game, AnnounceMission(mission=" ", characters=("Neo",)), EmptyText).reason
    )


def test_an_upgrade_raises_the_base_rank_by_one(game: Engine) -> None:
    """A Good Cutlass becomes Expert (G-PDQ-31), and the upgrade is spent."""
    run(game, SucceedCampaign())
    events = run(game, UpgradeQuality(character="Neo", quality="cutlass"))
    assert [ev.QualityUpgraded(quality="Cutlass", before=Rank.GOOD, after=Rank.EXPERT)] == list(
        events
    )
    assert 0 == who(game, "Neo").upgrades


def test_master_plus_adds_two_good_qualities(game: Engine) -> None:
    """Three Masters: Master+ brings two Good qualities of the Master+ area, whatever flag they
    carry (R-PDQ-14, PDQ-A15)."""
    _elder(game, 3)
    run(game, SucceedCampaign())
    nameless = TakeMasterPlus(character="Trinity", qualities=(" :psychic", "B"))
    assert {"text": " :psychic"} == refused(game, nameless, errors.UnreadableQuality).data
    twice = TakeMasterPlus(character="Trinity", qualities=("m0", "B"))
    assert {"quality": "M0"} == refused(game, twice, errors.DuplicateQualityName).data
    events = run(game, TakeMasterPlus(character="Trinity", qualities=(" Flight :psychic", "Wit")))
    expected = tuple(
        ev.QualitySpec(name=n, area=Area.MASTER_PLUS, rank=Rank.GOOD) for n in ("Flight", "Wit")
    )
    assert [ev.MasterPlusTaken(qualities=expected)] == list(events)
    assert (5, 0) == (len(who(game, "Trinity").qualities), who(game, "Trinity").upgrades)


def test_master_plus_needs_exactly_two_names(game: Engine) -> None:
    """WrongExtraCount names what Master+ brings and what was given (Master +)."""
    _elder(game, 3)
    run(game, SucceedCampaign())
    command = TakeMasterPlus(character="Trinity", qualities=("A", "B", "C"))
    error = refused(game, command, errors.WrongExtraCount)
    assert "Master+ brings exactly 2 new qualities, got 3 (Master +)" == error.reason


def test_rebirth_replaces_the_sheet_and_keeps_the_old_one(game: Engine) -> None:
    """Six Masters: a new sheet by the creation rules plus four Good qualities, one of them
    extraordinary; the event keeps the sheet before (R-PDQ-14)."""
    _elder(game, 6)
    run(game, SucceedCampaign())
    three = TakeRebirth(character="Trinity", qualities=STARTING_SHEET, extra=("A", "B", "C"))
    error = refused(game, three, errors.WrongExtraCount)
    assert "Rebirth brings exactly 4 new qualities, got 3 (Rebirth)" == error.reason
    command = TakeRebirth(
        character="Trinity",
        qualities=STARTING_SHEET,
        extra=("Luck", "Grace:PSYCHIC", "Wit", "Nerve:other"),
    )
    (reborn,) = run(game, command)
    assert isinstance(reborn, ev.CharacterReborn)
    assert [(n, Area.COMBAT, Rank.MASTER) for n in ("M0", "M1", "M2", "M3", "M4", "M5")] == [
        (q.name, q.area, q.rank) for q in reborn.previous
    ]
    assert [
        ("Luck", Area.REBIRTH),
        ("Grace", Area.EXTRAORDINARY),
        ("Wit", Area.REBIRTH),
        ("Nerve", Area.REBIRTH),
    ] == [(q.name, q.area) for q in reborn.qualities[10:]]
    assert {Rank.GOOD} == {q.rank for q in reborn.qualities[10:]}
    trinity = who(game, "Trinity")
    assert (14, 1, 0) == (len(trinity.qualities), trinity.rebirths, trinity.upgrades)


def test_rebirth_needs_six_masters(game: Engine) -> None:
    """NotEnoughMasters names what Rebirth needs and what the character has (Rebirth)."""
    _elder(game, 5)
    run(game, SucceedCampaign())
    command = TakeRebirth(character="Trinity", qualities=STARTING_SHEET, extra=("A", "B", "C", "D"))
    error = refused(game, command, errors.NotEnoughMasters)
    assert "Rebirth needs Master in at least 6 qualities; Trinity has 5 (Rebirth)" == error.reason


# --- Turns (R-PDQ-05, R-PDQ-10) -------------------------------------------------------------------


def _slot(engine: Engine, name: str, quality: str, rank: int) -> TurnSlot:
    return TurnSlot(character_id=who(engine, name).id, name=name, quality=quality, rank=rank)


def test_the_turn_order_goes_by_rank_then_pc_first(game: Engine) -> None:
    """Neo (Good, a PC) before the Boss (Good, an NPC) before the Ninja (Average): no roll-off
    is needed; every side records the order, and Neo's turn 1 starts (R-PDQ-05, PDQ-A11)."""
    result = game.execute(NAME, SetTurnOrder(entries=("Ninja", "Boss:Brawler", "Neo:Cutlass")))
    order = (
        _slot(game, "Neo", "Cutlass", 2),
        _slot(game, "Boss", "Brawler", 2),
        _slot(game, "Ninja", "Henchman", 1),
    )
    assert [ev.TurnOrderSet(order=order)] * 3 == of(result.events, ev.TurnOrderSet)
    assert [ev.TurnStarted(number=1)] == of(result.events, ev.TurnStarted)
    assert () == result.dice
    assert (True, 1) == (who(game, "Neo").turn, who(game, "Neo").last_turn)


def test_equal_npcs_roll_off_and_record_their_faces(game: Engine) -> None:
    """Two NPCs of equal rank roll 1d6 each, in the order listed: the higher goes first, and the
    faces are kept on the slots (PDQ-A11)."""
    run(
        game,
        CreateCharacter(
            character="Twin", player="GM", qualities=("Brawler:Combat:Good",), kind=SheetKind.NPC
        ),
    )
    (order, *_) = run(game, SetTurnOrder(entries=("Boss:Brawler", "Twin:Brawler")), 2, 5)
    assert isinstance(order, ev.TurnOrderSet)
    assert [("Twin", (5,)), ("Boss", (2,))] == [(s.name, s.roll_off) for s in order.order]


def test_a_character_is_listed_once(game: Engine) -> None:
    """DefenderTwice names the character listed twice (R-PDQ-05)."""
    error = refused(
        game, SetTurnOrder(entries=("Neo", "Boss", "neo:Cutlass")), errors.DefenderTwice
    )
    assert {"name": "Neo"} == error.data


def test_a_new_order_ends_the_turn_running(game: Engine) -> None:
    """A second turn order ends the running turn first, then starts again at turn 1."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Boss:Brawler")))
    events = run(game, SetTurnOrder(entries=("Neo:Cutlass", "Ninja")))
    assert [ev.TurnEnded(number=1)] == of(events, ev.TurnEnded)
    assert [ev.TurnStarted(number=1)] == of(events, ev.TurnStarted)
    assert (True, 1) == (who(game, "Neo").turn, who(game, "Neo").last_turn)


def test_turns_pass_round_the_order_and_skip_who_cannot_act(game: Engine) -> None:
    """Neo, the Boss, the Ninja: the Boss ends turn 2; the Ninja, out of the scene, is passed
    over, so Neo's turn 3 starts (R-PDQ-05, R-PDQ-08)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Boss:Brawler", "Ninja")))
    assert [ev.TurnEnded(number=1), ev.TurnStarted(number=2)] == list(run(game, EndTurn()))
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Ninja",)), 6, 6)
    assert who(game, "Ninja").out
    events = run(game, EndTurn())
    assert [ev.TurnEnded(number=2), ev.TurnStarted(number=3)] == list(events)
    assert (True, False) == (who(game, "Neo").turn, who(game, "Boss").turn)


def test_a_strategy_expires_when_its_owners_turn_comes_again(game: Engine) -> None:
    """Full Defense declared on Neo's turn lasts until his next turn (R-PDQ-10)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Boss:Brawler")))
    run(game, DeclareStrategy(character="Neo", strategy=" Full-Defense "))
    run(game, EndTurn())
    events = run(game, EndTurn())
    assert [
        ev.TurnEnded(number=2),
        ev.StrategyExpired(strategy=Strategy.FULL_DEFENSE),
        ev.TurnStarted(number=3),
    ] == list(events)


def test_full_attack_waits_for_the_characters_turn(game: Engine) -> None:
    """Full Attack is declared on one's own turn; Full Defense may be declared at any time
    (R-PDQ-10, Kristov L305-311)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Boss:Brawler")))
    error = refused(
        game, DeclareStrategy(character="Boss", strategy="full-attack"), errors.NotYourTurn
    )
    assert {"name": "Boss", "current": "Neo"} == error.data
    events = run(game, DeclareStrategy(character="Boss", strategy="full-defense"))
    assert [ev.StrategyDeclared(strategy=Strategy.FULL_DEFENSE)] == list(events)


# --- Attacks, event by event (R-PDQ-06, R-PDQ-07, R-PDQ-10, R-PDQ-12) ----------------------------


def _used(engine: Engine, name: str, quality: str | None, base: Rank, current: int) -> QualityUsed:
    return QualityUsed(
        character_id=who(engine, name).id,
        character=name,
        quality=quality,
        base=base,
        current=current,
        modifier=2 * current - 2,
    )


def _setup(
    engine: Engine, name: str, defense: QualityUsed, *, target: int = 1, targets: int = 1
) -> AttackSetup:
    """An attack on ``name`` at TN 7, no shifts on the defence, Damage Ranks, no bonus."""
    return AttackSetup(
        defender_id=who(engine, name).id,
        defender=name,
        target=target,
        targets=targets,
        defense=defense,
        defender_shifts=(),
        tn=7,
        kind=RankKind.DAMAGE,
        bonus_ranks=0,
        killing=False,
    )


def test_a_split_attack_records_each_target_and_the_tie_last(game: Engine) -> None:
    """Neo's Good Cutlass split between the Ninja and the Boss's Nerve: one downshift for the
    second target, so +0. 12 against the Ninja's 7 hits for 5 (his one track takes 2, then he is
    out and 3 are discarded); 7 against the Boss's 7 ties and waits to be rolled again
    (R-PDQ-12, R-PDQ-06, PDQ-A16, PDQ-A1)."""
    command = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja", "Boss:Nerve"))
    events = run(game, command, 6, 6, 3, 4)
    cutlass = _used(game, "Neo", "Cutlass", Rank.GOOD, 2)
    split = (Shift(source=ShiftSource.SPLIT, steps=-1, note="2"),)

    def rolled(faces: tuple[int, int]) -> Roll:
        return Roll(
            qualities=(cutlass,),
            shifts=split,
            effective=1,
            modifier=0,
            mode=DiceMode.TWO_D6,
            dice=faces,
            total=sum(faces),
        )

    ninja = _setup(game, "Ninja", _used(game, "Ninja", "Henchman", Rank.AVERAGE, 1), targets=2)
    boss = _setup(game, "Boss", _used(game, "Boss", "Nerve", Rank.AVERAGE, 1), target=2, targets=2)
    on_neo = [e for e in events if isinstance(e, ev.ConflictAttackRolled | ev.ConflictTied)]
    assert [
        ev.ConflictAttackRolled(
            setup=ninja, roll=rolled((6, 6)), outcome=Outcome.HIT, margin=5, ranks=5, reroll=False
        ),
        ev.ConflictAttackRolled(
            setup=boss, roll=rolled((3, 4)), outcome=Outcome.TIE, margin=0, ranks=0, reroll=False
        ),
        ev.ConflictTied(setup=boss, roll=rolled((3, 4))),
    ] == on_neo
    assert [
        ev.DamageRanksInflicted(
            ranks=5, kind=RankKind.DAMAGE, source="Neo", bonus_ranks=0, killing=False
        ),
        ev.QualityDownshifted(quality="Henchman", before=1, after=0, kind=RankKind.DAMAGE),
        ev.QualityDownshifted(quality="Henchman", before=0, after=-1, kind=RankKind.DAMAGE),
        ev.CharacterOutOfScene(quality="Henchman", turn=0),
        ev.RanksDiscarded(count=3),
    ] == [e for e in events if e not in on_neo]
    again = run(game, Reroll(attacker="Neo"), 5, 1)
    assert [
        ev.ConflictAttackRolled(
            setup=boss, roll=rolled((5, 1)), outcome=Outcome.MISS, margin=-1, ranks=0, reroll=True
        )
    ] == list(again)
    assert () == who(game, "Neo").ties


def test_the_full_defense_penalty_falls_on_the_next_attack(game: Engine) -> None:
    """The Boss declared Full Defense: his next attack is downshifted (Good to Average, +0) and
    the penalty is consumed; Neo's defence is not shifted (R-PDQ-10, PDQ-A10)."""
    run(game, DeclareStrategy(character="Boss", strategy="full-defense"))
    events = run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Judo",)), 4, 3)
    (attack,) = of(events, ev.ConflictAttackRolled)
    assert [Shift(source=ShiftSource.FULL_DEFENSE_PENALTY, steps=-1)] == list(attack.roll.shifts)
    assert (1, 0, 7, 7, Outcome.TIE) == (
        attack.roll.effective,
        attack.roll.modifier,
        attack.roll.total,
        attack.setup.tn,
        attack.outcome,
    )
    assert [ev.FullDefensePenaltyConsumed()] == of(events, ev.FullDefensePenaltyConsumed)
    assert not who(game, "Boss").defense_penalty


def test_a_full_attacker_defends_one_rank_lower(game: Engine) -> None:
    """Neo played Full Attack: until his next turn his defence is downshifted, Good Cutlass
    defending at Average (TN 7), and the shift is recorded on the attack (PDQ-A9)."""
    run(game, DeclareStrategy(character="Neo", strategy="full-attack"))
    events = run(
        game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 3, 3
    )
    (attack,) = of(events, ev.ConflictAttackRolled)
    assert (
        (Shift(source=ShiftSource.FULL_ATTACK_PENALTY, steps=-1),),
        7,
        Outcome.HIT,
        1,
    ) == (attack.setup.defender_shifts, attack.setup.tn, attack.outcome, attack.ranks)


def test_full_defense_as_a_reaction_is_declared_and_raises_the_tn(game: Engine) -> None:
    """The Ninja reacts with Full Defense: StrategyDeclared for him, then the attack at TN 9
    (Average + 1 rank): 8 misses (R-PDQ-10, G-PDQ-13)."""
    command = Attack(
        attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), full_defense=("ninja",)
    )
    events = run(game, command, 3, 3)
    assert [ev.StrategyDeclared(strategy=Strategy.FULL_DEFENSE)] == of(events, ev.StrategyDeclared)
    (attack,) = of(events, ev.ConflictAttackRolled)
    assert ((Shift(source=ShiftSource.FULL_DEFENSE, steps=1),), 9, Outcome.MISS, -1) == (
        attack.setup.defender_shifts,
        attack.setup.tn,
        attack.outcome,
        attack.margin,
    )
    assert who(game, "Ninja").strategy is Strategy.FULL_DEFENSE


def test_an_auto_failed_attack_records_no_dice_and_no_margin(game: Engine) -> None:
    """Split four ways, a Good Cutlass bottoms out: the attack auto-fails without dice, margin
    None, nothing inflicted (R-PDQ-12, G-PDQ-18)."""
    for n in range(3):
        run(
            game,
            CreateCharacter(
                character=f"Samurai {n}",
                player="GM",
                qualities=("Katana:Average",),
                kind=SheetKind.SECONDARY,
            ),
        )
    targets = ("Ninja", "Samurai 0", "Samurai 1", "Samurai 2")
    result = game.execute(NAME, Attack(attacker="Neo", qualities=("Cutlass",), targets=targets))
    attacks = of(result.events, ev.ConflictAttackRolled)
    assert [(Outcome.AUTO_FAIL, None, 0, DiceMode.AUTO_FAIL, None)] * 4 == [
        (a.outcome, a.margin, a.ranks, a.roll.mode, a.roll.total) for a in attacks
    ]
    assert ((), []) == (result.dice, of(result.events, ev.DamageRanksInflicted))


# --- Simple and complicated situations (R-PDQ-03, R-PDQ-04, R-PDQ-10, R-PDQ-11) -------------------


@pytest.mark.parametrize(
    ("quality", "difficulty", "simple", "rank"),
    [
        pytest.param("Cutlass", "Average", True, 2, id="G-PDQ-03-good-beats-average"),
        pytest.param("Cutlass", "Good", False, 2, id="G-PDQ-03-good-meets-good"),
        pytest.param(None, "Poor", True, 1, id="G-PDQ-04-default-average-beats-poor"),
        pytest.param(None, "average", False, 1, id="G-PDQ-04-default-meets-average"),
    ],
)
def test_a_simple_situation_records_the_ranks_compared(
    game: Engine, quality: str | None, difficulty: str, simple: bool, rank: int
) -> None:
    """Higher rank than the difficulty: a simple success, recorded with the scene; otherwise the
    situation escalates to a complicated one (R-PDQ-03)."""
    command = JudgeSimple(character="Neo", quality=quality, difficulty=difficulty, task=" wall ")
    events = run(game, command)
    level = Rank(difficulty.capitalize())
    expected: Event = (
        ev.SimpleSituationResolved(
            task="wall", quality=quality, rank=rank, difficulty=level, scene=1
        )
        if simple
        else ev.SituationEscalated(task="wall", quality=quality, rank=rank, difficulty=level)
    )
    assert [expected] == list(events)


def test_a_simple_success_needs_no_roll_only_in_its_scene(game: Engine) -> None:
    """The GM's simple success holds for that task in that scene: the next scene may roll it
    (R-PDQ-04 SimpleSituationNoRollNeeded)."""
    run(game, JudgeSimple(character="Neo", quality="Cutlass", difficulty="Poor", task="wall"))
    roll = RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Good", task="wall")
    refused(game, roll, errors.SimpleSituationNoRollNeeded, 3, 3)
    other = RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Good", task="gap")
    assert 1 == len(run(game, other, 3, 3))
    game.execute(NAME, EndScene())
    game.execute(NAME, StartScene(stage="the roof"))
    assert 1 == len(run(game, roll, 3, 3))


def test_a_complicated_roll_is_recorded_whole(game: Engine) -> None:
    """Good Athletics, Badass and one GM penalty (net +0): 2d6+2 = 9 meets Good's 9, a success
    (R-PDQ-04, G-PDQ-29: ties succeed)."""
    command = RollComplicated(
        character="Neo",
        qualities=("athletics",),
        difficulty="Good",
        task=" leap ",
        badass=True,
        penalties=("slippery",),
    )
    (rolled,) = run(game, command, 3, 4)
    athletics = _used(game, "Neo", "Athletics", Rank.GOOD, 2)
    shifts = (
        Shift(source=ShiftSource.BADASS, steps=1),
        Shift(source=ShiftSource.GM_PENALTY, steps=-1, note="slippery"),
    )
    roll = Roll(
        qualities=(athletics,),
        shifts=shifts,
        effective=2,
        modifier=2,
        mode=DiceMode.TWO_D6,
        dice=(3, 4),
        total=9,
    )
    assert (
        ev.ComplicatedSituationRolled(
            task="leap", roll=roll, difficulty=Rank.GOOD, tn=9, success=True, hazardous=False
        )
        == rolled
    )


@pytest.mark.parametrize(
    ("strategy", "source"),
    [
        pytest.param("full-attack", ShiftSource.FULL_ATTACK_PENALTY, id="R-PDQ-10-full-attack"),
        pytest.param("full-defense", ShiftSource.FULL_DEFENSE_PENALTY, id="R-PDQ-10-full-defense"),
    ],
)
def test_a_strategy_downshifts_other_actions(game: Engine, strategy: str, source: str) -> None:
    """Until the next turn, a strategy downshifts non-conflict actions: 8 with Good Athletics
    at Average misses Good's 9 (R-PDQ-10)."""
    run(game, DeclareStrategy(character="Neo", strategy=strategy))
    command = RollComplicated(character="Neo", qualities=("Athletics",), difficulty="Good")
    (rolled,) = run(game, command, 4, 4)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert ((Shift(source=ShiftSource(source), steps=-1),), 8, False) == (
        rolled.roll.shifts,
        rolled.roll.total,
        rolled.success,
    )


def test_an_auto_failed_hazard_deals_the_shortfall_from_the_lowest_roll(game: Engine) -> None:
    """Poor Charisma with a GM penalty bottoms out: no dice; on a hazardous task the shortfall
    counts from the lowest total possible, 2 + (-4): Poor's TN 5 + 2 = 7 Damage Ranks
    (R-PDQ-04 hazardous, PDQ-A7)."""
    command = RollComplicated(
        character="Neo",
        qualities=("Charisma",),
        difficulty="Poor",
        task="bluff the guard",
        hazardous=True,
        penalties=("awkward",),
    )
    result = game.execute(NAME, command)
    rolled, inflicted = result.events
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert (DiceMode.AUTO_FAIL, None, -1, -4, False) == (
        rolled.roll.mode,
        rolled.roll.total,
        rolled.roll.effective,
        rolled.roll.modifier,
        rolled.success,
    )
    assert (
        ev.DamageRanksInflicted(
            ranks=7,
            kind=RankKind.DAMAGE,
            source="environment (bluff the guard)",
            bonus_ranks=0,
            killing=False,
        )
        == inflicted
    )


def test_a_hazard_without_a_task_names_the_hazard(game: Engine) -> None:
    """A failed hazardous roll with no task named: 'environment (hazard)', TN - total ranks."""
    command = RollComplicated(
        character="Neo", qualities=("Hiding",), difficulty="Good", hazardous=True
    )
    events = run(game, command, 1, 2)
    assert [(6, "environment (hazard)")] == [
        (e.ranks, e.source) for e in of(events, ev.DamageRanksInflicted)
    ]


def test_the_same_quality_twice_is_refused(game: Engine) -> None:
    """Combining qualities means different ones (Using Multiple Qualities)."""
    command = RollComplicated(character="Neo", qualities=("Cutlass", "cutlass"), difficulty="Good")
    error = refused(game, command, errors.DuplicateQualityName, 3, 3)
    assert {"quality": "Cutlass, cutlass"} == error.data


def test_a_helper_joins_with_the_quality_named(game: Engine) -> None:
    """Teamwork: the Boss's Good Brawler joins Neo's Good Cutlass, +4; only Neo rolls
    (R-PDQ-11, G-PDQ-17)."""
    command = RollComplicated(
        character="Neo", qualities=("Cutlass",), difficulty="Expert", helpers=("boss:brawler",)
    )
    (rolled,) = run(game, command, 3, 4)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert (
        ["Neo", "Boss"],
        ["Cutlass", "Brawler"],
        None,
        4,
        11,
        True,
    ) == (
        [u.character for u in rolled.roll.qualities],
        [u.quality for u in rolled.roll.qualities],
        rolled.roll.effective,
        rolled.roll.modifier,
        rolled.roll.total,
        rolled.success,
    )


# --- Scene ends and recovery (R-PDQ-08, R-PDQ-13, PDQ-A3) -----------------------------------------


def _events_of(result_events: tuple[Event, ...], kinds: tuple[type[Event], ...]) -> list[Event]:
    return [e for e in result_events if isinstance(e, kinds)]


def test_momentary_danger_restores_everything_and_brings_back_the_fallen(game: Engine) -> None:
    """Neo went out on his Poor Charisma: at the end of a momentary scene the rank comes back
    and he is back in the scene; the Boss, untouched and without a strategy, is left alone
    (R-PDQ-13 momentary, R-PDQ-08)."""
    _knock_neo_out(game)
    events = game.execute(NAME, EndScene()).events
    neo = [
        ev.SceneWrappedUp(danger=Danger.MOMENTARY),
        ev.RanksRecovered(
            restored=(RankRestored(quality="Charisma", before=-1, after=0),), kind=None
        ),
        ev.CharacterReturnedToScene(quality="Charisma"),
    ]
    kinds = (ev.SceneWrappedUp, ev.RanksRecovered, ev.CharacterReturnedToScene)
    assert neo == _events_of(events, kinds)
    assert (False, 0) == (who(game, "Neo").out, who(game, "Neo").lost)


def test_continuing_danger_authorizes_a_recovery_roll(game: Engine) -> None:
    """Continuing danger: no rank comes back at the end of the scene, a recovery roll is
    authorized instead, once (R-PDQ-13 continuing)."""
    _knock_neo_out(game)
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    events = game.execute(NAME, EndScene()).events
    kinds = (ev.SceneWrappedUp, ev.RanksRecovered, ev.RecoveryRollAuthorized)
    assert [
        ev.SceneWrappedUp(danger=Danger.CONTINUING),
        ev.RecoveryRollAuthorized(reason="continuing danger at the end of the scene"),
    ] == _events_of(events, kinds)
    assert who(game, "Neo").out


def test_a_recovery_placed_at_once_brings_the_character_back(game: Engine) -> None:
    """Neo rolls a 4 with one rank lost: one comes back, three are wasted; placed on the zeroed
    Charisma he is back in the scene, named by that quality (R-PDQ-13, G-PDQ-20)."""
    _knock_neo_out(game)
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    game.execute(NAME, EndScene())
    events = run(game, RollRecovery(character="Neo", steps=("charisma",)), 4)
    assert [
        ev.RecoveryRolled(die=4, lost=1, restorable=1, wasted=3),
        ev.RankRecovered(quality="Charisma", before=-1, after=0),
        ev.CharacterReturnedToScene(quality="Charisma"),
    ] == list(events)
    refused(game, RollRecovery(character="Neo"), errors.NothingToRecover, 3)


def test_failure_ranks_clear_and_damage_ranks_wait_for_a_roll(engine: Engine) -> None:
    """failureRanksClearAtSceneEnd in continuing danger: the Failure Rank comes back at once, the
    Damage Rank needs a recovery roll (PDQ-A3)."""
    table(engine, failureRanksClearAtSceneEnd="true")
    boss = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",))
    run(engine, attrs.evolve(boss, kind=RankKind.FAILURE), 4, 4)
    run(engine, AllocateRanks(character="Neo", steps=("Hiding",)))
    run(engine, boss, 4, 4)
    run(engine, AllocateRanks(character="Neo", steps=("Memory",)))
    run(engine, DeclareDanger(danger=Danger.CONTINUING))
    events = engine.execute(NAME, EndScene()).events
    kinds = (ev.RanksRecovered, ev.RecoveryRollAuthorized)
    assert [
        ev.RanksRecovered(
            restored=(RankRestored(quality="Hiding", before=0, after=1),), kind=RankKind.FAILURE
        ),
        ev.RecoveryRollAuthorized(reason="continuing danger at the end of the scene"),
    ] == _events_of(events, kinds)
    assert {"Hiding": 1, "Memory": 0} == {
        q.name: q.current for q in who(engine, "Neo").qualities if q.name in ("Hiding", "Memory")
    }


def test_the_gm_authorizes_another_roll_with_a_reason(game: Engine) -> None:
    """AuthorizeRecovery records the GM's reason, or 'GM ruling' when none is given."""
    _knock_neo_out(game)
    events = run(game, AuthorizeRecovery(character="Neo", reason="  "))
    assert [ev.RecoveryRollAuthorized(reason="GM ruling")] == list(events)


def test_danger_is_declared_for_the_living_only(game: Engine) -> None:
    """DeclareDanger for everyone skips the dead (R-PDQ-13)."""
    _knock_neo_out(game)
    run(game, Kill(attacker="Boss", victim="Neo"))
    events = run(game, DeclareDanger(danger=Danger.CONTINUING))
    assert [ev.DangerDeclared(danger=Danger.CONTINUING)] * 2 == list(events)
    assert [False, True, True] == [who(game, n).danger_declared for n in ("Neo", "Boss", "Ninja")]


# --- Out for Blood (R-PDQ-09, PDQ-A18) ------------------------------------------------------------


def test_outside_a_conflict_a_helpless_victim_is_killed_by_a_statement(game: Engine) -> None:
    """No roll, no turn order: CharacterKilled names who killed (R-PDQ-09, G-PDQ-36)."""
    _knock_neo_out(game)
    events = run(game, Kill(attacker="boss", victim="neo"))
    assert [ev.CharacterKilled(by_id=who(game, "Boss").id, by="Boss")] == list(events)
    assert who(game, "Neo").killed


def test_in_a_conflict_the_kill_waits_for_the_killers_turn(game: Engine) -> None:
    """Neo goes out on the Boss's turn 1: the kill is refused then (KillNotOnNextTurn); Neo's
    turn is passed over, and the kill is stated on the Boss's next turn (PDQ-A18)."""
    run(game, SetTurnOrder(entries=("Boss:Brawler", "Neo:Cutlass"), ties=TieBreak.AS_LISTED))
    _knock_neo_out(game)
    error = refused(game, Kill(attacker="Boss", victim="Neo"), errors.KillNotOnNextTurn)
    assert {"name": "Neo"} == error.data
    run(game, EndTurn())  # Neo cannot act: the Boss's turn 2 starts
    assert [ev.CharacterKilled(by_id=who(game, "Boss").id, by="Boss")] == list(
        run(game, Kill(attacker="Boss", victim="Neo"))
    )


def test_killing_damage_on_a_player_kills_once_the_ranks_put_him_out(engine: Engine) -> None:
    """lethality=choose-at-start: Neo distributes killing damage and goes out, so he dies by
    the damage's source (R-PDQ-09 option)."""
    table(engine, lethality="choose-at-start")
    attack = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), killing=True)
    run(engine, attack, 5, 4)
    events = run(engine, AllocateRanks(character="Neo", steps=("Charisma",)))
    assert [ev.CharacterKilled(by_id=None, by="Boss")] == of(events, ev.CharacterKilled)
    assert who(engine, "Neo").killed


def test_killing_damage_that_leaves_a_player_standing_kills_nobody(engine: Engine) -> None:
    """The same two killing ranks on Hiding and Memory: Neo stays in, alive."""
    table(engine, lethality="choose-at-start")
    attack = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), killing=True)
    run(engine, attack, 5, 4)
    events = run(engine, AllocateRanks(character="Neo", steps=("Hiding", "Memory")))
    assert [] == of(events, ev.CharacterKilled)
    assert (False, False) == (who(engine, "Neo").killed, who(engine, "Neo").out)


def test_killing_damage_dealt_as_failure_ranks_is_refused(engine: Engine) -> None:
    """Killing needs a physical conflict: not Failure Ranks (R-PDQ-09 NotAPhysicalConflict)."""
    table(engine, lethality="choose-at-start")
    attack = Attack(
        attacker="Boss",
        qualities=("Brawler",),
        targets=("Neo",),
        killing=True,
        kind=RankKind.FAILURE,
    )
    error = refused(engine, attack, errors.NotAPhysicalConflict, 5, 4)
    assert {"what": "killing damage dealt as Failure Ranks"} == error.data


def test_a_killing_blow_on_a_secondary_npc_kills_it_at_once(engine: Engine) -> None:
    """A secondary NPC's one track takes the ranks at once: killing damage that takes it out
    records its death by the attacker (R-PDQ-09 option, PDQ-A16)."""
    table(engine, lethality="choose-at-start")
    events = run(
        engine,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
        4,
        4,
    )
    assert [ev.CharacterKilled(by_id=who(engine, "Neo").id, by="Neo")] == of(
        events, ev.CharacterKilled
    )
    (inflicted,) = of(events, ev.DamageRanksInflicted)
    assert (3, True) == (inflicted.ranks, inflicted.killing)


# --- The dead and the unfinished (R-PDQ-09, R-PDQ-06, DIGEST 0.3) ---------------------------------


@pytest.fixture
def graveyard(engine: Engine) -> Engine:
    """lethality=choose-at-start; the Ninja is killed by Neo's killing blow, Neo is hurt (one
    Damage Rank on Hiding) and may roll for recovery."""
    table(engine, lethality="choose-at-start")
    run(
        engine,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
        4,
        4,
    )
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 4, 4)
    run(engine, AllocateRanks(character="Neo", steps=("Hiding",)))
    run(engine, AuthorizeRecovery(character="Neo"))
    return engine


@pytest.mark.parametrize(
    ("command", "what"),
    [
        pytest.param(
            RollComplicated(character="Ninja", qualities=(), difficulty="Poor"), "act", id="act"
        ),
        pytest.param(
            Attack(attacker="Boss", qualities=("Brawler",), targets=("Ninja",)),
            "take ranks",
            id="take-ranks",
        ),
        pytest.param(
            RollComplicated(
                character="Neo", qualities=("Cutlass",), difficulty="Poor", helpers=("Ninja",)
            ),
            "join forces",
            id="join-forces",
        ),
        pytest.param(Reroll(attacker="Ninja"), "roll again", id="roll-again"),
        pytest.param(
            AllocateRanks(character="Ninja", steps=("Henchman",)),
            "distribute ranks",
            id="distribute",
        ),
        pytest.param(RollRecovery(character="Ninja"), "recover", id="roll-recovery"),
        pytest.param(AuthorizeRecovery(character="Ninja"), "recover", id="authorize"),
        pytest.param(PlaceRecovery(character="Ninja", steps=()), "recover", id="place"),
        pytest.param(Kill(attacker="Neo", victim="Ninja"), "be killed again", id="kill-again"),
    ],
)
def test_the_dead_are_refused_saying_what_they_cannot_do(
    graveyard: Engine, command: Command, what: str
) -> None:
    """CHARACTER_DEAD names what the dead character was asked to do (Out for Blood)."""
    error = refused(graveyard, command, CharacterDead, 3, 3)
    assert f"Ninja is dead and cannot {what} (Out for Blood)" == error.reason


def test_a_dead_player_character_cannot_improve(graveyard: Engine) -> None:
    """Upgrades are for the living (Characters Improvement, Out for Blood)."""
    run(graveyard, SucceedCampaign())
    graveyard.execute(NAME, EndScene())
    graveyard.execute(NAME, StartScene(stage="the alley"))
    attack = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), killing=True)
    run(graveyard, attack, 6, 6)
    run(graveyard, AllocateRanks(character="Neo", steps=("Charisma",)))
    error = refused(graveyard, UpgradeQuality(character="Neo", quality="Cutlass"), CharacterDead)
    assert "Neo is dead and cannot improve (Out for Blood)" == error.reason


def test_a_scene_with_a_tied_attack_cannot_end(game: Engine) -> None:
    """The tie is rolled again before the scene ends (PDQ-A1)."""
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    error = refused(game, EndScene(), errors.SceneHasUnfinishedBusiness)
    assert (
        "Neo: the tied attack on Ninja is rolled again first; finish it before the scene ends"
    ) == error.reason


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


# --- Reading what the GM types (R-PDQ-01) ---------------------------------------------------------


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
    (quality,) = _created(run(game, command)).qualities
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


# --- Replay guards and what a scene end touches (R-PDQ-13, R-PDQ-14) ------------------------------


def test_a_stream_that_does_not_start_with_the_character_does_not_fit() -> None:
    """Replay: a character's stream starts with CharacterCreated."""
    with pytest.raises(ReplayMismatch) as raised:
        evolve(ev.DangerDeclared(danger=Danger.CONTINUING), None)
    assert "a character stream must start with CharacterCreated" == str(raised.value)


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


def test_a_scene_end_wraps_up_whoever_had_something_going(game: Engine) -> None:
    """Danger declared for the Boss only, Full Defense for the Ninja: both are wrapped up at the
    end of a scene, Neo (nothing lost, nothing going) is not (R-PDQ-13)."""
    run(game, DeclareDanger(danger=Danger.MOMENTARY, characters=("Boss",)))
    run(game, DeclareStrategy(character="Ninja", strategy="full-defense"))
    events = game.execute(NAME, EndScene()).events
    assert [ev.SceneWrappedUp(danger=Danger.MOMENTARY)] * 2 == of(events, ev.SceneWrappedUp)
    assert [None, False] == [who(game, "Ninja").strategy, who(game, "Boss").danger_declared]
    assert not who(game, "Ninja").has_scene_state


# --- Resolution details (R-PDQ-04, R-PDQ-06, PDQ-A6) ----------------------------------------------


@pytest.mark.parametrize("named", ["none", " - ", ""])
def test_no_applicable_quality_is_the_default_average(game: Engine, named: str) -> None:
    """'none', '-' or nothing names no quality: Neo acts at Average, +0 (Cypher, L91)."""
    command = RollComplicated(character="Neo", qualities=(named,), difficulty="Average")
    (rolled,) = run(game, command, 3, 4)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    (used,) = rolled.roll.qualities
    assert (None, Rank.AVERAGE, 1, 0, 7, True) == (
        used.quality,
        used.base,
        used.current,
        used.modifier,
        rolled.roll.total,
        rolled.success,
    )


def test_a_secondary_npc_always_acts_with_its_one_rank(game: Engine) -> None:
    """The Ninja names no quality: he rolls his Average Henchman rank (PDQ-A16)."""
    command = RollComplicated(character="Ninja", qualities=(), difficulty="Average")
    (rolled,) = run(game, command, 3, 4)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert ["Henchman"] == [u.quality for u in rolled.roll.qualities]


def test_a_tied_three_dice_attack_is_rolled_again_with_three_dice(game: Engine) -> None:
    """A Master Kung Fu upshifted by Badass rolls 3d6+6 (PDQ-A6): 1,1,1 + 6 ties Neo's Good 9;
    the re-roll is 3d6+6 again (PDQ-A1)."""
    run(
        game,
        CreateCharacter(
            character="Agent", player="GM", qualities=("Kung Fu:Combat:Master",), kind=SheetKind.NPC
        ),
    )
    command = Attack(
        attacker="Agent", qualities=("Kung Fu",), targets=("Neo:Cutlass",), badass=True
    )
    (tied,) = of(run(game, command, 1, 1, 1), ev.ConflictAttackRolled)
    assert (DiceMode.THREE_D6, 5, 6, 9, Outcome.TIE) == (
        tied.roll.mode,
        tied.roll.effective,
        tied.roll.modifier,
        tied.roll.total,
        tied.outcome,
    )
    (again,) = of(run(game, Reroll(), 2, 1, 1), ev.ConflictAttackRolled)
    assert ((2, 1, 1), 10, Outcome.HIT, 1, True) == (
        again.roll.dice,
        again.roll.total,
        again.outcome,
        again.ranks,
        again.reroll,
    )


# --- Behind the Scenes (R-PDQ-15) -----------------------------------------------------------------


def test_a_stranger_is_refused_with_the_seats_of_the_table(engine: Engine) -> None:
    """UnknownMember lists who may be written to: the GM, then the members."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="mallory", body="psst", by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", UnknownMember)
    assert {"name": "mallory", "known": "Morpheus, alice, bob, carol, olly"} == error.data


def test_a_message_to_a_player_without_a_character_is_kept_with_the_senders(
    engine: Engine,
) -> None:
    """The GM, who plays the Oracle, writes in person to carol, who has no character yet: the
    message is kept with the Oracle, the sender's (R-PDQ-15)."""
    catalogue_table(engine)
    oracle = CreateCharacter(
        character="Oracle", player="", qualities=("Foresight:Mental:Master",), kind=SheetKind.NPC
    )
    run(engine, oracle)
    command = SendPrivateMessage(to="carol", body=" Meet me at the docks. ", by="Morpheus")
    events = run_as(engine, command, "Morpheus")
    sent = ev.PrivateMessageSent(
        sender="Morpheus",
        to="carol",
        character=None,
        body="Meet me at the docks.",
        in_character=False,
    )
    assert [sent] == list(events)
    assert "Meet me" in repr(engine.history(NAME, "Oracle", reader="carol")[-1])


def test_the_gm_and_a_player_cannot_write_to_themselves(engine: Engine) -> None:
    """MessageToSelf names the writer (Behind the Scenes)."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="Morpheus", body="x", by="Morpheus", character="Smith")
    assert {"name": "Morpheus"} == refused_as(
        engine, command, "Morpheus", errors.MessageToSelf
    ).data


def test_an_observer_cannot_be_written_to(engine: Engine) -> None:
    """ObserverCannotMessage names the observer (Behind the Scenes)."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="olly", body="x", by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", errors.ObserverCannotMessage)
    assert {"name": "olly"} == error.data


def test_a_kill_is_stated_on_the_killers_own_turn(game: Engine) -> None:
    """The Boss took the Ninja out on his turn; on Neo's turn the Boss cannot state the kill
    (NotYourTurn names whose turn it is) (R-PDQ-09 NotAttackersTurn)."""
    order = SetTurnOrder(entries=("Boss:Brawler", "Neo:Cutlass"), ties=TieBreak.AS_LISTED)
    run(game, order)
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Ninja",)), 6, 6)
    run(game, EndTurn())
    error = refused(game, Kill(attacker="Boss", victim="Ninja"), errors.NotYourTurn)
    assert {"name": "Boss", "current": "Neo"} == error.data


def test_out_on_failure_ranks_is_no_kill_whatever_else_was_hurt(game: Engine) -> None:
    """Neo's Hiding took a Damage Rank (Average to Poor), then his Poor Charisma went below Poor
    on a Failure Rank: he went out on Failure, so no kill (R-PDQ-09 NotAPhysicalConflict)."""
    _hit_neo_once(game, RankKind.DAMAGE, "Hiding")
    _hit_neo_once(game, RankKind.FAILURE, "Charisma")
    assert who(game, "Neo").out
    error = refused(game, Kill(attacker="Boss", victim="Neo"), errors.NotAPhysicalConflict)
    assert {"what": "Neo went out on Failure Ranks"} == error.data


def _hit_neo_once(engine: Engine, kind: RankKind, quality: str) -> None:
    """The Boss's Good Brawler: 10 against Neo's Good Cutlass (9), one rank of ``kind``."""
    attack = Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), kind=kind)
    run(engine, attack, 4, 4)
    run(engine, AllocateRanks(character="Neo", steps=(quality,)))


def test_a_reroll_rolls_six_sided_dice(game: Engine) -> None:
    """A tied attack is rolled again on d6s: a 7 is no face of them (InvalidDieFace)."""
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    refused(game, Reroll(), InvalidDieFace, 7, 1)


def test_bottoming_out_last_is_allowed_once_every_other_quality_is_poor(engine: Engine) -> None:
    """forceBottomOutLast: with his other quality at Poor, Tank's Poor Grit may go below Poor
    (PDQ-A4 option, Kristov L323)."""
    table(engine, forceBottomOutLast="true")
    tank = CreateCharacter(
        character="Tank",
        player="carol",
        qualities=("Grit:Physical:Poor", "Wit:Mental:Poor"),
        custom=True,
    )
    run(engine, tank)
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Tank",)), 4, 2)
    events = run(engine, AllocateRanks(character="Tank", steps=("Grit",)))
    assert [ev.CharacterOutOfScene(quality="Grit", turn=0)] == of(events, ev.CharacterOutOfScene)


def test_a_secondary_npc_bottoms_out_under_the_house_rule_too(engine: Engine) -> None:
    """forceBottomOutLast: the Ninja's one track has no other quality to wait for (PDQ-A16)."""
    table(engine, forceBottomOutLast="true")
    events = run(engine, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 4, 3)
    assert [(1, 0), (0, -1)] == [(e.before, e.after) for e in of(events, ev.QualityDownshifted)]
    assert who(engine, "Ninja").out


def test_a_reroll_may_tie_again_and_then_take_the_defender_out(game: Engine) -> None:
    """A tie rolled again can tie again (still pending), and a hit on the re-roll deals its
    ranks like any hit: the Ninja's one track goes out in this conflict turn (PDQ-A1,
    PDQ-A16)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Ninja")))
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    again = run(game, Reroll(), 4, 1)
    assert [Outcome.TIE] == [e.outcome for e in of(again, ev.ConflictAttackRolled)]
    assert 1 == len(of(again, ev.ConflictTied))
    assert 1 == len(who(game, "Neo").ties)
    hit = run(game, Reroll(attacker="Neo"), 6, 6)
    assert [ev.CharacterOutOfScene(quality="Henchman", turn=1)] == of(hit, ev.CharacterOutOfScene)
    assert () == who(game, "Neo").ties


def test_when_nobody_else_can_act_the_turn_comes_back(game: Engine) -> None:
    """Neo and the Ninja: the Ninja is out, so ending Neo's turn starts Neo's next one
    (R-PDQ-05)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Ninja")))
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 6, 6)
    assert [ev.TurnEnded(number=1), ev.TurnStarted(number=2)] == list(run(game, EndTurn()))
    assert (True, 2) == (who(game, "Neo").turn, who(game, "Neo").last_turn)


def test_when_nobody_at_all_can_act_the_holder_keeps_the_turn(game: Engine) -> None:
    """Neo takes the Ninja out, then falls out himself on a hazard: nobody can act, and the
    turn stays with Neo, the holder (R-PDQ-05, R-PDQ-08)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Ninja")))
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 6, 6)
    fall = RollComplicated(character="Neo", qualities=("Charisma",), difficulty="Good")
    run(game, attrs.evolve(fall, hazardous=True), 1, 1)
    run(game, AllocateRanks(character="Neo", steps=("Charisma",)))
    assert who(game, "Neo").out
    assert [ev.TurnEnded(number=1), ev.TurnStarted(number=2)] == list(run(game, EndTurn()))


def test_a_roll_off_rolls_six_sided_dice(game: Engine) -> None:
    """The 1d6 roll-off between equal NPCs refuses a 7 (PDQ-A11)."""
    twin = CreateCharacter(
        character="Twin", player="GM", qualities=("Brawler:Combat:Good",), kind=SheetKind.NPC
    )
    run(game, twin)
    refused(game, SetTurnOrder(entries=("Boss:Brawler", "Twin:Brawler")), InvalidDieFace, 7, 1)


def test_more_steps_than_ranks_are_refused_with_both_counts(game: Engine) -> None:
    """Two ranks, three steps: AllocationCountMismatch names the ranks taken and the steps
    given, before any step is placed (R-PDQ-07)."""
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    command = AllocateRanks(character="Neo", steps=("Hiding", "Memory", "Languages"))
    error = refused(game, command, errors.AllocationCountMismatch)
    assert {"name": "Neo", "ranks": 2, "steps": 3} == error.data


def test_bottoming_out_last_waits_for_an_average_quality(engine: Engine) -> None:
    """forceBottomOutLast: Tank's Wit is still Average, so his Poor Grit may not go below Poor
    yet (PDQ-A4 option)."""
    table(engine, forceBottomOutLast="true")
    tank = CreateCharacter(
        character="Tank",
        player="carol",
        qualities=("Grit:Physical:Poor", "Wit:Mental:Average"),
        custom=True,
    )
    run(engine, tank)
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Tank",)), 4, 2)
    error = refused(engine, AllocateRanks(character="Tank", steps=("Grit",)), errors.BottomOutLast)
    assert {"quality": "Grit"} == error.data


def test_a_mussed_up_tie_costs_each_side_a_failure_rank_from_the_other(engine: Engine) -> None:
    """tieMussUp: the Ninja, already Poor, ties Neo's attack: each side takes one Failure Rank
    from the other; the Ninja's one track goes out at once, Neo owes his rank (PDQ-X1 option,
    PDQ-A16)."""
    table(engine, tieMussUp="true")
    attack = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",))
    run(engine, attack, 3, 3)  # 8 against 7: one rank, the Ninja is Poor
    events = run(engine, attack, 1, 2)  # 5 against Poor's 5: a tie
    assert [
        ev.DamageRanksInflicted(
            ranks=1, kind=RankKind.FAILURE, source="Neo", bonus_ranks=0, killing=False
        ),
        ev.DamageRanksInflicted(
            ranks=1, kind=RankKind.FAILURE, source="Ninja", bonus_ranks=0, killing=False
        ),
    ] == sorted(of(events, ev.DamageRanksInflicted), key=lambda e: e.source)
    assert [ev.CharacterOutOfScene(quality="Henchman", turn=0)] == of(
        events, ev.CharacterOutOfScene
    )
    owed = who(engine, "Neo").pending
    assert owed is not None
    assert (1, RankKind.FAILURE, "Ninja") == (owed.ranks, owed.kind, owed.source)


def test_a_helper_joins_an_attack(game: Engine) -> None:
    """Teamwork in a conflict: the Boss's Good Brawler joins Neo's Good Cutlass, +4; only Neo
    rolls: 3, 3 + 4 = 10 against the Ninja's 7 (R-PDQ-11, G-PDQ-16)."""
    command = Attack(
        attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), helpers=("Boss:Brawler",)
    )
    (attack,) = of(run(game, command, 3, 3), ev.ConflictAttackRolled)
    assert (["Cutlass", "Brawler"], 4, 10, Outcome.HIT, 3) == (
        [u.quality for u in attack.roll.qualities],
        attack.roll.modifier,
        attack.roll.total,
        attack.outcome,
        attack.ranks,
    )


def test_every_tie_of_a_split_attack_waits_to_be_rolled_again(game: Engine) -> None:
    """Split between the Ninja and the Boss's Nerve (+0): 7 and 7 tie both; both ties are
    recorded, and rolled again one after the other (R-PDQ-12, PDQ-A1)."""
    command = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja", "Boss:Nerve"))
    events = run(game, command, 3, 4, 5, 2)
    assert ["Ninja", "Boss"] == [t.setup.defender for t in of(events, ev.ConflictTied)]
    assert 2 == len(who(game, "Neo").ties)
    run(game, Reroll(), 1, 1)
    assert ["Boss"] == [t.setup.defender for t in who(game, "Neo").ties]


def test_a_complicated_roll_is_on_six_sided_dice(game: Engine) -> None:
    """2d6: a 7 is no face of a d6 (InvalidDieFace), nothing is recorded."""
    command = RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Good")
    refused(game, command, InvalidDieFace, 7, 1)


def test_an_adventure_needs_a_name(game: Engine) -> None:
    """EmptyText names the adventure's name (R-PDQ-14)."""
    error = refused(game, CompleteAdventure(adventure="  "), EmptyText)
    assert "the adventure's name must not be empty" == error.reason


def test_only_player_characters_earn_and_spend_upgrades(game: Engine) -> None:
    """NotAPlayerCharacter names what NPCs cannot do and the rule (Characters Improvement)."""
    command = AnnounceMission(mission="The Vault", characters=("Boss",))
    error = refused(game, command, NotAPlayerCharacter)
    assert {
        "name": "Boss",
        "what": "earn and spend upgrades",
        "rule": "Characters Improvement",
    } == error.data


def test_coming_back_names_the_quality_that_was_below_poor(game: Engine) -> None:
    """Hiding went to Poor and Charisma below it: back in the scene names Charisma, the one
    that was zeroed, not the Poor Hiding listed before it (R-PDQ-08)."""
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    run(game, AllocateRanks(character="Neo", steps=("Hiding", "Charisma")))
    events = game.execute(NAME, EndScene()).events
    assert [ev.CharacterReturnedToScene(quality="Charisma")] == of(
        events, ev.CharacterReturnedToScene
    )


def test_a_recovery_roll_for_nothing_lost_is_refused(game: Engine) -> None:
    """NothingToRecover names the character (R-PDQ-13 NoLostRanks)."""
    error = refused(game, AuthorizeRecovery(character="Neo"), errors.NothingToRecover)
    assert {"name": "Neo"} == error.data


def test_failure_ranks_wait_for_the_recovery_roll_by_default(game: Engine) -> None:
    """Continuing danger, default rules: Neo's Failure Rank on Hiding does not come back at the
    end of the scene; his recovery roll brings it back (R-PDQ-13, PDQ-A3)."""
    _hit_neo_once(game, RankKind.FAILURE, "Hiding")
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    events = game.execute(NAME, EndScene()).events
    assert ([], 1) == (of(events, ev.RanksRecovered), len(of(events, ev.RecoveryRollAuthorized)))
    recovered = run(game, RollRecovery(character="Neo", steps=("Hiding",)), 2)
    assert [ev.RankRecovered(quality="Hiding", before=0, after=1)] == of(
        recovered, ev.RankRecovered
    )
    assert 0 == who(game, "Neo").lost


def test_recovered_ranks_name_the_quality_that_brought_him_back(game: Engine) -> None:
    """Hiding at Poor and Charisma zeroed: placing Hiding first, then Charisma, he is back in
    the scene by Charisma (R-PDQ-13, G-PDQ-20)."""
    run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 5, 4)
    run(game, AllocateRanks(character="Neo", steps=("Hiding", "Charisma")))
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    game.execute(NAME, EndScene())
    events = run(game, RollRecovery(character="Neo", steps=("Hiding", "Charisma")), 5)
    assert [ev.CharacterReturnedToScene(quality="Charisma")] == of(
        events, ev.CharacterReturnedToScene
    )


def test_the_dead_do_not_stop_the_others_recovering(game: Engine) -> None:
    """Neo is dead; the Boss, hurt by the Ninja, still gets every rank back at the end of a
    momentary scene (R-PDQ-13)."""
    _knock_neo_out(game)
    run(game, Kill(attacker="Boss", victim="Neo"))
    run(game, Attack(attacker="Ninja", qualities=(), targets=("Boss:Brawler",)), 6, 5)
    run(game, AllocateRanks(character="Boss", steps=("Nerve", "Brawler")))
    events = game.execute(NAME, EndScene()).events
    assert 1 == len(of(events, ev.RanksRecovered))
    assert (0, True) == (who(game, "Boss").lost, who(game, "Neo").killed)


def test_a_recovery_roll_is_one_six_sided_die(game: Engine) -> None:
    """1d6: a 7 is refused (InvalidDieFace) (R-PDQ-13)."""
    _knock_neo_out(game)
    run(game, AuthorizeRecovery(character="Neo"))
    refused(game, RollRecovery(character="Neo"), InvalidDieFace, 7)


def test_a_sender_who_is_not_at_the_table_is_no_member(engine: Engine) -> None:
    """NotAMember names a sender with no seat at the table (Behind the Scenes)."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="Morpheus", body="x", by="mallory", character="Smith")
    assert {"who": "mallory"} == refused_as(engine, command, "Morpheus", NotAMember).data


def test_a_message_must_say_something(engine: Engine) -> None:
    """EmptyText names the message (Behind the Scenes)."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="bob", body="  ", by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", EmptyText)
    assert "the message must not be empty" == str(error)


def test_an_unknown_difficulty_is_quoted_back(game: Engine) -> None:
    """UnknownRank quotes the difficulty as typed (Ranks)."""
    command = JudgeSimple(character="Neo", quality="Cutlass", difficulty="Legendary")
    assert {"rank": "Legendary"} == refused(game, command, errors.UnknownRank).data


def test_a_secondary_npc_falling_takes_its_ranks_at_once(game: Engine) -> None:
    """A hazardous fall of the Ninja (Average, +0): 2 against Good's 9 is 7 Damage Ranks; his one
    track takes two and he is out, the rest discarded (R-PDQ-04 hazardous, PDQ-A16)."""
    command = RollComplicated(
        character="Ninja", qualities=(), difficulty="Good", task="the roof", hazardous=True
    )
    events = run(game, command, 1, 1)
    assert [(1, 0), (0, -1)] == [(e.before, e.after) for e in of(events, ev.QualityDownshifted)]
    assert [ev.CharacterOutOfScene(quality="Henchman", turn=0)] == of(
        events, ev.CharacterOutOfScene
    )
    assert [ev.RanksDiscarded(count=5)] == of(events, ev.RanksDiscarded)


def test_recovered_ranks_are_placed_before_acting(game: Engine) -> None:
    """RecoveryChoicePending: Neo rolled his recovery and must place the rank before he acts
    (R-PDQ-13)."""
    _hit_neo_once(game, RankKind.DAMAGE, "Hiding")
    run(game, AuthorizeRecovery(character="Neo"))
    run(game, RollRecovery(character="Neo"), 3)
    command = JudgeSimple(character="Neo", quality="Cutlass", difficulty="Poor")
    error = refused(game, command, errors.RecoveryChoicePending)
    assert {"name": "Neo", "count": 1} == error.data
