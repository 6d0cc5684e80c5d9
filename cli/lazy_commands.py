"""Commands by name, each imported the first time it is looked up: a run imports the verb it
runs and no other (the group's own verbs, ``cli.main.SharedVerbs``; a system's,
``cli.systems.LazyVerbs``). Iterating lists every name without importing a command."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping

import click


class LazyCommands(MutableMapping[str, click.Command]):
    """``modules``: each command's module; ``load`` imports one command from it."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, click.Command] = {}

    def load(self, name: str, module: str) -> click.Command:
        raise NotImplementedError

    def loaded(self, name: str) -> click.Command | None:
        """The command if it was imported already, else None (nothing is imported)."""
        return self._loaded.get(name)

    def __getitem__(self, name: str) -> click.Command:
        command = self._loaded.get(name)
        if command is None:
            command = self._loaded[name] = self.load(name, self._modules[name])
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
