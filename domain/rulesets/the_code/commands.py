"""The Code's commands: each decides, from the state and the dice, the events of one ruling.

The commands live in seven modules; this one names them all. A command's module is imported the
first time the command is looked up here (``domain.rulesets.lazy``), so a process that runs one
command does not build the classes of the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.rulesets.lazy import lent_names

if TYPE_CHECKING:
    from domain.rulesets.the_code.challenges import RuleChallenge, UseMotivation
    from domain.rulesets.the_code.contest import SettleContest
    from domain.rulesets.the_code.creation import CreateHero
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
    "FollowMo",
    "LowerExposure",
    "RollExposure",
    "RollReaction",
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
        "challenges": ("RuleChallenge", "UseMotivation"),
        "contest": ("SettleContest",),
        "creation": ("CreateHero",),
        "days_off": ("TakeDaysOff",),
        "exposure": ("Blab", "LowerExposure", "RollExposure", "RollReaction"),
        "rewards": ("AccomplishObjective", "AlterObjective", "BuyMotivation", "SolveProblem"),
        "session_flags": ("FollowMo", "RuleConduct", "RuleWeaknessInPlay"),
    },
)
