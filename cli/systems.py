"""Each rule system's CLI module (its verbs and sheets), imported when a campaign needs it."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, cast

import click

from domain.rulesets import SYSTEMS

if TYPE_CHECKING:
    from cli.sheets import Sheets


def module(system: str) -> ModuleType:
    """A system's CLI package (``cli.<package>``), imported the first time it is asked for."""
    return importlib.import_module(f"cli.{SYSTEMS[system]}")


def verbs(system: str) -> click.Group:
    """A system's verbs, generated from the registry (``cli.generated``): every ruling verb
    narrates (``--say``) and completes from its parameters' kinds already."""
    return cast("click.Group", module(system).VERBS)


def sheets(system: str) -> Sheets:
    return cast("Sheets", module(system).SHEETS)


def all_verbs() -> dict[str, click.Group]:
    """Every system's verbs (for help, and when no campaign says which system)."""
    return {system: verbs(system) for system in SYSTEMS}
