"""The Sims RPG (PDQ): ten qualities in five ranks, 2d6 against target numbers, conflicts with
Failure and Damage Ranks the defender distributes, strategies, recovery and upgrades."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from domain.commands import Change, View
from domain.rulesets.base import RulesetBase

# Importing it registers the replay of scene ends, recovery and improvement.
from domain.rulesets.sims import state_recovery  # noqa: F401
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import check_scene_can_end
from domain.rulesets.sims.lookup import everyone
from domain.rulesets.sims.settings import RULES
from domain.rulesets.sims.state import evolve

if TYPE_CHECKING:
    from domain.campaign import CampaignState
    from domain.posts import WritePost


class Sims(RulesetBase[SimsCharacter]):
    name = "sims"
    title = "Sims: Role Playing Game (PDQ)"
    character_type = SimsCharacter
    rules = RULES
    replay = staticmethod(evolve)
    resolutions = frozenset({"allocate"})  # the ranks of the hit or failure before it

    def end_scene(self, view: View) -> Sequence[Change]:
        """Strategies and turns end; lost ranks come back by the danger the GM declared."""
        from domain.rulesets.sims.recovery import scene_end  # a command module: loaded when used

        for c in everyone(view):
            check_scene_can_end(c)
        return scene_end(view)

    def check_private_post(self, campaign: CampaignState, post: WritePost) -> None:
        """Behind the Scenes: between the GM and one player, about a character (R-PDQ-15)."""
        from domain.rulesets.sims.behind_the_scenes import check_private_post

        check_private_post(campaign, post)


RULESET = Sims()
