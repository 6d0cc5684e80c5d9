"""Every Sprawl Goons refusal as the referee reads it (errors.py, DIGEST 0.3): its stable code
and a message naming the character, the item or the target and the rule; nothing is recorded."""

from __future__ import annotations

import pytest

from domain.commands import Command
from domain.errors import DomainError
from domain.rulesets.sprawl_goons.commands import (
    AddItem,
    ApplyPatch,
    Attack,
    ChangeCash,
    CreateCharacter,
    DisableCyberLimb,
    GiveFirstAid,
    GiveMedicalAttention,
    Ignite,
    LevelUp,
    MakeActionRoll,
    Reload,
    Rest,
    RollInitiative,
    RuleBulkiness,
    SlagArmour,
    TakeAim,
    ThrowGrenade,
    UseItem,
)
from engine import Engine
from tests.golden.test_sprawl_goons import refused
from tests.unit.sprawl_goons.conftest import cast

SG_REFUSALS: list[tuple[str, Command, tuple[int, ...], str]] = [
    # Healing (R-SG-07): who may patch, be patched, treated, rest or get first aid.
    (
        "patch-by-the-dead",
        ApplyPatch(character="Cass"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot apply a patch (Character Death)",
    ),
    (
        "patch-none-left",
        ApplyPatch(character="Dix"),
        (),
        "NO_PATCHES_LEFT: Dix has no Lazarus Patches left (Healing)",
    ),
    (
        "patch-an-npc",
        ApplyPatch(character="Doc", patient="Zoner"),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters heal with Lazarus "
        "Patches (Game Structure)",
    ),
    (
        "patch-the-dead",
        ApplyPatch(character="Doc", patient="Cass"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot be patched up (Character Death)",
    ),
    (
        "first-aid-an-npc",
        GiveFirstAid(healer="Doc", patient="Zoner", kit="first aid"),
        (5, 4),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters receive first aid "
        "(Game Structure)",
    ),
    (
        "first-aid-the-dead",
        GiveFirstAid(healer="Doc", patient="Cass", kit="first aid"),
        (5, 4),
        "CHARACTER_DEAD: Cass is dead and cannot receive first aid (Character Death)",
    ),
    (
        "first-aid-unhurt",
        GiveFirstAid(healer="Doc", patient="Dix", kit="first aid"),
        (5, 4),
        "PATIENT_UNHURT: Dix has lost no Resilience (12/12): first aid gains an injured PC 2 "
        "Resilience Points, and critical injuries cannot be healed this way (Healing)",
    ),
    (
        "first-aid-no-kit-named",
        GiveFirstAid(healer="Doc", patient="Tanner"),
        (5, 4),
        "FIRST_AID_KIT_REQUIRED: first aid needs an allied character with a first aid kit: "
        "name the kit Doc uses (Healing)",
    ),
    (
        "first-aid-kit-not-carried",
        GiveFirstAid(healer="Doc", patient="Tanner", kit="bandage"),
        (5, 4),
        "FIRST_AID_KIT_REQUIRED: first aid needs an allied character with a first aid kit: "
        "Doc carries no 'bandage' (Healing)",
    ),
    (
        "treat-the-dead",
        GiveMedicalAttention(character="Cass", provider="Dr Ito"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot be treated (Character Death)",
    ),
    (
        "treat-nothing",
        GiveMedicalAttention(character="Dix", provider="Dr Ito"),
        (),
        "NOTHING_TO_TREAT: Dix has no untreated critical injury to treat (Healing)",
    ),
    (
        "rest-7-hours",
        Rest(characters=("Dix",), hours=7),
        (),
        "REST_TOO_SHORT: lost Resilience comes back after 8 hours' rest; 7 hours is not "
        "enough (Healing)",
    ),
    (
        "rest-nobody",
        Rest(characters=()),
        (),
        "TARGET_REQUIRED: resting needs at least one target",
    ),
    (
        "rest-an-npc",
        Rest(characters=("Zoner",)),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters rest to heal "
        "(Game Structure)",
    ),
    (
        "rest-the-dead",
        Rest(characters=("Cass",)),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot rest (Character Death)",
    ),
    # Initiative (R-SG-05, SG-A10).
    (
        "initiative-nobody",
        RollInitiative(combatants=()),
        (),
        "TARGET_REQUIRED: initiative needs at least one target",
    ),
    (
        "initiative-the-dead",
        RollInitiative(combatants=("Dix", "Cass")),
        (1, 2),
        "CHARACTER_DEAD: Cass is dead and cannot fight (Character Death)",
    ),
    (
        "initiative-a-system",
        RollInitiative(combatants=("Dix", "Vault")),
        (1, 2),
        "WRONG_TARGET: Vault is a system and cannot be in a fight",
    ),
    (
        "initiative-twice",
        RollInitiative(combatants=("Dix", "dix")),
        (1, 2),
        "DUPLICATE_TARGET: Dix is named twice; name each target once",
    ),
    (
        "initiative-modifier-outsider",
        RollInitiative(combatants=("Dix",), modifiers=("Zoner=+1",)),
        (1,),
        "NOT_A_COMBATANT: Zoner is not among the combatants rolling initiative",
    ),
    (
        "initiative-not-speedware",
        RollInitiative(combatants=("Dix",), items=("Dix:kevlar",)),
        (1,),
        "NOT_SPEEDWARE: Kevlar jacket is not an augmentation or a drug; initiative adds only "
        "speedware and performance drugs (Initiative Roll)",
    ),
    (
        "initiative-a-d7",
        RollInitiative(combatants=("Dix",)),
        (7,),
        "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up",
    ),
    (
        "initiative-roll-off-d7",
        RollInitiative(combatants=("Dix", "Tanner")),
        (3, 3, 7, 1),
        "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up",
    ),
    # Inventory and cash (R-SG-09, R-SG-23).
    (
        "cash-for-an-npc",
        ChangeCash(character="Zoner", delta=5, reason="loot"),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters carry cash "
        "(Game Structure)",
    ),
    (
        "cash-change-of-0",
        ChangeCash(character="Dix", delta=0, reason="nothing"),
        (),
        "INVALID_AMOUNT: a change of cash must be a whole number of 1 or more, got 0",
    ),
    (
        "cash-overspent",
        ChangeCash(character="Dix", delta=-31, reason="a deck"),
        (),
        "INSUFFICIENT_CASH: Dix has 30 cash and cannot spend 31",
    ),
    (
        "reload-by-the-dead",
        Reload(character="Cass", item="penlight"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot reload (Character Death)",
    ),
    (
        "reload-no-gun",
        Reload(character="Dix", item="kevlar"),
        (),
        "NOT_A_RANGED_WEAPON: Kevlar jacket is not a ranged weapon with a magazine (Special Rules)",
    ),
    (
        "use-by-the-dead",
        UseItem(character="Cass", item="penlight"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot use items (Character Death)",
    ),
    (
        "use-no-uses",
        UseItem(character="Dix", item="kevlar"),
        (),
        "NOT_CONSUMABLE: Kevlar jacket has no uses to spend",
    ),
    # Advancement (R-SG-08).
    (
        "level-for-the-dead",
        LevelUp(character="Cass", stat="reaction", secondary="resilience"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot level up (Character Death)",
    ),
    (
        "level-unknown-secondary",
        LevelUp(character="Dix", stat="reaction", secondary="luck"),
        (),
        "UNKNOWN_SECONDARY: a level raises Resilience or Inventory Score: got 'luck' "
        "(Character Advancement)",
    ),
    (
        "level-not-due",
        LevelUp(character="Dix", stat="reaction", secondary="resilience"),
        (),
        "NO_LEVEL_DUE: Dix has no level to take: a level comes at the end of each mission "
        "(Character Advancement)",
    ),
    # Armour (Special Rules: armour can be slagged).
    (
        "slag-a-console",
        SlagArmour(character="Dix", armour="console"),
        (),
        "NOT_ARMOUR: Ono-Sendai Cyberspace Console and 'trodes is not armour; only armour can "
        "be slagged (Special Rules)",
    ),
    (
        "slag-by-the-dead",
        SlagArmour(character="Cass", armour="penlight"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot slag armour (Character Death)",
    ),
    (
        "limb-of-the-dead",
        DisableCyberLimb(character="Cass", limb="penlight"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot lose a limb (Character Death)",
    ),
    # The Action Roll (R-SG-02): the dead roll nothing, not even a plain roll.
    (
        "plain-roll-by-the-dead",
        MakeActionRoll(character="Cass", stat="reaction", ds="8"),
        (3, 4),
        "CHARACTER_DEAD: Cass is dead and cannot act (Character Death)",
    ),
    (
        "aim-by-the-dead",
        TakeAim(character="Cass", target="Zoner"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot act (Character Death)",
    ),
    (
        "plain-roll-by-an-npc",
        MakeActionRoll(character="Zoner", stat="reaction", ds="8"),
        (3, 4),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters make Action Rolls "
        "(Game Structure)",
    ),
    # Starting items outside the list (R-SG-01): CATEGORY:NAME.
    (
        "custom-item-unnamed",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit"),
            custom=("armour: ",),
        ),
        (1, 1, 1),
        "ITEM_SPEC_REQUIRED: armour:  must be specified, e.g. armour:NAME (Starting Items)",
    ),
    (
        "custom-item-bare",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit"),
            custom=(":",),
        ),
        (1, 1, 1),
        "ITEM_SPEC_REQUIRED: : must be specified, e.g. gear:NAME (Starting Items)",
    ),
    # Relevant items (R-SG-02): owned, usable, each once.
    (
        "item-twice",
        MakeActionRoll(character="Dix", stat="cognition", ds="8", items=("kevlar", "Kevlar")),
        (3, 4),
        "DUPLICATE_ITEM: Kevlar jacket is listed twice; each relevant item adds its bonus once "
        "(The Action Roll)",
    ),
    (
        "item-not-owned",
        MakeActionRoll(character="Doc", stat="cognition", ds="8", items=("deck",)),
        (3, 4),
        "ITEM_NOT_OWNED: Doc has no item 'deck' (carries: Lazarus Patches, Toolkit, Penlight, "
        "First aid kit)",
    ),
    (
        "fire-mode-both",
        Attack(character="Dix", targets=("Zoner",), stat="reaction", full_auto="x", burst="x"),
        (3, 4),
        "ONE_FIRE_MODE: fire full auto or in bursts, not both in one attack (Special Rules)",
    ),
    (
        "two-targets-no-shotgun",
        Attack(character="Dix", targets=("Zoner", "Tanner"), stat="reaction"),
        (3, 4),
        "ONE_TARGET_ONLY: only a shotgun at range hits several bunched targets (--shotgun "
        "range); got 2 targets (Special Rules)",
    ),
    (
        "two-targets-close",
        Attack(character="Dix", targets=("Zoner", "Tanner"), stat="reaction", shotgun="close"),
        (3, 4),
        "ONE_TARGET_ONLY: only a shotgun at range hits several bunched targets (--shotgun "
        "range); got 2 targets (Special Rules)",
    ),
    (
        "four-bunched-targets",
        Attack(
            character="Dix",
            targets=("Zoner", "Tanner", "Doc", "Stiff"),
            stat="reaction",
            shotgun="range",
        ),
        (3, 4),
        "TOO_MANY_TARGETS: a shotgun hits up to 3 bunched targets, got 4 (Special Rules)",
    ),
    (
        "full-auto-no-gun",
        Attack(character="Dix", targets=("Zoner",), stat="reaction", full_auto="kevlar"),
        (3, 4),
        "NOT_A_RANGED_WEAPON: Kevlar jacket is not a ranged weapon with a magazine (Special Rules)",
    ),
    # Creation, look-ups and inventory (R-SG-01, R-SG-02, R-SG-09).
    (
        "negative-stat",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=-1,
            reaction=3,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
        "NEGATIVE_STAT: Morphology is -1: a stat may be 0 but not below (Character Creation)",
    ),
    (
        "stats-total-7",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=2,
            reaction=3,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
        "STAT_POINTS_MUST_TOTAL_FOUR: distribute exactly 4 points between the stats; "
        "these total 7 (Character Creation)",
    ),
    (
        "two-starting-items",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit"),
        ),
        (1, 1, 1),
        "STARTING_ITEM_COUNT_MUST_BE_THREE: choose 3 starting items, got 2 (Starting Items)",
    ),
    (
        "melee-unspecified",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "melee"),
        ),
        (1, 1, 1),
        "ITEM_SPEC_REQUIRED: Melee Weapon must be specified, e.g. melee:NAME (Starting Items)",
    ),
    (
        "unknown-starting-item",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "plasma rifle"),
        ),
        (1, 1, 1),
        "UNKNOWN_STARTING_ITEM: 'plasma rifle' is not on the starting item list (melee, "
        "ranged, armour, implant, penlight, phone, console, toolkit, goggles, "
        "credit-card, vodka, hyperdex, hotel-key, cigarettes, fake-id, handcuffs, "
        "mirrorshades, drone, lazarus); another item needs the referee's approval: "
        "--custom CATEGORY:NAME (Starting Items)",
    ),
    (
        "custom-unknown-category",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit"),
            custom=("laser:Beam",),
        ),
        (1, 1, 1),
        "UNKNOWN_CATEGORY: 'laser' is not an item kind; use one of: melee, ranged, "
        "armour, implant, console, consumable, drug, gear",
    ),
    (
        "cash-d7",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 7),
        "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up",
    ),
    (
        "credit-card-d7",
        CreateCharacter(
            character="Eve",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "credit card"),
        ),
        (1, 1, 1, 3, 7),
        "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up",
    ),
    (
        "unnamed-character",
        CreateCharacter(
            character=" ",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
        "NAME_REQUIRED: a character needs a name (Character Creation: name your character)",
    ),
    (
        "name-taken",
        CreateCharacter(
            character="dix",
            player="eve",
            morphology=1,
            reaction=1,
            cognition=1,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
        "NAME_TAKEN: 'dix' is already a character's name in this campaign (Character Creation)",
    ),
    (
        "unknown-stat",
        MakeActionRoll(character="Dix", stat="luck", ds="8"),
        (3, 4),
        "UNKNOWN_STAT: 'luck' is not a stat: morphology, reaction, cognition or equilibrium",
    ),
    (
        "no-ds",
        MakeActionRoll(character="Dix", stat="cog", ds=" "),
        (3, 4),
        "DS_REQUIRED: the referee sets the Difficulty Score: give a DS or a target (The "
        "Action Roll)",
    ),
    (
        "ds-0",
        MakeActionRoll(character="Dix", stat="cog", ds="0"),
        (3, 4),
        "INVALID_DS: a Difficulty Score is a whole number of 1 or more, or easy 8, "
        "moderate 10, challenging 12, hard 14, formidable 16, extreme 18, impossible "
        "20; got '0' (Difficulty Score)",
    ),
    (
        "ds-unknown-word",
        MakeActionRoll(character="Dix", stat="cog", ds="tricky"),
        (3, 4),
        "INVALID_DS: a Difficulty Score is a whole number of 1 or more, or easy 8, "
        "moderate 10, challenging 12, hard 14, formidable 16, extreme 18, impossible "
        "20; got 'tricky' (Difficulty Score)",
    ),
    (
        "bad-modifier",
        MakeActionRoll(character="Dix", stat="cog", ds="hard", bonuses=("luck+2",)),
        (3, 4),
        "INVALID_MODIFIER: 'luck+2' is not a modifier: write SOURCE=+N, e.g. 'ICE-breaker=+2'",
    ),
    (
        "add-unknown-category",
        AddItem(character="Dix", item="Beam", category="laser"),
        (),
        "UNKNOWN_CATEGORY: 'laser' is not an item kind; use one of: melee, ranged, "
        "armour, implant, console, consumable, drug, gear",
    ),
    (
        "add-unnamed",
        AddItem(character="Dix", item=" ", category="gear"),
        (),
        "NAME_REQUIRED: a character needs a name (Character Creation: name your character)",
    ),
    (
        "add-held",
        AddItem(character="Dix", item="kevlar jacket", category="gear"),
        (),
        "ITEM_ALREADY_HELD: Dix already carries an item named 'kevlar jacket'; give "
        "this one another name",
    ),
    (
        "add-0-uses",
        AddItem(character="Dix", item="Gum", category="gear", uses=0),
        (),
        "INVALID_AMOUNT: uses must be a whole number of 1 or more, got 0",
    ),
    (
        "add-to-an-npc",
        AddItem(character="Zoner", item="Gum", category="gear"),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters carry items "
        "(Game Structure)",
    ),
    (
        "add-to-the-dead",
        AddItem(character="Cass", item="Gum", category="gear"),
        (),
        "CHARACTER_DEAD: Cass is dead and cannot pick up items (Character Death)",
    ),
    (
        "bulky-implant",
        RuleBulkiness(character="Dix", item="arm", bulky=True),
        (),
        "IMPLANT_NEVER_BULKY: Cybernetic arm is an implant: implants are interfaced "
        "with the body and don't count towards the Inventory total "
        "(Implants/Augmentations)",
    ),
    (
        "bulky-unchanged",
        RuleBulkiness(character="Dix", item="kevlar", bulky=True),
        (),
        "BULKINESS_UNCHANGED: Kevlar jacket already counts towards Dix's Inventory "
        "Score (Inventory)",
    ),
    (
        "bulky-for-an-npc",
        RuleBulkiness(character="Zoner", item="kevlar", bulky=False),
        (),
        "NOT_A_PLAYER_CHARACTER: Zoner is an NPC: only player characters carry items "
        "(Game Structure)",
    ),
    # Targets (Dangerous Action Roll, Special Rules).
    (
        "attack-self",
        Attack(character="Dix", targets=("Dix",), stat="reaction"),
        (3, 4),
        "CANNOT_TARGET_SELF: Dix cannot be their own target",
    ),
    (
        "attack-a-system",
        Attack(character="Dix", targets=("Vault",), stat="reaction"),
        (3, 4),
        "WRONG_TARGET: Vault is a system and cannot be attacked",
    ),
    (
        "attack-the-dead",
        Attack(character="Dix", targets=("Stiff",), stat="reaction"),
        (3, 4),
        "CHARACTER_DEAD: Stiff is dead and cannot be attacked (Character Death)",
    ),
    (
        "attack-nobody",
        Attack(character="Dix", targets=(), stat="reaction"),
        (3, 4),
        "TARGET_REQUIRED: attacked needs at least one target",
    ),
    (
        "attack-twice-the-same",
        Attack(character="Dix", targets=("Zoner", "zoner"), stat="reaction", shotgun="range"),
        (3, 4),
        "DUPLICATE_TARGET: Zoner is named twice; name each target once",
    ),
    (
        "shotgun-unknown-range",
        Attack(character="Dix", targets=("Zoner",), stat="reaction", shotgun="far"),
        (3, 4),
        "UNKNOWN_SHOTGUN_RANGE: a shotgun fires point-blank, close or at range, not 'far' "
        "(Special Rules)",
    ),
    (
        "aim-at-a-system",
        TakeAim(character="Dix", target="Vault"),
        (),
        "WRONG_TARGET: Vault is a system and cannot be aimed at",
    ),
    (
        "aim-at-the-dead",
        TakeAim(character="Dix", target="Stiff"),
        (),
        "CHARACTER_DEAD: Stiff is dead and cannot be aimed at (Character Death)",
    ),
    (
        "grenade-at-the-dead",
        ThrowGrenade(character="Dix", targets=("Stiff",)),
        (3, 4),
        "CHARACTER_DEAD: Stiff is dead and cannot be caught in the blast (Character Death)",
    ),
    (
        "grenade-at-nobody",
        ThrowGrenade(character="Dix", targets=()),
        (3, 4),
        "TARGET_REQUIRED: caught in the blast needs at least one target",
    ),
    (
        "fire-on-the-dead",
        Ignite(character="Stiff", damage=1),
        (),
        "CHARACTER_DEAD: Stiff is dead and cannot be set on fire (Character Death)",
    ),
]


@pytest.mark.parametrize(
    ("command", "faces", "message"),
    [pytest.param(c, f, m, id=i) for i, c, f, m in SG_REFUSALS],
)
def test_a_sprawl_goons_refusal_names_who_and_why(
    engine: Engine, command: Command, faces: tuple[int, ...], message: str
) -> None:
    """Each refusal carries its stable code and a message naming the character, the item or
    the target and the rule; nothing is recorded."""
    cast(engine)
    error = refused(engine, command, DomainError, *faces)
    assert message == f"{error.code}: {error.reason}"
