"""Code Green: newly born inhuman beings, a 3×3 Profile Grid of traits, tokens, tests and strain."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.commands import Change, View
from domain.events import Event, HouseRule
from domain.rulesets.code_green.checks import check_test_resolved
from domain.rulesets.code_green.events import Recovered, StrainMarksCleared, TokensReturned
from domain.rulesets.code_green.settings import house_rules, settings_from
from domain.rulesets.code_green.state import SCENE_BOUND, CgCharacter, evolve


class CodeGreen:
    name = "code-green"
    title = "Code Green"
    character_type = CgCharacter

    def house_rules(self, given: Mapping[str, str]) -> tuple[HouseRule, ...]:
        return house_rules(given)

    def evolve_character(self, event: Event, state: Any) -> Any:
        return evolve(event, state)

    def needs_scene(self, event: Event) -> bool:
        return isinstance(event, SCENE_BOUND)

    def end_scene(self, view: View) -> Sequence[Change]:
        """Marks clear, tokens return to hand, and incapacitation ends (CG-A4 defaults)."""
        rules = settings_from(view.campaign.house_rules)
        changes: list[Change] = []
        for entry in view.campaign.roster:
            c: CgCharacter = view.character(entry.character_id)
            check_test_resolved(c)
            if c.marks and not rules.marks_persist:
                changes.append(Change(c.id, StrainMarksCleared(squares=tuple(sorted(c.marks)))))
            if c.placed or c.tokens:
                changes.append(Change(c.id, TokensReturned(squares=tuple(sorted(c.tokens)))))
            if c.incapacitated and rules.incapacitation_ends_at_scene_end:
                changes.append(Change(c.id, Recovered(reason="the scene ended")))
        return changes

    def end_session(self, view: View) -> Sequence[Change]:
        """Code Green has nothing that happens between sessions."""
        return ()


RULESET = CodeGreen()
