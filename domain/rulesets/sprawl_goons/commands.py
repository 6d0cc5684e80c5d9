"""Sprawl Goons' commands: each decides, from the state and the dice, the events of one ruling.

The commands live in modules named after the rule text's sections; this one names them all. A
command's module is imported the first time the command is looked up here
(``domain.rulesets.lazy``), so a process that runs one command (a `campaign roll`) does not build
the classes of the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.kinds import ACTOR, CHARACTER, MEMBER, NPC, Choice, Declared, choice_of
from domain.rulesets.lazy import lent_names
from domain.rulesets.sprawl_goons.tables import (
    Category,
    Difficulty,
    Secondary,
    ShotgunRange,
    Stat,
)

if TYPE_CHECKING:
    from domain.rulesets.sprawl_goons.action_roll import MakeActionRoll
    from domain.rulesets.sprawl_goons.advancement import CompleteMission, LevelUp
    from domain.rulesets.sprawl_goons.combat import Attack, TakeAim, ThrowGrenade
    from domain.rulesets.sprawl_goons.creation import CreateCharacter, CreateNpc
    from domain.rulesets.sprawl_goons.critical_injuries import (
        DisableCyberLimb,
        RepairCyberLimb,
        SlagArmour,
    )
    from domain.rulesets.sprawl_goons.hacking import Hack
    from domain.rulesets.sprawl_goons.hazards import Detonate, EndRound, Extinguish, Fall, Ignite
    from domain.rulesets.sprawl_goons.healing import (
        ApplyPatch,
        GiveFirstAid,
        GiveMedicalAttention,
        Rest,
    )
    from domain.rulesets.sprawl_goons.initiative import RollInitiative
    from domain.rulesets.sprawl_goons.inventory import (
        AddItem,
        ChangeCash,
        DropItem,
        Reload,
        RuleBulkiness,
        UseItem,
    )

__all__ = [
    "AddItem",
    "ApplyPatch",
    "Attack",
    "ChangeCash",
    "CompleteMission",
    "CreateCharacter",
    "CreateNpc",
    "Detonate",
    "DisableCyberLimb",
    "DropItem",
    "EndRound",
    "Extinguish",
    "Fall",
    "GiveFirstAid",
    "GiveMedicalAttention",
    "Hack",
    "Ignite",
    "LevelUp",
    "MakeActionRoll",
    "Reload",
    "RepairCyberLimb",
    "Rest",
    "RollInitiative",
    "RuleBulkiness",
    "SlagArmour",
    "TakeAim",
    "ThrowGrenade",
    "UseItem",
]

# submodule -> the commands it defines
__getattr__, __dir__ = lent_names(
    __name__,
    "domain.rulesets.sprawl_goons",
    {
        "action_roll": ("MakeActionRoll",),
        "advancement": ("CompleteMission", "LevelUp"),
        "combat": ("Attack", "TakeAim", "ThrowGrenade"),
        "creation": ("CreateCharacter", "CreateNpc"),
        "critical_injuries": ("DisableCyberLimb", "RepairCyberLimb", "SlagArmour"),
        "hacking": ("Hack",),
        "hazards": ("Detonate", "EndRound", "Extinguish", "Fall", "Ignite"),
        "healing": ("ApplyPatch", "GiveFirstAid", "GiveMedicalAttention", "Rest"),
        "initiative": ("RollInitiative",),
        "inventory": ("AddItem", "ChangeCash", "DropItem", "Reload", "RuleBulkiness", "UseItem"),
    },
)

STAT = choice_of(Stat, reads_more="or its first letters")
DS = Choice(
    values=tuple(level.name.lower() for level in Difficulty),
    reads_more="or any whole number of 1 or more",
    pattern="^[1-9][0-9]{0,8}$",
)

PARAMETERS: Declared = {
    "AddItem": {"character": CHARACTER, "category": choice_of(Category, "'armor' too")},
    "ApplyPatch": {"character": ACTOR, "patient": CHARACTER},
    "Attack": {
        "character": ACTOR,
        "targets": CHARACTER,
        "stat": STAT,
        "shotgun": choice_of(ShotgunRange, "in any case"),
    },
    "ChangeCash": {"character": CHARACTER},
    "CreateCharacter": {"player": MEMBER},
    "CreateNpc": {"ds": DS},
    "Detonate": {"targets": CHARACTER},
    "DisableCyberLimb": {"character": CHARACTER},
    "DropItem": {"character": ACTOR},
    "Extinguish": {"character": CHARACTER},
    "Fall": {"character": CHARACTER},
    "GiveFirstAid": {"healer": ACTOR, "patient": CHARACTER, "ds": DS},
    "GiveMedicalAttention": {"character": CHARACTER, "provider": CHARACTER},
    "Hack": {"character": ACTOR, "system": NPC},
    "Ignite": {"character": CHARACTER},
    "LevelUp": {"character": ACTOR, "stat": STAT, "secondary": choice_of(Secondary, "in any case")},
    "MakeActionRoll": {"character": ACTOR, "stat": STAT, "ds": DS},
    "Reload": {"character": ACTOR},
    "RepairCyberLimb": {"character": CHARACTER},
    "Rest": {"characters": CHARACTER},
    "RollInitiative": {"combatants": CHARACTER},
    "RuleBulkiness": {"character": CHARACTER},
    "SlagArmour": {"character": CHARACTER},
    "TakeAim": {"character": ACTOR, "target": CHARACTER},
    "ThrowGrenade": {"character": ACTOR, "targets": CHARACTER},
    "UseItem": {"character": ACTOR},
}
"""What the annotations alone do not say of the commands' parameters (``domain.kinds``)."""
