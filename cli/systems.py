"""Each rule system's CLI module (its verbs and sheets), imported when a campaign needs it."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from types import ModuleType
from typing import TYPE_CHECKING, cast

import click

from cli.completion import COMPLETING, complete_from_kinds
from domain.rulesets import SYSTEMS

if TYPE_CHECKING:
    from cli.sheets import Sheets

_COMPLETING: set[str] = set()  # the systems whose verbs complete from their kinds


class LazyVerbs(MutableMapping[str, click.Command]):
    """A system's verbs by name, each imported from its module (``modules``: the verb's module,
    whose ``COMMANDS`` defines it) the first time it is looked up, and given what ``verbs``
    gives every verb (``prepare``: its ``--say``) then. Iterating lists every verb without
    importing one; looking each up (help, completion, the manifest) imports them all."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, click.Command] = {}
        self.prepare: Callable[[str, click.Command], None] = lambda name, command: None

    def __getitem__(self, name: str) -> click.Command:
        command = self._loaded.get(name)
        if command is None:
            commands = importlib.import_module(self._modules[name]).COMMANDS
            command = next(c for c in commands if c.name == name)
            self.prepare(name, command)
            self._loaded[name] = command
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._modules.pop(name, None)
        self._loaded.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._modules or name in self._loaded

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._modules), **dict.fromkeys(self._loaded)})

    def __len__(self) -> int:
        return len(self._modules.keys() | self._loaded.keys())


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
