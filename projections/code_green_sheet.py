"""Code Green's character sheet: the Profile Grid `character show` prints, the one-line status,
and the values the JSON sheet adds to the character's fields."""

from __future__ import annotations

from typing import Any

from domain.campaign import CampaignState
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.settings import settings_from
from domain.rulesets.code_green.tables import Square, d66_range, square_at

_GRID_WIDTH = 60  # the widest a one-line-per-row grid gets; wider, each square takes two lines


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
    squares = [
        [square_at(row, column) for column in range(1, len(c.function) + 1)]
        for row in range(1, len(c.form) + 1)
    ]

    def cell(square: Square, stacked: bool) -> list[str]:
        token = f"{'o' if square in c.tokens else '.'}{'x' if square in c.marks else ' '}"
        ranges = d66_range(square, layout)
        return [f"{token} {square}", f"   {ranges}"] if stacked else [f"{token} {square} {ranges}"]

    header = ["", *c.function]
    for stacked in (False, True):  # long d66 ranges (die-per-axis) go under their squares
        rows = [
            [[form, *([""] if stacked else [])], *(cell(s, stacked) for s in row)]
            for form, row in zip(c.form, squares, strict=True)
        ]
        grid = _grid(header, rows)
        if max(len(line) for line in grid) <= _GRID_WIDTH:
            break
    title = f"{c.name} (played by {c.player}): {waiting_for(c)}"
    return "\n".join([title, *grid, "o token   x strain mark   . empty"])


def _grid(header: list[str], rows: list[list[list[str]]]) -> list[str]:
    """A table whose columns line up whatever their contents: each column as wide as its widest
    line, columns parted by `|`, the header ruled off; a row's cells may have several lines."""
    widths = [
        max(len(text) for text in [name, *(line for row in rows for line in row[i])])
        for i, name in enumerate(header)
    ]

    def line(texts: list[str]) -> str:
        return " | ".join(
            f"{text:<{width}}" for text, width in zip(texts, widths, strict=True)
        ).rstrip()

    lines = [line(header), "-+-".join("-" * width for width in widths)]
    for row in rows:
        lines.extend(line([cell[i] for cell in row]) for i in range(len(row[0])))
    return lines


def sheet_extras(c: CgCharacter) -> dict[str, Any]:
    """What the JSON sheet adds to the character's own fields: its tokens and marks in grid
    order, and what it is waiting for."""
    return {
        "tokens": sorted(s.value for s in c.tokens),
        "marks": sorted(s.value for s in c.marks),
        "status": waiting_for(c),
    }
