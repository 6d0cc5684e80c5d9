"""Code Green's character sheet: the Profile Grid `character show` prints, the one-line status,
and the values the JSON sheet adds to the character's fields."""

from __future__ import annotations

from typing import Any

from domain.campaign import CampaignState
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.settings import settings_from
from domain.rulesets.code_green.tables import d66_range, square_at

_WIDTH = 16  # characters per grid column


def waiting_for(c: CgCharacter) -> str:
    """What the character must do next, or how it stands in the scene."""
    if c.displacement is not None:
        return f"must displace the token on {c.displacement}"
    if c.test is not None:
        return f"must adapt after test {c.test.number}" if c.test.rolled else "test declared"
    if c.incapacitated:
        return "incapacitated"
    return "tokens placed" if c.placed else "tokens in hand"


def status(c: CgCharacter) -> str:
    """One line: what the character is waiting for, its tokens and marks."""
    marks = f"; marks {', '.join(sorted(c.marks))}" if c.marks else ""
    tokens = f"; tokens {', '.join(sorted(c.tokens))}" if c.tokens else ""
    return f"{waiting_for(c)}{tokens}{marks}"


def sheet_text(c: CgCharacter, campaign: CampaignState) -> str:
    """The Profile Grid: a row per Form trait, a column per Function trait, each square with its
    token, its strain mark and the d66 results that name it (under the campaign's grid layout)."""
    layout = settings_from(campaign.house_rules).grid
    lines = [f"{c.name} (played by {c.player}): {waiting_for(c)}"]
    lines.append(" " * 8 + "".join(f"{fn:<{_WIDTH}}" for fn in c.function))
    for row, form in enumerate(c.form, start=1):
        cells = []
        for column in range(1, len(c.function) + 1):
            square = square_at(row, column)
            mark = "x" if square in c.marks else " "
            token = "o" if square in c.tokens else "."
            cells.append(f"{token}{mark} {square} {d66_range(square, layout):<{_WIDTH - 9}}")
        lines.append(f"{form:<8}" + "".join(cells))
    lines.append("o token   x strain mark   . empty")
    return "\n".join(lines)


def sheet_extras(c: CgCharacter) -> dict[str, Any]:
    """What the JSON sheet adds to the character's own fields: its tokens and marks in grid
    order, and what it is waiting for."""
    return {
        "tokens": sorted(s.value for s in c.tokens),
        "marks": sorted(s.value for s in c.marks),
        "status": waiting_for(c),
    }
