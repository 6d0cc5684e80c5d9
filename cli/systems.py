"""Each rule system's CLI module (its verbs and sheets), imported when a campaign needs it."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, cast

import click

from cli.completion import COMPLETING, complete_from_kinds
from cli.lazy_commands import LazyCommands
from domain.rulesets import SYSTEMS

if TYPE_CHECKING:
    from cli.sheets import Sheets

_COMPLETING: set[str] = set()  # the systems whose verbs complete from their kinds


class LazyVerbs(LazyCommands):
    """A system's verbs by name, each imported from its module (``modules``: the verb's module,
    whose ``COMMANDS`` defines it) the first time it is looked up, and given what ``verbs``
    gives every verb (``prepare``: its ``--say``) then. Iterating lists every verb without
    importing one; looking each up (help, completion, the manifest) imports them all."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        super().__init__(modules)
        self.prepare: Callable[[str, click.Command], None] = lambda name, command: None

    def load(self, name: str, module: str) -> click.Command:
        command: click.Command = next(
            c for c in importlib.import_module(module).COMMANDS if c.name == name
        )
        self.prepare(name, command)
        return command


def module(system: str) -> ModuleType:
    """A system's CLI package (``cli.<package>``), imported the first time it is asked for."""
    return importlib.import_module(f"cli.{SYSTEMS[system]}")


def verbs(system: str) -> click.Group:
    """A system's verbs, each ruling verb narrating (``--say``); when the shell asks for
    completions, with what their parameters' kinds complete with (``cli.completion``; only then,
    as it loads every command)."""
    from cli.say import add_say

    group = cast("click.Group", module(system).VERBS)
    if isinstance(group.commands, LazyVerbs):  # each verb narrates once it is imported
        group.commands.prepare = lambda name, command: add_say(
            click.Group(commands={name: command})
        )
    else:
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
