"""The command registry (``domain.registry``) and the CLI name the same verbs: a verb exists in
both or in neither, so another front end (the server) can offer exactly the CLI's verbs."""

from __future__ import annotations

import click
import pytest

from cli import systems
from cli.main import campaign
from domain.registry import verbs
from domain.rulesets import SYSTEMS

# CLI verbs that run no command of a system: reads, corrections (the engine's undo and amend),
# the store's own (init, import, use) and the table server's sign-ins (invite, token, revoke)
# and `serve` itself.
NOT_COMMANDS = {
    "amend",
    "character list",
    "character show",
    "completion",
    "dice-stats",
    "discord commands",
    "discord register",
    "diff",
    "disputes",
    "export",
    "history",
    "import",
    "init",
    "key new",
    "key seal",
    "key show",
    "key sign",
    "list",
    "log",
    "member email",
    "member invite",
    "member list",
    "member revoke",
    "member token",
    "projections",
    "rebuild",
    "recap",
    "replay",
    "search",
    "serve",
    "show",
    "thread",
    "timeline",
    "undo",
    "use",
    "verify",
    "verify-dice",
    "witness export",
    "witness import",
    "witness list",
}


def paths(group: click.Group, prefix: str = "") -> set[str]:
    found: set[str] = set()
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found |= paths(command, f"{prefix}{name} ")
        else:
            found.add(f"{prefix}{name}")
    return found


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_cli_and_the_registry_name_the_same_verbs(system: str) -> None:
    cli_verbs = (paths(campaign) | paths(systems.verbs(system))) - NOT_COMMANDS
    assert sorted(cli_verbs) == sorted(verbs(system))


def _commands(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    found: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found |= _commands(command, f"{prefix}{name} ")
        else:
            found[f"{prefix}{name}"] = command
    return found


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_ruling_verb_takes_say(system: str) -> None:
    """`--say TEXT` narrates a ruling: every verb of the registry takes it but `post` (its text
    is the narration) and `resolve` (a correction keeps the narration of what it corrects),
    and no read does."""
    every = {**_commands(campaign), **_commands(systems.verbs(system))}
    narrated = {path for path, c in every.items() if any(p.name == "say" for p in c.params)}
    assert sorted(set(verbs(system)) - {"post", "resolve"}) == sorted(narrated)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_verb_says_what_it_does(system: str) -> None:
    """A verb's help is its command's docstring (what a server's API description shows)."""
    silent = [name for name, verb in verbs(system).items() if not verb.help]
    assert silent == []
