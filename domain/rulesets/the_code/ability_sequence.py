"""The Ability Sequence: the GM rules where a character stands for a task, from whether their
Profession and Advantage are relevant and whether their Weakness applies (DIGEST 4.1, TC-A22).
Contests and unopposed challenges on that task then use the ruling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.events import AbilityStepRuled
from domain.rulesets.the_code.lookup import character, parse_task
from domain.rulesets.the_code.tables import ability_step


@frozen(kw_only=True)
class RuleAbilityStep(Plain):
    """The GM rules a character's step on the Ability Sequence for a task: 1 with a relevant
    Profession and Advantage, 2 with the Profession, 3 with the Advantage, 4 with neither, 5
    when the Weakness applies (it overrides the rest). Contests and challenges on the task use
    it; a new ruling for the same task replaces the old one."""

    name: ClassVar[str] = "step"
    character: str
    task: str
    profession: bool = False
    advantage: bool = False
    weakness: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        task = parse_task(self.task)
        for trait, relevant, held in (
            ("Profession", self.profession, bool(c.profession)),
            ("Advantage", self.advantage, bool(c.advantages)),
            ("Weakness", self.weakness, bool(c.weakness)),
        ):
            if relevant and not held:
                raise errors.TraitMissing(name=c.name, trait=trait, task=task)
        before = c.step_for(task)
        ruled = AbilityStepRuled(
            task=task,
            profession=self.profession,
            advantage=self.advantage,
            weakness=self.weakness,
            step=ability_step(self.profession, self.advantage, self.weakness),
            previous=None if before is None else before.step,
        )
        return (Change(c.id, ruled),)
