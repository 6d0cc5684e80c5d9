"""The Sims RPG against DIGEST §3.3's catalogue: every event and every error the digest names
exists in the product, under its own name or under the product's (the mapping tables below give
each difference its reason), and every error code of ``domain/rulesets/sims/errors.py`` is
raised by a test.

How the last is checked: this module runs one refusal per code itself, through the engine (each
proves its code and that nothing was appended), and ``test_every_error_code_has_a_refusal``
holds the table to the set of codes ``errors.py`` defines. That is robust where collecting the
codes other test files happen to raise is not: it does not depend on which files or tests a run
selects (``-k``, one file, workers splitting the suite), nor on their order, and a new error
class without a refusal here fails at once, naming its code. The catalogue's lists are compared
with the digest itself (``docs/rules-digest.md``).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from attrs import frozen

from domain import errors as shared_errors
from domain import events as shared_events
from domain.commands import Command
from domain.errors import DomainError
from domain.events import Event
from domain.lifecycle import EndScene
from domain.posts import WritePost
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import (
    AllocateRanks,
    AnnounceMission,
    Attack,
    AuthorizeRecovery,
    CreateCharacter,
    DeclareStrategy,
    EndTurn,
    JudgeSimple,
    Kill,
    PlaceRecovery,
    ReplaceQuality,
    Reroll,
    RollComplicated,
    RollRecovery,
    SetTurnOrder,
    SucceedCampaign,
    SucceedMission,
    TakeMasterPlus,
    TakeRebirth,
    UpgradeQuality,
)
from domain.rulesets.sims.tables import RankKind, SheetKind
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count
from tests.golden.test_sims import NAME, STARTING_SHEET
from tests.golden.test_sims_rulings import GM, table

DIGEST = Path(__file__).parents[2] / "docs" / "rules-digest.md"

# --- The catalogue (DIGEST §3.3) ----------------------------------------------------------------

DIGEST_EVENTS = [
    "SimsCharacterCreated",
    "CustomSheetCreated",
    "QualityReplaced",
    "SecondaryNpcCreated",
    "SimpleSituationResolved",
    "SituationEscalated",
    "ComplicatedSituationRolled",
    "TurnOrderSet",
    "TurnStarted",
    "ConflictAttackRolled",
    "ConflictTied",
    "DamageRanksInflicted",
    "QualityDownshifted",
    "RanksDiscarded",
    "CharacterOutOfScene",
    "CharacterReturnedToScene",
    "CharacterKilled",
    "StrategyDeclared",
    "StrategyExpired",
    "FullDefensePenaltyConsumed",
    "UpshiftGranted",
    "DownshiftImposed",
    "DangerModeSet",
    "SceneEnded",
    "RanksRecovered",
    "RecoveryRolled",
    "RankRecovered",
    "RecoveryWasted",
    "RecoveryRollAuthorized",
    "AdventureCompleted",
    "CampaignSucceeded",
    "UpgradeMissionAnnounced",
    "UpgradeMissionSucceeded",
    "UpgradeGranted",
    "QualityUpgraded",
    "MasterPlusTaken",
    "CharacterReborn",
    "PrivateMessageSent",
    "GmRuled",
    "RulingReverted",
    "SceneStarted",
]

# The errors R-PDQ-01..15 (and the resolution procedure, §3.2) name.
DIGEST_ERRORS = [
    "WrongQualityCount",
    "WrongCombatQualityCount",
    "WrongRankDistribution",
    "DuplicateQualityName",
    "GmApprovalRequired",
    "QualityNotOwned",
    "ActorOutOfScene",
    "InvalidDifficultyRank",
    "SimpleSituationNoRollNeeded",
    "NotYourTurn",
    "TargetOutOfScene",
    "TieRerollPending",
    "AllocationPending",
    "AllocationCountMismatch",
    "QualityAlreadyZeroed",
    "StepsAfterOutOfScene",
    "VictimNotOutOfScene",
    "NotAttackersTurn",
    "NotAPhysicalConflict",
    "StrategyAlreadyActive",
    "NotInConflict",
    "ContributorOutOfScene",
    "NoLostRanks",
    "RecoveryNotAuthorized",
    "AboveBaseRank",
    "RecoveryStepCountMismatch",
    "NoUpgradeAvailable",
    "QualityAlreadyMaster",
    "NotEnoughMasters",
    "HasMasterPlusQualities",
    "TooManyExtraordinary",
]

# digest name -> (the product's names, why they differ)
EVENTS_MAPPED: Mapping[str, tuple[tuple[str, ...], str]] = {
    "SimsCharacterCreated": (
        ("CharacterCreated",),
        "one event for every sheet: `kind` pc and `custom` false is a sheet by the creation rules",
    ),
    "CustomSheetCreated": (
        ("CharacterCreated",),
        "`custom` true is the digest's validationBypassed (the GM's sheets, PDQ-X2)",
    ),
    "SecondaryNpcCreated": (
        ("CharacterCreated",),
        "`kind` secondary: one Difficulty rank, one rank track (PDQ-A16)",
    ),
    "UpshiftGranted": (
        ("ComplicatedSituationRolled", "ConflictAttackRolled"),
        "Being Badass is the GM's parameter of the roll's ruling (`--badass`, recorded in its "
        "header); the roll's event carries it resolved, a Shift whose source is Being Badass; "
        "it is contested by disputing, undoing or amending that ruling",
    ),
    "DownshiftImposed": (
        ("ComplicatedSituationRolled", "ConflictAttackRolled"),
        "a GM penalty is the roll's `--penalty WHY`, carried as a Shift whose source is GM "
        "penalty, as for Being Badass",
    ),
    "DangerModeSet": (("DangerDeclared",), "the GM's `danger` ruling, per character"),
    "SceneEnded": (
        ("SceneEnded", "SceneWrappedUp"),
        "the shared SceneEnded on the campaign's stream; each character's scene state ends "
        "with SceneWrappedUp, which carries the danger it was in",
    ),
    "RecoveryWasted": (
        ("RecoveryRolled",),
        "the surplus of a recovery roll is RecoveryRolled.wasted, beside the die",
    ),
    "CampaignSucceeded": (
        ("UpgradeGranted",),
        "the `campaign-success` ruling records, on each living PC's stream, the upgrade it earned",
    ),
    "UpgradeMissionSucceeded": (
        ("UpgradeGranted",),
        "`mission succeed` records UpgradeGranted with its `mission` on each character it was "
        "announced to",
    ),
    "GmRuled": (
        ("RulingMade",),
        "every command is one ruling whose header keeps the GM's calls (difficulty, quality "
        "ruled relevant, kind of ranks, shifts) as parameters, with the dice: undo and amend "
        "work on it",
    ),
    "RulingReverted": (("RulingRetracted",), "the shared undo event"),
}

# digest name -> (the product's error classes, why they differ)
ERRORS_MAPPED: Mapping[str, tuple[tuple[str, ...], str]] = {
    "InvalidDifficultyRank": (
        ("UnknownRank",),
        "a difficulty is written as a rank; one not on the Master Chart is UNKNOWN_RANK, as for "
        "a quality's rank",
    ),
    "QualityAlreadyZeroed": (
        ("StepsAfterOutOfScene", "TargetOutOfScene"),
        "a quality below Poor puts the character out: no ranks are dealt to a character out of "
        "the scene (TARGET_OUT_OF_SCENE), and a step after the one that zeroes a quality is "
        "STEPS_AFTER_OUT_OF_SCENE, so no step can land on a zeroed quality",
    ),
    "NotAttackersTurn": (
        ("NotYourTurn", "KillNotOnNextTurn"),
        "the kill is a statement on the attacker's own turn (NOT_YOUR_TURN, as for an attack) "
        "and not on the turn the victim went out (KILL_NOT_ON_NEXT_TURN)",
    ),
    "NotInConflict": (
        ("SceneNotActive",),
        "a conflict happens in a scene: a strategy outside one is SCENE_NOT_ACTIVE. In a scene "
        "any attack is a conflict, with or without `turns` (Ex. 9 and 10 play strategies in "
        "one-off attacks), so a strategy is not refused for want of a turn order",
    ),
    "NoLostRanks": (("NothingToRecover",), "the same refusal under the product's name"),
}


def _classes(module: object, base: type) -> dict[str, type]:
    return {
        name: value
        for name, value in vars(module).items()
        if inspect.isclass(value) and issubclass(value, base) and value is not base
    }


PRODUCT_EVENTS = _classes(shared_events, Event) | _classes(ev, Event)
PRODUCT_ERRORS = _classes(shared_errors, DomainError) | _classes(errors, DomainError)


def test_the_catalogue_is_the_digests() -> None:
    """The lists above are DIGEST §3.3's: its event catalogue (41) and every error its rules
    name ("Errors: ..."); the mappings name only catalogue entries."""
    text = DIGEST.read_text(encoding="utf-8")
    rules = text.split("## 3. SIMS", 1)[1].split("### 3.3", 1)[1].split("### 3.4", 1)[0]
    catalogue = rules.split("**PDQ event catalogue (41):**", 1)[1].split("\n\n", 1)[0]
    assert 41 == len(set(DIGEST_EVENTS)) == len(DIGEST_EVENTS)
    assert sorted(DIGEST_EVENTS) == sorted(re.findall(r"`(\w+)`", catalogue))
    named: set[str] = set()
    for listed in re.findall(r"Errors?:?\s(.*)", rules):
        named |= set(re.findall(r"`([A-Z]\w+)", listed))
    assert sorted(DIGEST_ERRORS) == sorted(named)
    assert set(EVENTS_MAPPED) <= set(DIGEST_EVENTS)
    assert set(ERRORS_MAPPED) <= set(DIGEST_ERRORS)


@pytest.mark.parametrize("name", DIGEST_EVENTS)
def test_every_catalogue_event_exists(name: str) -> None:
    """Under its own name (a Sims or a shared event), or under the product's, with a reason."""
    if name in EVENTS_MAPPED:
        names, reason = EVENTS_MAPPED[name]
        assert reason.strip()
        assert name not in _classes(ev, Event), f"{name} exists: drop its mapping"
        for product in names:
            assert product in PRODUCT_EVENTS, f"{name} -> {product}: no such event"
    else:
        assert name in PRODUCT_EVENTS, f"{name}: neither an event nor mapped"


@pytest.mark.parametrize("name", DIGEST_ERRORS)
def test_every_catalogue_error_exists(name: str) -> None:
    """Under its own name (a Sims or a shared refusal), or the product's, with a reason."""
    if name in ERRORS_MAPPED:
        names, reason = ERRORS_MAPPED[name]
        assert reason.strip()
        assert name not in PRODUCT_ERRORS, f"{name} exists: drop its mapping"
        for product in names:
            assert product in PRODUCT_ERRORS, f"{name} -> {product}: no such error"
    else:
        assert name in PRODUCT_ERRORS, f"{name}: neither an error nor mapped"


# --- One refusal per error code of errors.py ---------------------------------------------------


@frozen
class Refusal:
    """Given these rulings (command, faces), ``when`` by ``actor`` is refused with ``code``."""

    code: str
    when: Command
    given: Sequence[tuple[Command, tuple[int, ...]]] = ()
    faces: tuple[int, ...] = ()
    actor: str | None = None
    house_rules: Mapping[str, str] = {}


def npc(*qualities: str, kind: SheetKind = SheetKind.NPC) -> CreateCharacter:
    return CreateCharacter(character="X", player="GM", qualities=qualities, kind=kind)


def pc(*qualities: str, name: str = "Trinity", custom: bool = True) -> CreateCharacter:
    return CreateCharacter(character=name, player="alice", qualities=qualities, custom=custom)


def masters(count: int, *more: str) -> CreateCharacter:
    """A GM sheet for Trinity with ``count`` Master qualities (and ``more``)."""
    return pc(*(f"M{n}:Combat:Master" for n in range(count)), *more)


def sheet_with(old: str, new: str) -> tuple[str, ...]:
    return tuple(new if q == old else q for q in STARTING_SHEET)


def roll(who: str, *qualities: str, task: str = "", **options: object) -> RollComplicated:
    return RollComplicated(
        character=who, qualities=qualities, difficulty="Good", task=task, **options
    )


def attack(who: str, quality: str, *targets: str, **options: object) -> Attack:
    return Attack(attacker=who, qualities=(quality,), targets=targets, **options)


def message(*to: str, text: str = "psst", **options: object) -> WritePost:
    """Behind the Scenes: a private post (``post --to``)."""
    return WritePost(text=text, to=to, by=str(options.pop("by", GM)), **options)


NINJA_OUT = ((attack("Cypher", "Knives", "Ninja"), (5, 6)),)  # 13 vs TN 7: out, 2 discarded
NINJA_TALKED_OUT = ((attack("Cypher", "Knives", "Ninja", kind=RankKind.FAILURE), (5, 6)),)
NEO_HIT_HARD = ((attack("Smith", "Kung Fu", "Neo:Kung Fu"), (6, 6)),)  # 16 vs 9: 7 ranks
NEO_HIT_TWICE = ((attack("Cypher", "Knives", "Neo:Kung Fu"), (5, 4)),)  # 11 vs 9: 2 ranks
NEO_HURT = (
    (attack("Cypher", "Knives", "Neo:Kung Fu"), (4, 4)),  # 10 vs 9: 1 rank
    (AllocateRanks(character="Neo", steps=("Outdoorsman",)), ()),
)
NEO_MAY_RECOVER = (*NEO_HURT, (AuthorizeRecovery(character="Neo"), ()))
KUNG_FU_TO_ZERO = ("Kung Fu", "Kung Fu", "Kung Fu", "Outdoorsman")
CAMPAIGN_WON = (SucceedCampaign(), ())
EXTRAS = ("Psi:psychic", "Flight:extraordinary", "Parkour", "Disguise")

REFUSALS = [
    # Sheets (Qualities, Ranks)
    Refusal("UNREADABLE_QUALITY", npc("Cutlass")),
    Refusal("UNKNOWN_AREA", npc("Cutlass:Sea:Good")),
    Refusal("UNKNOWN_RANK", npc("Cutlass:Combat:Superb")),
    Refusal("WRONG_QUALITY_COUNT", pc(*STARTING_SHEET[:9], custom=False)),
    Refusal(
        "WRONG_COMBAT_QUALITY_COUNT",
        pc(*sheet_with("Judo:Combat:Average", "Judo:Physical:Average"), custom=False),
    ),
    Refusal(
        "WRONG_AREA",
        pc(*sheet_with("Hiding:Physical:Average", "Hiding:Extraordinary:Average"), custom=False),
    ),
    Refusal(
        "WRONG_RANK_DISTRIBUTION",
        pc(*sheet_with("Judo:Combat:Average", "Judo:Combat:Good"), custom=False),
    ),
    Refusal("DUPLICATE_QUALITY_NAME", npc("Cutlass:Combat:Good", "cutlass:Combat:Poor")),
    Refusal("SECONDARY_NEEDS_ONE_RANK", npc("A:Good", "B:Good", kind=SheetKind.SECONDARY)),
    Refusal("NO_QUALITIES", npc()),
    Refusal("QUALITY_NOT_OWNED", roll("Neo", "Piano")),
    Refusal(
        "GM_APPROVAL_REQUIRED",
        ReplaceQuality(character="Neo", quality="Outdoorsman", new_name="Parkour"),
    ),
    # Acting, conflicts
    Refusal("ACTOR_OUT_OF_SCENE", roll("Ninja"), NINJA_OUT),
    Refusal("TARGET_OUT_OF_SCENE", attack("Neo", "Kung Fu", "Ninja"), NINJA_OUT, (6, 6)),
    Refusal("CONTRIBUTOR_OUT_OF_SCENE", roll("Neo", "Kung Fu", helpers=("Ninja",)), NINJA_OUT),
    Refusal("ALLOCATION_PENDING", roll("Cypher", "Knives"), NEO_HIT_HARD, (3, 3)),
    Refusal(
        "TIE_REROLL_PENDING",
        roll("Neo", "Kung Fu"),
        ((attack("Cypher", "Knives", "Smith:Kung Fu"), (4, 5)),),  # 11 vs TN 11: tied
        (3, 3),
    ),
    Refusal("NO_TIE_TO_REROLL", Reroll()),
    Refusal(
        "SIMPLE_SITUATION_NO_ROLL_NEEDED",
        roll("Neo", "Outdoorsman", task="the wall"),
        (
            (
                JudgeSimple(
                    character="Neo", quality="Outdoorsman", difficulty="Poor", task="the wall"
                ),
                (),
            ),
        ),
        (3, 3),
    ),
    Refusal(
        "RECOVERY_CHOICE_PENDING",
        RollRecovery(character="Neo"),
        (*NEO_MAY_RECOVER, (RollRecovery(character="Neo"), (3,))),
        (3,),
    ),
    Refusal(
        "NOT_YOUR_TURN",
        attack("Neo", "Kung Fu", "Smith"),
        ((SetTurnOrder(entries=("Smith:Kung Fu", "Neo:Kung Fu")), ()),),
        (6, 6),
    ),
    Refusal("CANNOT_ATTACK_SELF", attack("Neo", "Kung Fu", "Neo"), faces=(6, 6)),
    Refusal("DEFENDER_TWICE", attack("Neo", "Kung Fu", "Ninja", "Ninja"), faces=(6, 6)),
    Refusal("NO_TARGETS", attack("Neo", "Kung Fu")),
    Refusal("KILLING_NOT_CHOSEN", attack("Neo", "Kung Fu", "Ninja", killing=True), faces=(6, 6)),
    Refusal(
        "STRATEGY_ALREADY_ACTIVE",
        DeclareStrategy(character="Neo", strategy="full-defense"),
        ((DeclareStrategy(character="Neo", strategy="full-defense"), ()),),
    ),
    Refusal("UNKNOWN_STRATEGY", DeclareStrategy(character="Neo", strategy="turtle")),
    Refusal(
        "NOT_A_DEFENDER",
        attack("Neo", "Kung Fu", "Ninja", full_defense=("Cypher",)),
        faces=(6, 6),
    ),
    # Damage and recovery
    Refusal("NO_ALLOCATION_PENDING", AllocateRanks(character="Neo", steps=("Kung Fu",))),
    Refusal(
        "ALLOCATION_COUNT_MISMATCH",
        AllocateRanks(character="Neo", steps=("Outdoorsman",)),
        NEO_HIT_TWICE,
    ),
    Refusal(
        "STEPS_AFTER_OUT_OF_SCENE",
        AllocateRanks(character="Neo", steps=KUNG_FU_TO_ZERO),
        NEO_HIT_HARD,
    ),
    Refusal(
        "BOTTOM_OUT_LAST",
        AllocateRanks(character="Neo", steps=KUNG_FU_TO_ZERO),
        NEO_HIT_HARD,
        house_rules={"forceBottomOutLast": "true"},
    ),
    Refusal("NOTHING_TO_RECOVER", RollRecovery(character="Neo"), faces=(3,)),
    Refusal("RECOVERY_NOT_AUTHORIZED", RollRecovery(character="Neo"), NEO_HURT, (3,)),
    Refusal("RECOVERY_ALREADY_AUTHORIZED", AuthorizeRecovery(character="Neo"), NEO_MAY_RECOVER),
    Refusal("NO_RECOVERY_PENDING", PlaceRecovery(character="Neo", steps=("Outdoorsman",))),
    Refusal(
        "RECOVERY_STEP_COUNT_MISMATCH",
        RollRecovery(character="Neo", steps=("Outdoorsman", "Kung Fu")),
        NEO_MAY_RECOVER,
        (3,),
    ),
    Refusal(
        "ABOVE_BASE_RANK",
        RollRecovery(character="Neo", steps=("Kung Fu",)),
        NEO_MAY_RECOVER,
        (3,),
    ),
    Refusal("VICTIM_NOT_OUT_OF_SCENE", Kill(attacker="Neo", victim="Ninja")),
    Refusal("NOT_A_PHYSICAL_CONFLICT", Kill(attacker="Cypher", victim="Ninja"), NINJA_TALKED_OUT),
    Refusal(
        "KILL_NOT_ON_NEXT_TURN",
        Kill(attacker="Cypher", victim="Ninja"),
        ((SetTurnOrder(entries=("Neo:Kung Fu", "Cypher:Knives")), (1, 6)), *NINJA_OUT),
    ),
    Refusal("SCENE_HAS_UNFINISHED_BUSINESS", EndScene(), NEO_HIT_TWICE),
    # Improvement
    Refusal("NO_UPGRADE_AVAILABLE", UpgradeQuality(character="Neo", quality="Kung Fu")),
    Refusal(
        "QUALITY_ALREADY_MASTER",
        UpgradeQuality(character="Trinity", quality="M0"),
        ((masters(1), ()), CAMPAIGN_WON),
    ),
    Refusal("MISSION_NOT_ANNOUNCED", SucceedMission(mission="The Vault")),
    Refusal(
        "MISSION_ALREADY_ANNOUNCED",
        AnnounceMission(mission="The Vault", characters=("Neo",)),
        ((AnnounceMission(mission="The Vault", characters=("Neo",)), ()),),
    ),
    Refusal(
        "NOT_ENOUGH_MASTERS",
        TakeMasterPlus(character="Neo", qualities=("Psi", "Flight")),
        (CAMPAIGN_WON,),
    ),
    Refusal(
        "HAS_MASTER_PLUS_QUALITIES",
        TakeRebirth(character="Trinity", qualities=STARTING_SHEET, extra=EXTRAS),
        ((masters(6, "Telepathy:Master+:Good"), ()), CAMPAIGN_WON),
    ),
    Refusal(
        "TOO_MANY_EXTRAORDINARY",
        TakeRebirth(character="Trinity", qualities=STARTING_SHEET, extra=EXTRAS),
        ((masters(6), ()), CAMPAIGN_WON),
    ),
    Refusal(
        "WRONG_EXTRA_COUNT",
        TakeMasterPlus(character="Trinity", qualities=("Flight",)),
        ((masters(3), ()), CAMPAIGN_WON),
    ),
    Refusal("TURN_ORDER_TOO_SHORT", SetTurnOrder(entries=("Neo:Kung Fu",))),
    Refusal("NO_TURN_ORDER", EndTurn()),
    # Behind the Scenes
    Refusal("MESSAGE_TO_SELF", message("bob", by="bob", character="Cypher"), actor="bob"),
    Refusal("OBSERVER_CANNOT_MESSAGE", message("olly", character="Smith")),
    Refusal("MESSAGE_NEEDS_CHARACTER", message("carol")),
    Refusal("MESSAGE_TO_ONE_MEMBER", message("alice", "bob", character="Smith")),
]


def test_every_error_code_has_a_refusal() -> None:
    """The table below covers exactly the codes ``errors.py`` defines, once each."""
    defined = {cls.code for cls in _classes(errors, DomainError).values()}
    listed = [case.code for case in REFUSALS]
    assert len(listed) == len(set(listed))
    assert defined == set(listed)


@pytest.mark.parametrize("case", REFUSALS, ids=[case.code for case in REFUSALS])
def test_each_error_code_is_raised(engine: Engine, case: Refusal) -> None:
    """The refusal comes with its code, and nothing is appended."""
    table(engine, **case.house_rules)
    for command, faces in case.given:
        engine.execute(NAME, command, dice=DiceSpec(faces=faces))
    before = event_count(engine)
    with pytest.raises(DomainError) as raised:
        engine.execute(NAME, case.when, actor=case.actor, dice=DiceSpec(faces=case.faces))
    assert case.code == raised.value.code, raised.value.reason
    assert before == event_count(engine)
