"""Sprawl Goons' commands: each decides, from the state and the dice, the events of one ruling."""

from domain.rulesets.sprawl_goons.actions import ActionRoll, FirstAid, Hack
from domain.rulesets.sprawl_goons.combat import Attack, RollInitiative, TakeAim, ThrowGrenade
from domain.rulesets.sprawl_goons.creation import (
    AddItem,
    ChangeCash,
    CreateCharacter,
    CreateNpc,
    DropItem,
    Reload,
    UseItem,
)
from domain.rulesets.sprawl_goons.hazards import Detonate, EndRound, Extinguish, Fall, Ignite
from domain.rulesets.sprawl_goons.recovery import (
    ApplyPatch,
    CompleteMission,
    DisableCyberLimb,
    LevelUp,
    MedicalAttention,
    RepairCyberLimb,
    Rest,
    SlagArmour,
)

__all__ = [
    "ActionRoll",
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
    "FirstAid",
    "Hack",
    "Ignite",
    "LevelUp",
    "MedicalAttention",
    "Reload",
    "RepairCyberLimb",
    "Rest",
    "RollInitiative",
    "SlagArmour",
    "TakeAim",
    "ThrowGrenade",
    "UseItem",
]
