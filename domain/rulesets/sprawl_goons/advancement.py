"""Character Advancement: a level at the end of each mission."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.checks import check_can_act
from domain.rulesets.sprawl_goons.events import LevelGained, MissionCompleted
from domain.rulesets.sprawl_goons.lookup import character, roster, stat
from domain.rulesets.sprawl_goons.tables import Secondary


@frozen(kw_only=True)
class CompleteMission(Plain):
    """The mission ends: each living player character has a level to take (Advancement)."""

    name: ClassVar[str] = "mission complete"
    mission: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        pcs = [c for c in roster(view) if c.is_pc and not c.dead]
        if not pcs:
            raise errors.NoPlayerCharacters()
        mission = self.mission.strip() or "the mission"
        return tuple(Change(c.id, MissionCompleted(mission=mission)) for c in pcs)


def check_level_due(c: SgCharacter) -> None:
    """A goon able to act, with a level earned and not yet taken."""
    check_can_act(c, "level up")
    if c.levels_due < 1:
        raise errors.NoLevelDue(name=c.name)


@frozen(kw_only=True)
class LevelUp(Plain):
    """Take a level: raise a stat by 1, and Resilience or Inventory Score by 1."""

    name: ClassVar[str] = "level up"
    verb: ClassVar[str] = "level-up"
    character: str
    stat: str
    secondary: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_can_act(c, "level up")
        raised = stat(self.stat)
        try:
            secondary = Secondary(self.secondary.strip().lower())
        except ValueError:
            raise errors.UnknownSecondary(text=self.secondary) from None
        check_level_due(c)
        value = c.resilience_max if secondary is Secondary.RESILIENCE else c.inventory
        gained = LevelGained(
            level=c.level + 1,
            stat=raised,
            stat_value=c.stat(raised) + 1,
            secondary=secondary,
            secondary_value=value + 1,
        )
        return (Change(c.id, gained),)
