"""Sprawl Goons' commands: each decides, from the state and the dice, the events of one ruling.

The commands live in modules named after the rule text's sections; this one names them all. A
command's module is imported the first time the command is looked up here
(``domain.rulesets.lazy``), so a process that runs one command (a `campaign roll`) does not build
the classes of the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.rulesets.lazy import lent_names

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
