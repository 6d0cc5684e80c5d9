"""Code Green's verbs: characters, token placement, tests, assistance, strain, adaptation."""

from __future__ import annotations

from typing import Any

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from cli.sheets import Sheets, add_sheet_commands
from domain.campaign import CampaignState
from domain.errors import DomainError
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    CreateCharacter,
    DeclareTest,
    DisplaceToken,
    PlaceTokens,
    Recover,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.settings import settings_from
from domain.rulesets.code_green.state import CgCharacter
from domain.rulesets.code_green.tables import Square, square_for
from engine.mapper import converter


def _three(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(","))


# --- Characters --------------------------------------------------------------------------------


@click.group("character")
def character() -> None:
    """Create and show characters.

    \b
    Example:
      campaign character show 31415
    """


@character.command("create")
@click.option("--player", required=True, help="Who plays the character.")
@click.option(
    "--form",
    default="roll,roll,roll",
    show_default=True,
    help="Three Form traits in slot order (rows); 'roll' rolls d66 for a slot.",
)
@click.option(
    "--function",
    default="roll,roll,roll",
    show_default=True,
    help="Three Function traits in slot order (columns); 'roll' rolls d66 for a slot.",
)
@dice_options
@pass_context
def create(
    ctx: Context, player: str, form: str, function: str, faces: str | None, seed: int | None
) -> None:
    """Make a Code Green character: three Form and three Function traits, then five d6 for a name.

    Rolled duplicates are flipped, then re-rolled (Character Creation). With --dice, give the
    faces in the order rolled: two per d66 for each rolled trait, then the five name dice.

    \b
    Example:
      campaign character create --player alice --form Legs,Tail,Teeth \\
          --function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5
    """
    command = CreateCharacter(player=player, form=_three(form), function=_three(function))
    run(ctx, command, faces=faces, seed=seed)


def status(c: CgCharacter) -> str:
    if c.displacement is not None:
        return f"must displace the token on {c.displacement}"
    if c.test is not None:
        return f"must adapt after test {c.test.number}" if c.test.rolled else "test declared"
    if c.incapacitated:
        return "incapacitated"
    return "tokens placed" if c.placed else "tokens in hand"


def sheet_json(c: CgCharacter) -> dict[str, Any]:
    data: dict[str, Any] = converter.unstructure(c)
    data["tokens"] = sorted(data["tokens"])
    data["marks"] = sorted(data["marks"])
    data["status"] = status(c)
    return data


def _range(square: Square, layout: Any) -> str:
    values = [v for v in range(11, 67) if 1 <= v % 10 <= 6 and square_for(v, layout) is square]
    ordinal = [6 * (v // 10 - 1) + v % 10 - 1 for v in values]
    if ordinal == list(range(ordinal[0], ordinal[0] + len(ordinal))):
        return f"{values[0]}-{values[-1]}"
    return ",".join(str(v) for v in values)


def sheet_text(c: CgCharacter, layout: Any) -> str:
    width = 16
    lines = [f"{c.name} (played by {c.player}): {status(c)}"]
    lines.append(" " * 8 + "".join(f"{fn:<{width}}" for fn in c.function))
    for row, form in enumerate(c.form, start=1):
        cells = []
        for column in range(1, 4):
            square = Square(f"R{row}C{column}")
            mark = "x" if square in c.marks else " "
            token = "o" if square in c.tokens else "."
            cells.append(f"{token}{mark} {square} {_range(square, layout):<{width - 9}}")
        lines.append(f"{form:<8}" + "".join(cells))
    lines.append("o token   x strain mark   . empty")
    return "\n".join(lines)


# --- Scene play ----------------------------------------------------------------------------------


@click.command("place")
@click.argument("who")
@click.argument("squares", nargs=3)
@dice_options
@pass_context
def place(
    ctx: Context, who: str, squares: tuple[str, ...], faces: str | None, seed: int | None
) -> None:
    """Place a character's three tokens at the start of a scene.

    Each square is R1C1..R3C3, a pair such as Legs/Cryptic, or 'roll' (d66; an occupied square is
    flipped, then re-rolled).

    \b
    Example:
      campaign place 31415 R1C1 Tail/Invulnerable roll --dice 3,3
    """
    run(ctx, PlaceTokens(character=who, squares=squares), faces=faces, seed=seed)


@click.command("test")
@click.argument("who")
@click.argument("traits", nargs=-1)
@click.option("--no-pair", is_flag=True, help="No pair of traits applies (roll only assist dice).")
@click.option("--roll", "roll_now", is_flag=True, help="Roll at once (no assistance).")
@dice_options
@pass_context
def test(
    ctx: Context,
    who: str,
    traits: tuple[str, ...],
    no_pair: bool,
    roll_now: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Declare a test with one Form and one Function trait; friends may then assist.

    The pool is the tokens in the Form trait's row and the Function trait's column (the square
    where they cross counts once), plus one die per assisting friend. Roll it with `campaign roll`,
    or at once with --roll.

    \b
    Example:
      campaign test 31415 Legs Invulnerable --roll --dice 2,5
    """
    if no_pair and traits:
        raise TraitsWithNoPair()
    if not no_pair and len(traits) != 2:
        raise TraitsWithNoPair()
    form, function = (None, None) if no_pair else traits
    command = DeclareTest(character=who, form=form, function=function, roll=roll_now)
    run(ctx, command, faces=faces, seed=seed)


class TraitsWithNoPair(DomainError):
    template = "name one Form and one Function trait (e.g. Legs Invulnerable), or pass --no-pair"


@click.command("assist")
@click.argument("helper")
@click.argument("square")
@click.option("--why", required=True, help="How the helper's pair helps (the rules ask for it).")
@pass_context
def assist(ctx: Context, helper: str, square: str, why: str) -> None:
    """Hand one die to the declared test, with the pair under one of the helper's own tokens.

    \b
    Example:
      campaign assist 52231 Teeth/Cryptic --why "bites through the cable"
    """
    run(ctx, AssistTest(helper=helper, square=square, justification=why))


@click.command("roll")
@click.argument("who", required=False)
@dice_options
@pass_context
def roll(ctx: Context, who: str | None, faces: str | None, seed: int | None) -> None:
    """Roll the declared test: highest die; a pool of zero rolls two and keeps the lowest.

    \b
    Example:
      campaign roll --dice 3,6
    """
    run(ctx, RollTest(character=who), faces=faces, seed=seed)


@click.command("strain")
@click.argument("who")
@click.option("--to", "destination", help="Where a struck token goes, if it must move.")
@dice_options
@pass_context
def strain(
    ctx: Context, who: str, destination: str | None, faces: str | None, seed: int | None
) -> None:
    """GM ruling: the test causes strain. Rolls d66 for the square struck.

    A struck token moves to an empty unmarked square (--to, or `campaign displace` later), or is
    removed when fewer than three unmarked squares remain; a square already marked incapacitates.

    \b
    Example:
      campaign strain 31415 --to R1C2 --dice 1,3
    """
    run(ctx, SufferStrain(character=who, destination=destination), faces=faces, seed=seed)


@click.command("displace")
@click.argument("who")
@click.argument("square")
@pass_context
def displace(ctx: Context, who: str, square: str) -> None:
    """Move the token strain struck to an empty, unmarked square.

    \b
    Example:
      campaign displace 31415 R1C2
    """
    run(ctx, DisplaceToken(character=who, destination=square))


@click.command("adapt")
@click.argument("who")
@click.argument("squares", nargs=-1)
@pass_context
def adapt(ctx: Context, who: str, squares: tuple[str, ...]) -> None:
    """After a test, move one token FROM a square TO a different free one (required every test).

    Without squares, records that no token can move (only when that is true).

    \b
    Example:
      campaign adapt 31415 R1C1 R2C3
    """
    if len(squares) not in (0, 2):
        raise AdaptNeedsTwoSquares(count=len(squares))
    source, destination = squares if squares else (None, None)
    run(ctx, Adapt(character=who, source=source, destination=destination))


class AdaptNeedsTwoSquares(DomainError):
    template = "adapt takes a FROM and a TO square (or none when nothing can move), got {count}"


@click.command("recover")
@click.argument("who")
@pass_context
def recover(ctx: Context, who: str) -> None:
    """GM ruling: an incapacitated character recovers.

    \b
    Example:
      campaign recover 31415
    """
    run(ctx, Recover(character=who))


VERBS = click.Group("code-green", help="Code Green's verbs.")
for _command in (character, place, test, assist, roll, strain, displace, adapt, recover):
    VERBS.add_command(_command)


def sheet(c: CgCharacter, campaign: CampaignState) -> str:
    """The Profile Grid as `character show` prints it."""
    return sheet_text(c, settings_from(campaign.house_rules).grid)


def summary(c: CgCharacter) -> str:
    """One line: what the character is waiting for, its tokens and marks."""
    marks = f"; marks {', '.join(sorted(c.marks))}" if c.marks else ""
    tokens = f"; tokens {', '.join(sorted(c.tokens))}" if c.tokens else ""
    return f"{status(c)}{tokens}{marks}"


SHEETS = Sheets(text=sheet, json=sheet_json, status=summary)
add_sheet_commands(character, SHEETS, "31415")
