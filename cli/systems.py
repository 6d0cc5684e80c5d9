"""Each rule system's CLI module (its verbs and sheets), imported when a campaign needs it."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import cast

import click

from cli.sheets import Sheets
from domain.rulesets import SYSTEMS


def module(system: str) -> ModuleType:
    return importlib.import_module(f"cli.{SYSTEMS[system]}")


def verbs(system: str) -> click.Group:
    from cli.say import add_say

    group = cast("click.Group", module(system).VERBS)
    add_say(group)  # every ruling verb narrates (--say)
    return group


def sheets(system: str) -> Sheets:
    return cast("Sheets", module(system).SHEETS)


def all_verbs() -> dict[str, click.Group]:
    """Every system's verbs (for help, and when no campaign says which system)."""
    return {system: verbs(system) for system in SYSTEMS}
