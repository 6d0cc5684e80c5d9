"""How the shared code shows Code Green (``projections.presentation``): the drawn sheet is the
Profile Grid (a row per Form trait, a column per Function trait, each square with its token,
its strain mark and the d66 results that name it) and the test the character is in; the turn
panel says who must place tokens, which test is open (assists may join, then it is rolled),
which adaptation and displacement are owed."""

from __future__ import annotations

from collections.abc import Sequence

from domain.campaign import CampaignState
from domain.rulesets.code_green.character import CgCharacter, OpenTest
from domain.rulesets.code_green.settings import settings_from
from domain.rulesets.code_green.tables import consulted_squares, d66_range, square_at
from projections.code_green_recap import HIGHLIGHTS
from projections.code_green_sheet import sheet_extras, sheet_text, status, waiting_for
from projections.describe import plural
from projections.drawing import (
    Badge,
    Cell,
    Drawing,
    Grid,
    GridRow,
    Row,
    Rows,
    Turn,
    TurnGroup,
)
from projections.presentation import Presentation

TOKEN = Badge("token", "good")
MARK = Badge("strain mark", "bad")
TESTED = Badge("tested")


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _tested(test: OpenTest | None, c: CgCharacter) -> frozenset[str]:
    """The squares the open test consults: its Form's row and its Function's column."""
    if test is None or test.form is None or test.function is None:
        return frozenset()
    row, column = c.form.index(test.form) + 1, c.function.index(test.function) + 1
    return frozenset(consulted_squares(row, column))


def profile_grid(c: CgCharacter, campaign: CampaignState) -> Grid:
    """The 3x3 Profile Grid as the campaign's grid layout numbers it."""
    layout = settings_from(campaign.house_rules).grid
    tested = _tested(c.test, c)

    def cell(row: int, column: int) -> Cell:
        square = square_at(row, column)
        badges: tuple[Badge, ...] = (TOKEN,) if square in c.tokens else ()
        badges += (MARK,) if square in c.marks else ()
        badges += (TESTED,) if square in tested else ()
        return Cell(name=str(square), badges=badges, note=f"d66 {d66_range(square, layout)}")

    rows = tuple(
        GridRow(label=str(form), cells=tuple(cell(r, k) for k in range(1, len(c.function) + 1)))
        for r, form in enumerate(c.form, start=1)
    )
    legend = (TOKEN, MARK, *((TESTED,) if tested else ()))
    columns = tuple(str(f) for f in c.function)
    return Grid(title="Profile Grid", columns=columns, rows=rows, legend=legend)


def _test_rows(c: CgCharacter) -> tuple[Row, ...]:
    test = c.test
    if test is None:
        return ()
    traits = " ".join(t for t in (test.form, test.function) if t) or "traits not named"
    state = "rolled: adaptation owed" if test.rolled else "declared: assists may join"
    return (
        Row(label=f"Test {test.number}", value=traits, badges=(Badge(state, "warn"),)),
        Row(
            label="Dice",
            value=_dice(test.pool),
            note=f"{test.own_tokens} own, {plural(len(test.assists), 'assist')}",
        ),
    )


def sheet_drawing(c: CgCharacter, campaign: CampaignState) -> Drawing:
    """The Profile Grid, then the test in play and the character's standing."""
    standing = [Row(label="Now", value=waiting_for(c))]
    standing.append(Row(label="Tests taken", value=str(c.tests)))
    if c.incapacitated:
        standing.append(Row(label="Incapacitated", badges=(Badge("cannot test", "bad"),)))
    return Drawing(
        summary=f"{c.name} (played by {c.player}): {waiting_for(c)}",
        parts=(
            profile_grid(c, campaign),
            Rows(title="In play", rows=(*_test_rows(c), *standing)),
        ),
    )


def turns(characters: Sequence[CgCharacter], campaign: CampaignState) -> tuple[TurnGroup, ...]:
    """The open test (one at a time), the adaptation or displacement owed after it, and who
    still holds their tokens in a running scene."""
    owed: list[Turn] = []
    for c in characters:
        if c.displacement is not None:
            owed.append(Turn(c.name, f"must displace the token on {c.displacement}", now=True))
        elif c.test is not None and c.test.rolled:
            owed.append(Turn(c.name, f"must adapt after test {c.test.number}", now=True))
        elif c.test is not None:
            pool = _dice(c.test.pool)
            what = f"test {c.test.number} open ({pool}): assists may join, then it is rolled"
            owed.append(Turn(c.name, what, now=True))
    groups = [TurnGroup(title="The open test", turns=tuple(owed))] if owed else []
    if campaign.scene is not None:
        placing = tuple(Turn(c.name, "to place three tokens") for c in characters if not c.placed)
        if placing:
            groups.append(TurnGroup(title="Tokens to place", turns=placing))
    return tuple(groups)


PRESENTATION = Presentation(
    sheet_text=sheet_text,
    sheet_drawing=sheet_drawing,
    sheet_extras=sheet_extras,
    status=status,
    highlights=HIGHLIGHTS,
    turns=turns,
)
