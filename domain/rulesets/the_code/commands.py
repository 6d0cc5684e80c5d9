"""The Code's commands: each decides, from the state and the dice, the events of one ruling.

The commands live in eight modules; this one names them all. A command's module is imported the
first time the command is looked up here (``domain.rulesets.lazy``), so a process that runs one
command does not build the classes of the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.kinds import ACTOR, CHARACTER, MEMBER, Declared
from domain.rulesets.lazy import lent_names

if TYPE_CHECKING:
    from domain.rulesets.the_code.ability_sequence import RuleAbilityStep
    from domain.rulesets.the_code.challenges import RuleChallenge, UseMotivation
    from domain.rulesets.the_code.contest import SettleContest
    from domain.rulesets.the_code.creation import CreateHero, CreateNpc
    from domain.rulesets.the_code.days_off import TakeDaysOff
    from domain.rulesets.the_code.exposure import (
        Blab,
        LowerExposure,
        RollExposure,
        RollReaction,
    )
    from domain.rulesets.the_code.rewards import (
        AccomplishObjective,
        AlterObjective,
        BuyMotivation,
        RecurProblem,
        SolveProblem,
    )
    from domain.rulesets.the_code.session_flags import (
        FollowMo,
        RuleConduct,
        RuleWeaknessInPlay,
    )

__all__ = [
    "AccomplishObjective",
    "AlterObjective",
    "Blab",
    "BuyMotivation",
    "CreateHero",
    "CreateNpc",
    "FollowMo",
    "LowerExposure",
    "RecurProblem",
    "RollExposure",
    "RollReaction",
    "RuleAbilityStep",
    "RuleChallenge",
    "RuleConduct",
    "RuleWeaknessInPlay",
    "SettleContest",
    "SolveProblem",
    "TakeDaysOff",
    "UseMotivation",
]

# submodule -> the commands it defines
__getattr__, __dir__ = lent_names(
    __name__,
    "domain.rulesets.the_code",
    {
        "ability_sequence": ("RuleAbilityStep",),
        "challenges": ("RuleChallenge", "UseMotivation"),
        "contest": ("SettleContest",),
        "creation": ("CreateHero", "CreateNpc"),
        "days_off": ("TakeDaysOff",),
        "exposure": ("Blab", "LowerExposure", "RollExposure", "RollReaction"),
        "rewards": (
            "AccomplishObjective",
            "AlterObjective",
            "BuyMotivation",
            "RecurProblem",
            "SolveProblem",
        ),
        "session_flags": ("FollowMo", "RuleConduct", "RuleWeaknessInPlay"),
    },
)

PARAMETERS: Declared = {
    "AccomplishObjective": {"hero": ACTOR},
    "AlterObjective": {"hero": ACTOR},
    "Blab": {"hero": ACTOR},
    "BuyMotivation": {"hero": ACTOR},
    "CreateHero": {"player": MEMBER},
    "FollowMo": {"hero": ACTOR},
    "LowerExposure": {"hero": ACTOR},
    "RecurProblem": {"hero": ACTOR},
    "RollExposure": {"hero": ACTOR},
    "RollReaction": {"hero": ACTOR},
    "RuleAbilityStep": {"character": CHARACTER},
    "RuleChallenge": {"hero": ACTOR},
    "RuleConduct": {"hero": ACTOR},
    "RuleWeaknessInPlay": {"hero": ACTOR},
    "SettleContest": {"hero": ACTOR, "opponent": CHARACTER},
    "SolveProblem": {"hero": ACTOR},
    "TakeDaysOff": {"hero": ACTOR},
    "UseMotivation": {"hero": ACTOR},
}
"""What the annotations alone do not say of the commands' parameters (``domain.kinds``)."""
