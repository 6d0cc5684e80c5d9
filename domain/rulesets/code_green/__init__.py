"""Code Green: newly born inhuman beings, a 3×3 Profile Grid of traits, tokens, tests and strain."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import Change, View
from domain.rulesets.base import RulesetBase
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.checks import check_test_resolved
from domain.rulesets.code_green.events import Recovered, StrainMarksCleared, TokensReturned
from domain.rulesets.code_green.settings import RULES, settings_from
from domain.rulesets.code_green.state import evolve


class CodeGreen(RulesetBase[CgCharacter]):
    name = "code-green"
    title = "Code Green"
    character_type = CgCharacter
    rules = RULES
    replay = staticmethod(evolve)
    # The steps of a declared test: its assists (and the GM's rejection of one), its roll, the
    # strain it causes, the token that strain displaces, the adaptation after it.
    resolutions = frozenset({"assist", "reject-assist", "roll", "strain", "displace", "adapt"})

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


RULESET = CodeGreen()
