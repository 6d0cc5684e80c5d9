"""Each rule system's CLI module (its verbs and sheets), imported when a campaign needs it."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING, cast

import click

from cli.completion import COMPLETING, complete_from_kinds
from domain.rulesets import SYSTEMS

if TYPE_CHECKING:
    from cli.sheets import Sheets

_COMPLETING: set[str] = set()  # the systems whose verbs complete from their kinds


def module(system: str) -> ModuleType:
    """A system's CLI package (``cli.<package>``), imported the first time it is asked for."""
    return importlib.import_module(f"cli.{SYSTEMS[system]}")


def verbs(system: str) -> click.Group:
    """A system's verbs, each ruling verb narrating (``--say``); when the shell asks for
    completions, with what their parameters' kinds complete with (``cli.completion``; only then,
    as it loads every command)."""
    from cli.generated import GeneratedGroup
    from cli.say import add_say

    group = cast("click.Group", module(system).VERBS)
    if isinstance(group, GeneratedGroup):  # narrating and completing from its kinds already
        return group
    add_say(group)  # every ruling verb narrates (--say)
    if os.environ.get(COMPLETING) and system not in _COMPLETING:
        _COMPLETING.add(system)
        complete_from_kinds(group, system)
    return group


def sheets(system: str) -> Sheets:
    return cast("Sheets", module(system).SHEETS)


def all_verbs() -> dict[str, click.Group]:
    """Every system's verbs (for help, and when no campaign says which system)."""
    return {system: verbs(system) for system in SYSTEMS}
