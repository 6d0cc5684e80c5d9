"""The Sims RPG's commands: each decides, from the state and the dice, the events of one ruling."""

from domain.rulesets.sims.conflict import Attack, Reroll
from domain.rulesets.sims.creation import CreateCharacter, ReplaceQuality
from domain.rulesets.sims.damage import AllocateRanks, Kill
from domain.rulesets.sims.improvement import (
    AnnounceMission,
    CampaignSucceeded,
    MissionSucceeded,
    Rebirth,
    TakeMasterPlus,
    UpgradeQuality,
)
from domain.rulesets.sims.recovery import (
    AuthorizeRecovery,
    DeclareDanger,
    PlaceRecovery,
    RollRecovery,
)
from domain.rulesets.sims.situations import JudgeSimple, RollComplicated
from domain.rulesets.sims.turns import DeclareStrategy, NextTurn, SetTurnOrder

__all__ = [
    "AllocateRanks",
    "AnnounceMission",
    "Attack",
    "AuthorizeRecovery",
    "CampaignSucceeded",
    "CreateCharacter",
    "DeclareDanger",
    "DeclareStrategy",
    "JudgeSimple",
    "Kill",
    "MissionSucceeded",
    "NextTurn",
    "PlaceRecovery",
    "Rebirth",
    "ReplaceQuality",
    "Reroll",
    "RollComplicated",
    "RollRecovery",
    "SetTurnOrder",
    "TakeMasterPlus",
    "UpgradeQuality",
]
