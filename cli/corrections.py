"""Corrections: amending and undoing rulings, and resolving the disputes players raise."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cli.context import WHOLE_NUMBER, Context, key_value, pass_context
from cli.dice import entered_dice
from cli.render import show_ruling
from domain.dice import parse_faces
from domain.errors import InvalidParameter
from domain.events import Outcome
from engine import DiceSpec, RulingResult, redrawn

F = TypeVar("F", bound=Callable[..., Any])


def later_rulings(f: F) -> F:
    """What a correction does to the later rulings it invalidates: refuse (the default), undo
    them too (--with-dependents), or decide them again with their own dice (--redecide)."""
    undone = click.option(
        "--with-dependents", is_flag=True, help="Also undo the later rulings that depend on it."
    )
    again = click.option(
        "--redecide",
        is_flag=True,
        help="Decide the later rulings again with their own dice and amend those that change.",
    )
    return undone(again(f))


@click.command("amend")
@click.argument("ruling", type=WHOLE_NUMBER)
@click.option(
    "--set",
    "changes",
    multiple=True,
    metavar="KEY=VALUE",
    help=(
        "A corrected parameter of the ruling (repeatable; see `campaign --json log`), or "
        "say=TEXT: its narration."
    ),
)
@click.option("--reason", required=True, help="Why the ruling is corrected (kept in the log).")
@later_rulings
@entered_dice
@pass_context
def amend(
    ctx: Context,
    ruling: int,
    changes: tuple[str, ...],
    reason: str,
    with_dependents: bool,
    redecide: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Re-resolve a past ruling with corrected parameters and the dice that were rolled.

    The correction replaces the ruling's consequences; the original, the amendment, who made it
    and why stay in the log. A die the original never rolled is taken from --dice or --seed, or
    else drawn: in a session, from its committed dice, at the next counter of the ruling's roller
    (every re-draw is counted and listed by verify-dice). Every later ruling is decided again on
    the corrected history with its own dice; those that no longer stand are named, and the
    amendment refused, unless --with-dependents undoes them or --redecide records their new
    decisions too. `--set say=TEXT` corrects the ruling's narration (--say); a player may correct
    their own post's text and the narration of their own rulings, nothing else.

    \b
    Example:
      campaign amend 12 --set function=Cryptic --reason "the lock is a puzzle, not a wall"
      campaign amend 14 --set "say=Tanner vaults the rail." --reason "a better word"
    """
    corrections = dict(key_value(item, InvalidParameter) for item in changes)
    spec = DiceSpec(faces=parse_faces(faces) if faces is not None else None, seed=seed)
    result = ctx.engine.amend(
        ctx.campaign(),
        ruling,
        corrections,
        reason=reason,
        actor=ctx.actor,
        dice=spec,
        with_dependents=with_dependents,
        redecide=redecide,
    )
    show_ruling(result, ctx.as_json)
    if not ctx.as_json:
        for line in drawn_lines(result):
            click.echo(f"  {line}")


def drawn_lines(result: RulingResult) -> list[str]:
    """What an amendment says of the dice it drew that the original never rolled: how many,
    where from (the committed counters of the roller's lane, or a hidden key), and how many
    times the ruling's dice have been re-drawn."""
    made = result.made
    params = json.loads(made.params)
    fresh = params.get("new_dice", 0)
    if not fresh:
        return []
    count = f"ruling {params['ruling']}: {redrawn(params.get('redraws', 1))}"
    if made.counter is None:
        return [f"{fresh} die/dice the original never rolled were rolled for the correction", count]
    last = made.counter + made.draws - 1
    where = f"{made.lane}'s" if made.leaf is None else f"hidden key {made.leaf}'s"
    return [
        f"{fresh} die/dice the original never rolled were drawn for the correction from "
        f"{where} committed dice (counters {made.counter}-{last})",
        f"{count} (verify and verify-dice list every re-draw)",
    ]


@click.command("undo")
@click.argument("ruling", type=WHOLE_NUMBER, required=False)
@click.option("--reason", required=True, help="Why the ruling is undone (kept in the log).")
@later_rulings
@pass_context
def undo(
    ctx: Context, ruling: int | None, reason: str, with_dependents: bool, redecide: bool
) -> None:
    """Undo a ruling (default: the latest one in force). The log keeps it, marked as undone.

    Every later ruling is decided again without it, with its own recorded dice. A ruling that
    no longer stands (refused, or other events) depends on it: the undo is refused naming
    them, --with-dependents undoes them together, and --redecide records each one's new
    decision instead ("undo that hit and let the rest play out as rolled").

    \b
    Example:
      campaign undo 12 --reason "the pair did not apply to a locked door"
    """
    result = ctx.engine.undo(
        ctx.campaign(),
        ruling,
        reason=reason,
        actor=ctx.actor,
        with_dependents=with_dependents,
        redecide=redecide,
    )
    show_ruling(result, ctx.as_json)


@click.command("resolve")
@click.argument("dispute", type=WHOLE_NUMBER)
@click.argument("outcome", type=click.Choice([o.value for o in Outcome]))
@click.option(
    "--set",
    "changes",
    multiple=True,
    metavar="KEY=VALUE",
    help="With amended: a corrected parameter of the disputed ruling (repeatable).",
)
@click.option("--reason", required=True, help="Why (kept in the log, shown in the recap).")
@later_rulings
@entered_dice
@pass_context
def resolve(
    ctx: Context,
    dispute: int,
    outcome: str,
    changes: tuple[str, ...],
    reason: str,
    with_dependents: bool,
    redecide: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Resolve a dispute (the GM): the ruling stands (upheld), or is undone or amended by the
    ruling that resolves it, exactly as `undo` and `amend` would.

    \b
    Example:
      campaign resolve 1 amended --set items=katana --reason "it was in hand"
    """
    spec = DiceSpec(faces=parse_faces(faces) if faces is not None else None, seed=seed)
    result = ctx.engine.resolve(
        ctx.campaign(),
        dispute,
        Outcome(outcome),
        reason=reason,
        changes=dict(key_value(item, InvalidParameter) for item in changes),
        actor=ctx.actor,
        dice=spec,
        with_dependents=with_dependents,
        redecide=redecide,
    )
    show_ruling(result, ctx.as_json)


COMMANDS = (amend, undo, resolve)
