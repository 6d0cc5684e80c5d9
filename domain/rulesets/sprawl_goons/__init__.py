"""Sprawl Goons: Upgraded: 2d6 + stat + relevant items against a Difficulty Score, dangerous
rolls whose margin is damage, critical injuries, healing, gear, hacking and advancement."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import Change, View
from domain.rulesets.base import RulesetBase

# Importing it registers the replay of harm and healing (it imports the state module).
from domain.rulesets.sprawl_goons import state_harm  # noqa: F401
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.events import SceneEffectsCleared
from domain.rulesets.sprawl_goons.settings import RULES
from domain.rulesets.sprawl_goons.state import evolve


def _scene_effects(c: SgCharacter) -> tuple[str, ...]:
    what = [f"{b.source} (+{b.value} {b.stat}) wears off" for b in c.boosts]
    if c.aim is not None:
        what.append(f"aim on {c.aim.target} lost")
    if c.fire is not None:
        what.append("the fire goes out")
    if c.initiative is not None and not c.dead:
        what.append("out of the fight")
    return tuple(what)


class SprawlGoons(RulesetBase[SgCharacter]):
    name = "sprawl-goons"
    title = "Sprawl Goons: Upgraded"
    character_type = SgCharacter
    rules = RULES
    replay = staticmethod(evolve)

    def end_scene(self, view: View) -> Sequence[Change]:
        """Scene-long effects end: drugs wear off (SG-A15), aim, fire and the combat order."""
        changes = []
        for entry in view.campaign.roster:
            c: SgCharacter = view.character(entry.character_id)
            what = _scene_effects(c)
            if what:
                changes.append(Change(c.id, SceneEffectsCleared(what=what)))
        return changes


RULESET = SprawlGoons()
