"""Code Green: newly born inhuman beings, a 3×3 Profile Grid of traits, tokens, tests and strain."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.commands import Change, View
from domain.events import Event, HouseRule
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.events import Recovered, StrainMarksCleared, TokensReturned
from domain.rulesets.code_green.settings import house_rules, settings_from
from domain.rulesets.code_green.state import CgCharacter, evolve


class CodeGreen:
    name = "code-green"
    title = "Code Green"
    character_type = CgCharacter

    def house_rules(self, given: Mapping[str, str]) -> tuple[HouseRule, ...]:
        return house_rules(given)

    def evolve_character(self, event: Event, state: Any) -> Any:
        return evolve(event, state)

    def end_scene(self, view: View) -> Sequence[Change]:
        """Marks clear, tokens return to hand, and incapacitation ends (CG-A4 defaults)."""
        rules = settings_from(view.campaign.house_rules)
        changes: list[Change] = []
        for entry in view.campaign.roster:
            c: CgCharacter = view.character(entry.character_id)
            if c.displacement is not None:
                raise errors.TestUnresolved(name=c.name, test=c.tests, what="a token must move")
            if c.test is not None:
                what = "adaptation pending" if c.test.rolled else "not rolled"
                raise errors.TestUnresolved(name=c.name, test=c.test.number, what=what)
            if c.marks and not rules.marks_persist:
                changes.append(Change(c.id, StrainMarksCleared(squares=tuple(sorted(c.marks)))))
            if c.placed or c.tokens:
                changes.append(Change(c.id, TokensReturned(squares=tuple(sorted(c.tokens)))))
            if c.incapacitated and rules.incapacitation_ends_at_scene_end:
                changes.append(Change(c.id, Recovered(reason="the scene ended")))
        return changes


RULESET = CodeGreen()
