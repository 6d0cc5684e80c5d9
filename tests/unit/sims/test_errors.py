"""Every Sims refusal (errors.py, DIGEST 0.3): its typed error, the rule it names and the data it
carries, with nothing appended."""

from __future__ import annotations

import pytest

from domain.commands import Command
from domain.errors import DomainError, NameTaken, NotAPlayerCharacter, UnknownCharacter
from domain.rulesets.sims import errors
from domain.rulesets.sims.commands import (
    AllocateRanks,
    Attack,
    CreateCharacter,
    EndTurn,
    JudgeSimple,
    Kill,
    ReplaceQuality,
    RollComplicated,
    RollRecovery,
    SetTurnOrder,
    SucceedMission,
    UpgradeQuality,
)
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count
from tests.golden.test_catalogue_sims import REFUSALS, Refusal
from tests.golden.test_sims import NAME, STARTING_SHEET, refused
from tests.golden.test_sims_rulings import table as catalogue_table


@pytest.mark.parametrize(
    ("command", "error"),
    [
        pytest.param(
            RollComplicated(character="Neo", qualities=("Flying",), difficulty="Good"),
            errors.QualityNotOwned,
            id="unknown-quality",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank",
                player="carol",
                qualities=(*STARTING_SHEET, "Extra:Mental:Average", "More:Mental:Average"),
            ),
            errors.WrongQualityCount,
            id="a-twelfth-quality",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank",
                player="carol",
                qualities=(*STARTING_SHEET[:9], "Extra:Combat:Average"),
            ),
            errors.WrongCombatQualityCount,
            id="three-combat-qualities",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank",
                player="carol",
                qualities=(*STARTING_SHEET[:9], "Cutlass:Mental:Average"),
            ),
            errors.DuplicateQualityName,
            id="duplicate-quality",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank", player="carol", qualities=("Gunnery:Sky:Good",), custom=True
            ),
            errors.UnknownArea,
            id="unknown-area",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank", player="carol", qualities=("Gunnery:Combat:Superb",), custom=True
            ),
            errors.UnknownRank,
            id="unknown-rank",
        ),
        pytest.param(
            CreateCharacter(
                character="Neo", player="carol", qualities=("Gunnery:Combat:Good",), custom=True
            ),
            NameTaken,
            id="name-taken",
        ),
        pytest.param(
            JudgeSimple(character="Neo", quality="Cutlass", difficulty="Legendary"),
            errors.UnknownRank,
            id="bad-difficulty",
        ),
        pytest.param(
            Attack(attacker="Neo", qualities=("Cutlass",), targets=("Neo",)),
            errors.CannotAttackSelf,
            id="self",
        ),
        pytest.param(
            Attack(attacker="Neo", qualities=("Cutlass",), targets=()),
            errors.NoTargets,
            id="no-targets",
        ),
        pytest.param(
            Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
            errors.KillingNotChosen,
            id="killing-needs-house-rule",
        ),
        pytest.param(
            AllocateRanks(character="Neo", steps=("Cutlass",)),
            errors.NoAllocationPending,
            id="nothing-owed",
        ),
        pytest.param(
            RollRecovery(character="Neo"), errors.NothingToRecover, id="nothing-to-recover"
        ),
        pytest.param(
            UpgradeQuality(character="Neo", quality="Cutlass"),
            errors.NoUpgradeAvailable,
            id="no-upgrade",
        ),
        pytest.param(
            UpgradeQuality(character="Boss", quality="Brawler"),
            NotAPlayerCharacter,
            id="npc-upgrade",
        ),
        pytest.param(
            ReplaceQuality(character="Neo", quality="Sailor", new_name="Parkour"),
            errors.GmApprovalRequired,
            id="no-approval",
        ),
        pytest.param(
            Kill(attacker="Neo", victim="Ninja"), errors.VictimNotOutOfScene, id="kill-standing"
        ),
        pytest.param(
            SucceedMission(mission="The Vault"),
            errors.MissionNotAnnounced,
            id="mission-unannounced",
        ),
        pytest.param(
            SetTurnOrder(entries=("Neo:Cutlass",)), errors.TurnOrderTooShort, id="one-sided"
        ),
        pytest.param(EndTurn(), errors.NoTurnOrder, id="no-conflict"),
        pytest.param(
            RollComplicated(character="Nobody", qualities=(), difficulty="Good"),
            UnknownCharacter,
            id="unknown-character",
        ),
    ],
)
def test_bad_commands_are_refused_and_append_nothing(
    game: Engine, command: Command, error: type[DomainError]
) -> None:
    """Each bad command is refused with its typed reason, and nothing is recorded."""
    refused(game, command, error, 3, 3)


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
        "neither Morpheus nor carol plays a character: a private message is written to or from "
        "a character's player, or as a character (--character NAME) (Behind the Scenes)"
    ),
    "MESSAGE_TO_ONE_MEMBER": (
        "a private message is written to one member, not to alice, bob: write to each in a post "
        "of its own (Behind the Scenes)"
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
