"""The options every Action Roll verb shares: what the referee rules about the roll."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cli.dice import dice_options

F = TypeVar("F", bound=Callable[..., Any])

_CALLS = (
    click.option(
        "--item", "items", multiple=True, help="A relevant item (+its bonus); repeatable."
    ),
    click.option(
        "--bonus",
        "bonuses",
        multiple=True,
        metavar="SOURCE=+N",
        help="A situational bonus or penalty; repeatable.",
    ),
    click.option(
        "--glitch",
        is_flag=True,
        help="The referee calls the Glitch dice (3d6, keep the worst two).",
    ),
    click.option(
        "--upgrade",
        is_flag=True,
        help="The referee calls the Upgrade dice (3d6, keep the best two).",
    ),
)


def roll_options(f: F) -> F:
    """Relevant items, bonuses, Glitch/Upgrade (the verb's ``items``, ``bonuses``, ``glitch`` and
    ``upgrade`` parameters), then --dice and --seed."""
    for option in reversed(_CALLS):
        f = option(f)
    return dice_options(f)
