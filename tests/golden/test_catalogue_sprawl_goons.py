"""DIGEST §2's catalogues against the product: every Sprawl Goons event and error the DIGEST
names exists (under its own name, or under the product's name in the mapping tables below, each
with its reason), and every error code of ``domain/rulesets/sprawl_goons/errors.py`` is raised.

How "every error code is raised" is checked: ``REFUSALS`` below holds one refusal per code, run
here through the engine against one prepared table (a refusal appends nothing, so every case
meets the same state), and a test asserts that the codes in ``REFUSALS`` cover every class in
``errors.py``. This does not depend on which other test files run, their order or a test-run
hook: a new error class without a refusal here fails at once, as does a refusal that no longer
raises its code or that appends anything. The mapped codes (the shared ``NOT_ALLOWED``,
``CHARACTER_DEAD``, ...) have their refusals here too.

The names below are also checked against the digest's text (``docs/rules-digest.md``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from attrs import frozen
from freezegun import freeze_time

import domain.events
from domain.commands import Command
from domain.errors import DomainError
from domain.events import Event, Role
from domain.lifecycle import StartScene, StartSession
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    AddItem,
    ApplyPatch,
    Attack,
    ChangeCash,
    CompleteMission,
    CreateCharacter,
    CreateNpc,
    Detonate,
    DisableCyberLimb,
    EndRound,
    Extinguish,
    Fall,
    GiveFirstAid,
    GiveMedicalAttention,
    Hack,
    Ignite,
    LevelUp,
    MakeActionRoll,
    Reload,
    RepairCyberLimb,
    Rest,
    RollInitiative,
    RuleBulkiness,
    SlagArmour,
    TakeAim,
    ThrowGrenade,
    UseItem,
)
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import FROZEN_AT, event_count

DIGEST = Path(__file__).parents[2] / "docs" / "rules-digest.md"

# --- Events ----------------------------------------------------------------------------------

# DIGEST §2.3, "Sprawl Goons event catalogue (42)".
DIGEST_EVENTS = (
    "SgCharacterCreated",
    "ItemAcquired",
    "StartingCashRolled",
    "ActionRolled",
    "DamageDealt",
    "NpcCreated",
    "NpcDsReduced",
    "NpcKilled",
    "ResilienceLost",
    "CriticalInjuryRolled",
    "DeathClockStarted",
    "CharacterDied",
    "ArmourSlagged",
    "CyberLimbDisabled",
    "CyberLimbRepaired",
    "InitiativeRolled",
    "InitiativeOrderSet",
    "RoundStarted",
    "ResilienceRestored",
    "ItemUsed",
    "ItemDropped",
    "ItemDestroyed",
    "ItemBulkinessRuled",
    "MedicalAttentionReceived",
    "CriticalInjuryTreated",
    "MissionCompleted",
    "LevelGained",
    "SystemBreached",
    "MagazineEmptied",
    "BurstFired",
    "WeaponReloaded",
    "AimTaken",
    "AimReset",
    "ExplosiveDetonated",
    "SetOnFire",
    "FireDamageApplied",
    "FireExtinguished",
    "FellDistance",
    "TempModifierApplied",
    "TempModifierExpired",
    "CashChanged",
    "GmRuled",
)

# DIGEST name -> (the product's events that record it, why the names differ).
EVENTS_MAPPED: dict[str, tuple[tuple[str, ...], str]] = {
    "SgCharacterCreated": (
        ("CharacterCreated",),
        "the package names the system; every ruleset's creation event is CharacterCreated",
    ),
    "DamageDealt": (
        ("ResilienceLost",),
        "damage is recorded once, on the stream of whoever takes it: ResilienceLost with cause "
        "'hit', the base margin and each damage bonus with its source",
    ),
    "NpcDsReduced": (
        ("ResilienceLost",),
        "an NPC's DS is also its Resilience (Dangerous Action Roll): the same event on the NPC's "
        "stream, before and after",
    ),
    "NpcKilled": (
        ("CharacterDied",),
        "one death event for PCs and NPCs, its cause 'DS reached 0'",
    ),
    "InitiativeOrderSet": (
        ("InitiativeRolled",),
        "each combatant's InitiativeRolled carries the place it won (place of of) and the d6 "
        "of any roll-off that broke a tie (SG-A10): the order is the events read together",
    ),
    "RoundStarted": (
        ("RoundEnded",),
        "the referee's `round` ends a round (fire burns, the dying die); the next one starts",
    ),
    "ItemDestroyed": (
        ("ItemDropped", "ArmourSlagged", "CyberLimbDisabled"),
        "the rules destroy nothing but slagged armour and a shut-down cybernetic limb (their "
        "own events); anything else wrecked in the fiction leaves the kit with `item drop`",
    ),
    "CriticalInjuryTreated": (
        ("MedicalAttentionReceived",),
        "medical attention treats every untreated injury at once; the event lists them",
    ),
    "AimReset": (
        ("ActionRolled", "SceneEffectsCleared"),
        "an attack's ActionRolled spends the aim it added (the aim modifier is in it); a scene's "
        "end clears what is left",
    ),
    "ExplosiveDetonated": (
        ("ResilienceLost",),
        "the 2d6/3d6 faces are on each victim's ResilienceLost (cause 'planted explosive')",
    ),
    "FireDamageApplied": (
        ("FireBurned", "ResilienceLost"),
        "a round's fire is FireBurned (rounds left) and ResilienceLost with cause 'fire'",
    ),
    "FellDistance": (
        ("ResilienceLost",),
        "a fall is ResilienceLost with cause 'falling' and its distance as the source",
    ),
    "TempModifierExpired": (
        ("SceneEffectsCleared",),
        "boosts last the scene (SG-A15): the scene's end lists what wore off",
    ),
    "GmRuled": (
        ("RulingMade",),
        "a GM judgement call (a DS, an item ruled relevant, a Glitch call) is a parameter of the "
        "command, recorded in the ruling's header (RulingMade) with its dice, so amend can "
        "re-resolve it; the calls with consequences of their own are events (ItemBulkinessRuled)",
    ),
}

# Product events the DIGEST does not name, and why they exist.
PRODUCT_ONLY_EVENTS = {
    "DeathClockTicked": "7+ means death at the end of the next round (SG-A5): the clock's tick",
    "FirstAidReceived": "the firstAidLimit house rule (SG-A7) needs the scene of the last aid",
    "SceneEffectsCleared": "the end of a scene ends drugs, aim, fire and the combat order",
}


def _event_names(module: object) -> set[str]:
    return {
        name
        for name, value in vars(module).items()
        if isinstance(value, type) and issubclass(value, Event) and value is not Event
    }


PRODUCT_EVENTS = _event_names(sg)
SHARED_EVENTS = _event_names(domain.events)


@pytest.mark.parametrize("name", DIGEST_EVENTS)
def test_every_digest_event_exists(name: str) -> None:
    """Each DIGEST event is a Sprawl Goons event of that name, or the mapped product events."""
    if name in EVENTS_MAPPED:
        targets, reason = EVENTS_MAPPED[name]
        assert reason
        assert name not in PRODUCT_EVENTS, f"{name} exists now: drop its mapping"
        assert set(targets) <= PRODUCT_EVENTS | SHARED_EVENTS, targets
    else:
        assert name in PRODUCT_EVENTS


def test_every_product_event_is_accounted_for() -> None:
    """The other way round: each product event is a DIGEST event, a mapping's target, or one of
    the few the product adds (with its reason)."""
    mapped = {t for targets, _ in EVENTS_MAPPED.values() for t in targets}
    unexplained = PRODUCT_EVENTS - set(DIGEST_EVENTS) - mapped - set(PRODUCT_ONLY_EVENTS)
    assert set() == unexplained


# --- Errors ----------------------------------------------------------------------------------

# DIGEST §2.3's errors for Sprawl Goons (each R-SG rule's "Errors", the special rules' table,
# and R-SG-04's "error GlitchUpgradeRefereeOnly"), and §0's RulingRequired and InvalidDieFace
# that R-SG-02 and the dice conventions name.
DIGEST_ERRORS = (
    "NameRequired",
    "StatPointsMustTotalFour",
    "NegativeStat",
    "UnknownStat",
    "StartingItemCountMustBeThree",
    "ItemSpecRequired",
    "CustomItemNeedsApproval",
    "CharacterDead",
    "InvalidDs",
    "ItemNotOwned",
    "ItemUnusable",
    "TargetDead",
    "RulingRequired",
    "GlitchUpgradeRefereeOnly",
    "NotSpeedware",
    "EncounterNotActive",
    "NoIntactArmour",
    "ArmourAlreadySlagged",
    "RestTooShort",
    "AreaNotSafe",
    "NoPatchesLeft",
    "FirstAidKitRequired",
    "HealerMustBeAlly",
    "NoPendingLevelUp",
    "InvalidSecondaryChoice",
    "ConsoleRequired",
    "StatMustBeCognition",
    "InsufficientCash",
    "NoUsesLeft",
    "NpcAlreadyDead",
    "MagazineEmpty",
    "AimLimitReached",
    "TooManyTargets",
    "TargetsNotBunched",
    "StatMustBeReaction",
    "UnknownExplosiveType",
    "FireRoundsOutOfRange",
    "InvalidDistance",
    "InvalidDieFace",
)

# DIGEST name -> (the product's codes for it, why). An empty tuple: the command cannot be given
# the wrong value at all (checked below), so there is nothing to refuse.
ERRORS_MAPPED: dict[str, tuple[tuple[str, ...], str]] = {
    "CustomItemNeedsApproval": (
        ("UNKNOWN_STARTING_ITEM",),
        "an item off the list is refused unless the referee approves it (--custom), which "
        "ItemAcquired records as custom",
    ),
    "TargetDead": (
        ("CHARACTER_DEAD",),
        "one shared refusal for acting on the dead; it names what was attempted ('be attacked')",
    ),
    "NpcAlreadyDead": (("CHARACTER_DEAD",), "as TargetDead: NPCs and PCs die the same way"),
    "RulingRequired": (
        ("DS_REQUIRED",),
        "the ruling an Action Roll needs is the referee's DS (a target's DS is its current one)",
    ),
    "GlitchUpgradeRefereeOnly": (
        ("NOT_ALLOWED",),
        "who acts is checked by the table's policy before any command decides "
        "(domain/rulesets/sprawl_goons/policy.py: --glitch and --upgrade are gm_calls); "
        "a command does not know its actor, so the shared refusal names the rule: "
        "'--glitch is the GM's call'",
    ),
    "EncounterNotActive": (
        ("SCENE_NOT_ACTIVE", "NO_COMBAT"),
        "a fight happens in a scene: initiative outside one is SCENE_NOT_ACTIVE, and ending a "
        "round nobody is fighting (or dying, or burning) in is NO_COMBAT",
    ),
    "NoIntactArmour": (
        ("NOT_ARMOUR",),
        "the player names the armour to slag: an item that is not armour is NOT_ARMOUR, one "
        "slagged already ARMOUR_ALREADY_SLAGGED, none carried ITEM_NOT_OWNED",
    ),
    "NoPendingLevelUp": (("NO_LEVEL_DUE",), "the same refusal: no mission completed since"),
    "InvalidSecondaryChoice": (
        ("UNKNOWN_SECONDARY",),
        "the same refusal: a level raises Resilience or Inventory Score",
    ),
    "TargetsNotBunched": (
        ("ONE_TARGET_ONLY",),
        "only a shotgun at range hits several targets; naming them with --shotgun range is the "
        "referee's ruling that they are bunched",
    ),
    "StatMustBeCognition": (
        (),
        "`hack` takes no stat: the command always rolls Cognition (Hacking)",
    ),
    "StatMustBeReaction": (
        (),
        "`grenade` takes no stat: the command always rolls Reaction against Moderate 10",
    ),
}

SHARED_CODES = {"CHARACTER_DEAD", "INVALID_DIE_FACE"}  # same-named, in domain.errors


def code_of(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


SYSTEM_CODES = {
    value.code
    for value in vars(errors).values()
    if isinstance(value, type) and issubclass(value, DomainError) and value is not DomainError
}


# --- One refusal per code, on one prepared table -------------------------------------------------

CAMPAIGN = "Sprawl"
EMPTY = "Empty"  # a campaign with no player characters and no scene


def _prepare(engine: Engine) -> None:
    """The table every refusal meets (each line is what a refusal below needs)."""
    engine.create_campaign(CAMPAIGN, "sprawl-goons", members={"ana": Role.PLAYER})
    engine.create_campaign(EMPTY, "sprawl-goons")

    def run(command: Command, *faces: int) -> None:
        engine.execute(CAMPAIGN, command, dice=DiceSpec(faces=faces))

    def pc(name: str, player: str, stats: tuple[int, ...], *items: str, dice: int = 3) -> None:
        m, r, c, e = stats
        create = CreateCharacter(
            character=name,
            player=player,
            morphology=m,
            reaction=r,
            cognition=c,
            equilibrium=e,
            items=items,
        )
        run(create, *(1,) * dice)

    run(StartSession())
    run(StartScene(stage="Night market, Chiba"))
    pc("Tanner", "ana", (2, 1, 1, 0), "melee:Katana", "armour:Kevlar jacket", "penlight")
    pc("Katya", "ben", (0, 2, 1, 1), "ranged:SMG", "console", "credit-card", dice=5)
    pc("Doc", "fay", (1, 1, 2, 0), "penlight", "toolkit", "drone")
    pc("Brick", "gil", (2, 1, 1, 0), "armour:Old vest", "implant:Cybernetic arm", "penlight")
    run(AddItem(character="Doc", item="First aid kit", category="gear"))
    run(AddItem(character="Tanner", item="Spent card", category="consumable", uses=1))
    run(UseItem(character="Tanner", item="spent card"))
    run(CreateNpc(character="Zoner", ds="10"))
    run(CreateNpc(character="Ganger", ds="1"))
    run(Fall(character="Ganger", metres=3))  # DS 1 -> 0: dead
    run(CreateNpc(character="Basic system", ds="easy", system=True))
    run(CreateNpc(character="Old system", ds="1", system=True))
    run(Hack(character="Katya", system="Old system", console="console"), 6, 6)  # breached
    # Katya fires full auto at the Zoner: 2+2 + Reaction 2 + 4 = 10, a tie: nobody is hurt.
    run(Attack(character="Katya", targets=("Zoner",), stat="reaction", full_auto="smg"), 2, 2)
    for _ in range(3):
        run(TakeAim(character="Tanner", target="Zoner"))
    # Brick: to 0 (injury 1, severity 1, torso), slags his vest on it; then injury 2 (torso).
    run(Fall(character="Brick", metres=36), 1, 2)
    run(SlagArmour(character="Brick", armour="old vest"))
    run(Fall(character="Brick", metres=3), 1, 3)
    # Tanner hurt (12 -> 11); Doc's first aid fails, and it was this scene's for Tanner.
    run(Fall(character="Tanner", metres=3))
    run(GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid"), 1, 1)


@frozen(kw_only=True)
class Refusal(Plain):
    code: str
    command: Command
    faces: tuple[int, ...] = ()
    campaign: str = CAMPAIGN
    actor: str | None = None


def _new(name: str, stats: tuple[int, int, int, int], *items: str) -> CreateCharacter:
    m, r, c, e = stats
    return CreateCharacter(
        character=name,
        player="cy",
        morphology=m,
        reaction=r,
        cognition=c,
        equilibrium=e,
        items=items,
    )


def _roll(**given: object) -> MakeActionRoll:
    fields: dict[str, object] = {"character": "Tanner", "stat": "reaction", "ds": "8"} | given
    return MakeActionRoll(**fields)  # type: ignore[arg-type]


def _attack(*targets: str, **given: object) -> Attack:
    fields: dict[str, object] = {"character": "Tanner", "targets": targets, "stat": "m"} | given
    return Attack(**fields)  # type: ignore[arg-type]


KIT = ("penlight", "toolkit", "handcuffs")
AID = {"healer": "Doc", "kit": "first aid"}

REFUSALS = (
    # Character creation and items
    Refusal(code="NAME_REQUIRED", command=CreateNpc(character=" ", ds="10")),
    Refusal(
        code="STAT_POINTS_MUST_TOTAL_FOUR", command=_new("Case", (3, 2, 0, 0), *KIT), faces=(1,) * 3
    ),
    Refusal(code="NEGATIVE_STAT", command=_new("Case", (5, 0, 0, -1), *KIT), faces=(1,) * 3),
    Refusal(
        code="STARTING_ITEM_COUNT_MUST_BE_THREE",
        command=_new("Case", (1, 1, 1, 1), *KIT[:2]),
        faces=(1,) * 3,
    ),
    Refusal(
        code="UNKNOWN_STARTING_ITEM",
        command=_new("Case", (1, 1, 1, 1), "penlight", "toolkit", "laser cannon"),
        faces=(1,) * 3,
    ),
    Refusal(
        code="ITEM_SPEC_REQUIRED",
        command=_new("Case", (1, 1, 1, 1), "melee", "penlight", "toolkit"),
        faces=(1,) * 3,
    ),
    Refusal(code="NAME_TAKEN", command=_new("Tanner", (1, 1, 1, 1), *KIT), faces=(1,) * 3),
    Refusal(
        code="UNKNOWN_CATEGORY",
        command=AddItem(character="Tanner", item="Thing", category="weapon"),
    ),
    Refusal(
        code="ITEM_ALREADY_HELD",
        command=AddItem(character="Tanner", item="katana", category="melee"),
    ),
    Refusal(code="ITEM_NOT_OWNED", command=_roll(items=("shotgun",)), faces=(3, 3)),
    Refusal(code="ITEM_UNUSABLE", command=_roll(character="Brick", items=("old vest",))),
    Refusal(code="DUPLICATE_ITEM", command=_roll(items=("katana", "Katana")), faces=(3, 3)),
    Refusal(
        code="IMPLANT_NEVER_BULKY",
        command=RuleBulkiness(character="Brick", item="cybernetic arm", bulky=True),
    ),
    Refusal(
        code="BULKINESS_UNCHANGED",
        command=RuleBulkiness(character="Tanner", item="katana", bulky=True),
    ),
    Refusal(code="NO_USES_LEFT", command=UseItem(character="Tanner", item="spent card")),
    Refusal(code="NOT_CONSUMABLE", command=UseItem(character="Tanner", item="katana")),
    Refusal(
        code="INSUFFICIENT_CASH",
        command=ChangeCash(character="Tanner", delta=-1000, reason="a penthouse"),
    ),
    Refusal(code="INVALID_AMOUNT", command=ChangeCash(character="Tanner", delta=0, reason="x")),
    # Rolls
    Refusal(code="UNKNOWN_STAT", command=_roll(stat="luck"), faces=(3, 3)),
    Refusal(code="INVALID_MODIFIER", command=_roll(bonuses=("luck",)), faces=(3, 3)),
    Refusal(code="INVALID_DS", command=_roll(ds="0"), faces=(3, 3)),
    Refusal(code="DS_REQUIRED", command=_roll(ds=""), faces=(3, 3)),
    Refusal(code="INVALID_DIE_FACE", command=_roll(), faces=(7, 3)),
    Refusal(code="NOT_ALLOWED", command=_roll(glitch=True), faces=(3, 3, 3), actor="ana"),
    Refusal(code="NOT_A_PLAYER_CHARACTER", command=_roll(character="Zoner"), faces=(3, 3)),
    Refusal(code="WRONG_TARGET", command=_attack("Basic system"), faces=(3, 3)),
    Refusal(code="TARGET_REQUIRED", command=_attack(), faces=(3, 3)),
    Refusal(code="CANNOT_TARGET_SELF", command=_attack("Tanner"), faces=(3, 3)),
    Refusal(code="CHARACTER_DEAD", command=_attack("Ganger"), faces=(3, 3)),
    Refusal(
        code="DUPLICATE_TARGET", command=_attack("Zoner", "Zoner", shotgun="range"), faces=(3, 3)
    ),
    Refusal(code="UNKNOWN_SHOTGUN_RANGE", command=_attack("Zoner", shotgun="far"), faces=(3, 3)),
    Refusal(
        code="TOO_MANY_TARGETS",
        command=_attack("Zoner", "Katya", "Doc", "Brick", shotgun="range"),
        faces=(3, 3),
    ),
    Refusal(code="ONE_TARGET_ONLY", command=_attack("Zoner", "Katya"), faces=(3, 3)),
    Refusal(
        code="MAGAZINE_EMPTY",
        command=_attack("Zoner", character="Katya", stat="r", burst="smg"),
        faces=(3, 3),
    ),
    Refusal(
        code="ONE_FIRE_MODE",
        command=_attack("Zoner", character="Katya", stat="r", burst="smg", full_auto="smg"),
        faces=(3, 3),
    ),
    Refusal(code="NOT_A_RANGED_WEAPON", command=Reload(character="Tanner", item="katana")),
    Refusal(code="AIM_LIMIT_REACHED", command=TakeAim(character="Tanner", target="Zoner")),
    Refusal(
        code="CONSOLE_REQUIRED",
        command=Hack(character="Tanner", system="Basic system"),
        faces=(3, 3),
    ),
    Refusal(
        code="SYSTEM_ALREADY_BREACHED",
        command=Hack(character="Katya", system="Old system", console="console"),
        faces=(3, 3),
    ),
    # Combat rounds and hazards
    Refusal(
        code="NOT_SPEEDWARE",
        command=RollInitiative(combatants=("Tanner",), items=("Tanner:katana",)),
        faces=(3,),
    ),
    Refusal(
        code="NOT_A_COMBATANT",
        command=RollInitiative(combatants=("Tanner",), modifiers=("Zoner=+1",)),
        faces=(3,),
    ),
    Refusal(
        code="SCENE_NOT_ACTIVE",
        command=RollInitiative(combatants=("Tanner",)),
        faces=(3,),
        campaign=EMPTY,
    ),
    Refusal(code="NO_COMBAT", command=EndRound()),
    Refusal(code="INVALID_DISTANCE", command=Fall(character="Tanner", metres=0)),
    Refusal(
        code="UNKNOWN_EXPLOSIVE_TYPE",
        command=Detonate(dice_count=4, targets=("Zoner",)),
        faces=(3,) * 4,
    ),
    Refusal(
        code="FIRE_ROUNDS_OUT_OF_RANGE", command=Ignite(character="Tanner", damage=2, rounds=4)
    ),
    Refusal(code="NOT_ON_FIRE", command=Extinguish(character="Tanner")),
    # Critical injuries, armour and cybernetic limbs
    Refusal(code="NO_CRITICAL_INJURY", command=SlagArmour(character="Tanner", armour="kevlar")),
    Refusal(code="NOT_ARMOUR", command=SlagArmour(character="Tanner", armour="katana")),
    Refusal(
        code="ARMOUR_ALREADY_SLAGGED", command=SlagArmour(character="Brick", armour="old vest")
    ),
    Refusal(code="NOT_A_CYBER_LIMB", command=DisableCyberLimb(character="Tanner", limb="katana")),
    Refusal(code="WRONG_LIMB", command=DisableCyberLimb(character="Brick", limb="cybernetic")),
    Refusal(
        code="LIMB_WORKING",
        command=RepairCyberLimb(character="Brick", limb="cybernetic", tech="Finn"),
    ),
    # Healing
    Refusal(code="REST_TOO_SHORT", command=Rest(characters=("Tanner",), hours=6)),
    Refusal(code="AREA_NOT_SAFE", command=Rest(characters=("Tanner",), safe=False)),
    Refusal(code="NO_PATCHES_LEFT", command=ApplyPatch(character="Katya")),
    Refusal(
        code="FIRST_AID_KIT_REQUIRED",
        command=GiveFirstAid(healer="Doc", patient="Brick"),
        faces=(3, 3),
    ),
    Refusal(code="HEALER_MUST_BE_ALLY", command=GiveFirstAid(patient="Doc", **AID), faces=(3, 3)),
    Refusal(
        code="FIRST_AID_ALREADY_GIVEN",
        command=GiveFirstAid(patient="Tanner", **AID),
        faces=(3, 3),
    ),
    Refusal(code="PATIENT_UNHURT", command=GiveFirstAid(patient="Katya", **AID), faces=(3, 3)),
    Refusal(
        code="NOTHING_TO_TREAT",
        command=GiveMedicalAttention(character="Tanner", provider="Dr Ng"),
    ),
    # Advancement
    Refusal(
        code="NO_LEVEL_DUE",
        command=LevelUp(character="Tanner", stat="cognition", secondary="resilience"),
    ),
    Refusal(
        code="UNKNOWN_SECONDARY",
        command=LevelUp(character="Tanner", stat="cognition", secondary="luck"),
    ),
    Refusal(
        code="NO_PLAYER_CHARACTERS",
        command=CompleteMission(mission="The job"),
        campaign=EMPTY,
    ),
)


@pytest.fixture(scope="module")
def prepared() -> Iterator[Engine]:
    """One table for every refusal: none appends anything, so each meets the same state."""
    with freeze_time(FROZEN_AT), Engine() as engine:
        _prepare(engine)
        yield engine


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: r.code)
def test_each_refusal_raises_its_code_and_appends_nothing(
    prepared: Engine, refusal: Refusal
) -> None:
    """Refused with the code (its reason names a rule or what is wrong); nothing recorded."""
    before = event_count(prepared)
    with freeze_time(FROZEN_AT), pytest.raises(DomainError) as raised:
        prepared.execute(
            refusal.campaign,
            refusal.command,
            actor=refusal.actor,
            dice=DiceSpec(faces=refusal.faces),
        )
    assert refusal.code == raised.value.code, raised.value.reason
    assert before == event_count(prepared)


def test_every_code_of_errors_py_has_a_refusal() -> None:
    """Each error class of ``sprawl_goons/errors.py`` is raised by a case of ``REFUSALS``."""
    assert set() == SYSTEM_CODES - {r.code for r in REFUSALS}


@pytest.mark.parametrize("name", DIGEST_ERRORS)
def test_every_digest_error_exists(name: str) -> None:
    """Each DIGEST error is a product code of that name, or mapped to product codes with a
    reason; either way, a case of ``REFUSALS`` raises it."""
    refused = {r.code for r in REFUSALS}
    if name in ERRORS_MAPPED:
        codes, reason = ERRORS_MAPPED[name]
        assert reason
        assert code_of(name) not in SYSTEM_CODES, f"{name} exists now: drop its mapping"
        assert set(codes) <= refused, codes
    else:
        assert code_of(name) in SYSTEM_CODES | SHARED_CODES
        assert code_of(name) in refused


@pytest.mark.parametrize(
    ("command", "stat"),
    [
        pytest.param(Hack, "Cognition", id="StatMustBeCognition"),
        pytest.param(ThrowGrenade, "Reaction", id="StatMustBeReaction"),
    ],
)
def test_a_stat_the_rule_fixes_cannot_be_given(command: type[object], stat: str) -> None:
    """Hacking uses Cognition, a grenade Reaction: the commands take no stat to get wrong."""
    assert "stat" not in attrs.fields_dict(command)  # type: ignore[arg-type]
    assert stat in (command.__doc__ or "")


# --- The DIGEST's own text -----------------------------------------------------------------------


def _section() -> str:
    text = DIGEST.read_text(encoding="utf-8")
    return text[text.index("## 2. SPRAWL GOONS") : text.index("### 2.4")]


def test_the_event_list_is_the_digests() -> None:
    """DIGEST_EVENTS is the DIGEST's "Sprawl Goons event catalogue", name for name."""
    section = _section()
    catalogue = section[section.index("event catalogue (42)") :]
    assert list(DIGEST_EVENTS) == re.findall(r"`([A-Z][A-Za-z]+)`", catalogue)


def test_the_error_list_is_the_digests() -> None:
    """DIGEST_ERRORS holds every error §2.3 names (its "Errors" lines, the special rules' table
    and R-SG-04's error), and §0's InvalidDieFace."""
    found: set[str] = set()
    for line in _section().splitlines():
        if "Errors" in line:
            found |= set(re.findall(r"`([A-Z][A-Za-z]+)", line[line.index("Errors") :]))
        elif line.startswith("| R-SG-"):
            found |= set(re.findall(r"`([A-Z][A-Za-z]+)`", line.split("|")[-2]))
        found |= set(re.findall(r"error `([A-Z][A-Za-z]+)`", line))
    assert sorted(found | {"InvalidDieFace"}) == sorted(DIGEST_ERRORS)
