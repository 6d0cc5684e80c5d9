"""Looking things up for a command: house rules, characters by name, squares by name."""

from __future__ import annotations

import re

from domain.commands import View
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.settings import Settings, settings_from
from domain.rulesets.code_green.tables import (
    Square,
    Table,
    find_trait,
)

ROLL = "roll"
REROLL_LIMIT = 100  # a runaway dice source is refused rather than looped on forever


def settings(view: View) -> Settings:
    return settings_from(view.campaign.house_rules)


def character(view: View, ref: str) -> CgCharacter:
    state: CgCharacter = view.character(view.campaign.find(ref).character_id)
    return state


def parse_square(c: CgCharacter, text: str) -> Square:
    """A square named as R1C2 or by its pair of traits (Legs/Invulnerable, Invulnerable Legs)."""
    cleaned = text.strip()
    if re.fullmatch(r"[Rr][1-3][Cc][1-3]", cleaned):
        return Square(cleaned.upper())
    # "x" separates only as a word of its own (Legs x Cryptic): Auxiliary and Toxic hold one.
    words = [w for w in re.split(r"\s+[xX]\s+|[\s/×+,*-]+", cleaned) if w]
    if len(words) == 2:
        forms = [f for w in words if (f := find_trait(Table.FORM, w)) in c.form]
        functions = [f for w in words if (f := find_trait(Table.FUNCTION, w)) in c.function]
        if len(forms) == 1 and len(functions) == 1:
            return c.square_of(forms[0], functions[0])  # type: ignore[arg-type]
    raise errors.UnknownSquare(text=text)
