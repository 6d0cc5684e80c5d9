"""Sprawl Goons' commands: each decides, from the state and the dice, the events of one ruling.

The commands live in five modules; this one names them all. A command's module is imported the
first time the command is looked up here (``domain.rulesets.lazy``), so a process that runs one
command (a `campaign roll`) does not build the classes of the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.rulesets.lazy import lent_names

if TYPE_CHECKING:
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

# submodule -> the commands it defines
__getattr__, __dir__ = lent_names(
    __name__,
    "domain.rulesets.sprawl_goons",
    {
        "actions": ("ActionRoll", "FirstAid", "Hack"),
        "combat": ("Attack", "RollInitiative", "TakeAim", "ThrowGrenade"),
        "creation": (
            "AddItem",
            "ChangeCash",
            "CreateCharacter",
            "CreateNpc",
            "DropItem",
            "Reload",
            "UseItem",
        ),
        "hazards": ("Detonate", "EndRound", "Extinguish", "Fall", "Ignite"),
        "recovery": (
            "ApplyPatch",
            "CompleteMission",
            "DisableCyberLimb",
            "LevelUp",
            "MedicalAttention",
            "RepairCyberLimb",
            "Rest",
            "SlagArmour",
        ),
    },
)
