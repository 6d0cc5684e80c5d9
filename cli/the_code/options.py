"""Options several of The Code's verbs share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

REVEAL_HELP = "A detail the GM chooses to reveal instead of the ladder's (repeatable, in order)."


def reveal_option(f: F) -> F:
    """--reveal DETAIL: the GM's choice of the details new Exposure levels reveal."""
    return click.option("--reveal", multiple=True, metavar="DETAIL", help=REVEAL_HELP)(f)
