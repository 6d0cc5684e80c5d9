"""The Code's commands: each decides, from the state and the dice, the events of one ruling."""

from domain.rulesets.the_code.contest import Contest
from domain.rulesets.the_code.creation import CreateHero
from domain.rulesets.the_code.exposure import Blab, LowerExposure, RollExposure, RollReaction
from domain.rulesets.the_code.play import (
    FollowMo,
    RuleChallenge,
    RuleConduct,
    TakeDaysOff,
    UseMotivation,
    WeaknessInPlay,
)
from domain.rulesets.the_code.rewards import (
    AccomplishObjective,
    AlterObjective,
    BuyMotivation,
    SolveProblem,
)

__all__ = [
    "AccomplishObjective",
    "AlterObjective",
    "Blab",
    "BuyMotivation",
    "Contest",
    "CreateHero",
    "FollowMo",
    "LowerExposure",
    "RollExposure",
    "RollReaction",
    "RuleChallenge",
    "RuleConduct",
    "SolveProblem",
    "TakeDaysOff",
    "UseMotivation",
    "WeaknessInPlay",
]
