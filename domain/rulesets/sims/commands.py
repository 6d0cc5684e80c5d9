"""The Sims RPG's commands: each decides, from the state and the dice, the events of one ruling.

The commands live in eight modules; this one names them all. A command's module is imported the
first time the command is looked up here (``domain.rulesets.lazy``), so a process that runs one
command does not build the classes of the others.

``__all__`` lists the verbs (``domain.registry``); ``RETIRED`` the commands no verb builds any
more, lent here all the same: the rulings that recorded them are still decided again (undo,
amend) and imported (``engine.store.event_classes`` takes every name lent here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.kinds import ACTOR, CHARACTER, MEMBER, Declared, choice_of
from domain.rulesets.lazy import lent_names
from domain.rulesets.sims.tables import Rank, Strategy

if TYPE_CHECKING:
    from domain.rulesets.sims.behind_the_scenes import SendPrivateMessage as SendPrivateMessage
    from domain.rulesets.sims.conflict import Attack, Reroll
    from domain.rulesets.sims.creation import CreateCharacter, ReplaceQuality
    from domain.rulesets.sims.damage import AllocateRanks, Kill
    from domain.rulesets.sims.improvement import (
        AnnounceMission,
        CompleteAdventure,
        SucceedCampaign,
        SucceedMission,
        TakeMasterPlus,
        TakeRebirth,
        UpgradeQuality,
    )
    from domain.rulesets.sims.recovery import (
        AuthorizeRecovery,
        DeclareDanger,
        PlaceRecovery,
        RollRecovery,
    )
    from domain.rulesets.sims.situations import JudgeSimple, RollComplicated
    from domain.rulesets.sims.turns import DeclareStrategy, EndTurn, SetTurnOrder

__all__ = [
    "AllocateRanks",
    "AnnounceMission",
    "Attack",
    "AuthorizeRecovery",
    "CompleteAdventure",
    "CreateCharacter",
    "DeclareDanger",
    "DeclareStrategy",
    "EndTurn",
    "JudgeSimple",
    "Kill",
    "PlaceRecovery",
    "ReplaceQuality",
    "Reroll",
    "RollComplicated",
    "RollRecovery",
    "SetTurnOrder",
    "SucceedCampaign",
    "SucceedMission",
    "TakeMasterPlus",
    "TakeRebirth",
    "UpgradeQuality",
]

RETIRED = ("SendPrivateMessage",)  # the `message` verb, now `post --to` (Behind the Scenes)

# submodule -> the commands it defines
__getattr__, __dir__ = lent_names(
    __name__,
    "domain.rulesets.sims",
    {
        "behind_the_scenes": ("SendPrivateMessage",),
        "conflict": ("Attack", "Reroll"),
        "creation": ("CreateCharacter", "ReplaceQuality"),
        "damage": ("AllocateRanks", "Kill"),
        "improvement": (
            "AnnounceMission",
            "CompleteAdventure",
            "SucceedCampaign",
            "SucceedMission",
            "TakeMasterPlus",
            "TakeRebirth",
            "UpgradeQuality",
        ),
        "recovery": ("AuthorizeRecovery", "DeclareDanger", "PlaceRecovery", "RollRecovery"),
        "situations": ("JudgeSimple", "RollComplicated"),
        "turns": ("DeclareStrategy", "EndTurn", "SetTurnOrder"),
    },
)

ANY_CASE = "in any case"
RANK = choice_of(Rank, reads_more=ANY_CASE)

PARAMETERS: Declared = {
    "AllocateRanks": {"character": ACTOR},
    "AnnounceMission": {"characters": CHARACTER},
    "Attack": {
        "attacker": ACTOR,
        "targets": CHARACTER,
        "full_defense": CHARACTER,
        "helpers": CHARACTER,
    },
    "AuthorizeRecovery": {"character": CHARACTER},
    "CreateCharacter": {"player": MEMBER},
    "DeclareDanger": {"characters": CHARACTER},
    "DeclareStrategy": {"character": ACTOR, "strategy": choice_of(Strategy, ANY_CASE)},
    "JudgeSimple": {"character": CHARACTER, "difficulty": RANK},
    "Kill": {"attacker": CHARACTER, "victim": CHARACTER},
    "PlaceRecovery": {"character": ACTOR},
    "ReplaceQuality": {"character": ACTOR},
    "Reroll": {"attacker": ACTOR},
    "RollComplicated": {"character": ACTOR, "difficulty": RANK, "helpers": CHARACTER},
    "RollRecovery": {"character": ACTOR},
    "SendPrivateMessage": {"to": MEMBER, "by": MEMBER, "character": ACTOR},  # no verb: amend
    "SucceedMission": {"characters": CHARACTER},
    "TakeMasterPlus": {"character": ACTOR},
    "TakeRebirth": {"character": ACTOR},
    "UpgradeQuality": {"character": ACTOR},
}
"""What the annotations alone do not say of the commands' parameters (``domain.kinds``)."""
