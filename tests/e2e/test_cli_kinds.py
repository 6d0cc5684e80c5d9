"""The CLI's options agree with the registry's kinds (``domain.kinds``): a verb's argument or
option that is a choice offers its parameter's values (in any case), and what a verb's
arguments complete with is derived from the kinds (``cli.completion.complete_from_kinds``)."""

from __future__ import annotations

import click
import pytest

from cli import systems
from domain.kinds import Choice, ListOf
from domain.registry import parameters_of, verbs
from domain.rulesets import SYSTEMS


def leaves(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    found: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found |= leaves(command, f"{prefix}{name} ")
        else:
            found[f"{prefix}{name}"] = command
    return found


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_choice_on_the_command_line_is_its_parameters_choice(system: str) -> None:
    found = verbs(system)
    checked = 0
    for path, command in leaves(systems.verbs(system)).items():
        if path not in found:
            continue
        kinds = {p.name: p.kind for p in parameters_of(found[path].command)}
        for param in command.params:
            kind = kinds.get(param.name or "")
            kind = kind.item if isinstance(kind, ListOf) else kind
            if isinstance(param.type, click.Choice) and isinstance(kind, Choice):
                offered = sorted(str(c).casefold() for c in param.type.choices)
                assert sorted(v.casefold() for v in kind.values) == offered, (path, param.name)
                checked += 1
    # Sprawl Goons' choices are all read more loosely by its rules (in any case, a stat's first
    # letters, a number): text on its generated command line (tests/e2e/test_cli_generated.py)
    assert checked or system in ("code-green", "sprawl-goons")
