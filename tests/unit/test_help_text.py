"""What a user reads of a command is plain text: no reStructuredText markup (double backticks,
as the developers' docstrings write names) in any CLI command's help, nor in a verb's help,
which the page's forms, Discord's slash commands and the API's schema show; and no example in
the help goes against the docs (issue 44)."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest

from cli import manifest, systems
from cli.main import campaign
from domain.registry import verbs
from domain.rulesets import SYSTEMS


def _helps(command: click.Command, path: str) -> Iterator[tuple[str, str]]:
    """The help of ``command`` and of each command under it, by command line."""
    context = _context(command, path)
    yield path, command.get_help(context)
    if isinstance(command, click.Group):
        for name in command.list_commands(context):
            under = command.get_command(context, name)
            if under is not None:
                yield from _helps(under, f"{path} {name}")


def _context(command: click.Command, path: str) -> click.Context:
    """A context as click makes one for ``command``, with its settings: click keeps a command's
    help option once made, so one made without ``-h`` would leave ``campaign -h`` unknown to
    the tests that run after this one."""
    return click.Context(command, info_name=path, **command.context_settings)


def every_cli_help() -> dict[str, str]:
    """The help of every command: the shared verbs and every system's."""
    found = {"campaign": campaign.get_help(_context(campaign, "campaign"))}
    for name in manifest.SHARED:
        found.update(_helps(campaign.commands[name], f"campaign {name}"))
    for system in manifest.SYSTEM_VERBS:
        for name, command in systems.verbs(system).commands.items():
            found.update((f"{line} ({system})", text) for line, text in _helps(command, name))
    return found


def test_no_cli_help_has_double_backticks() -> None:
    found = every_cli_help()
    assert len(found) > 100
    assert {line: text for line, text in found.items() if "``" in text} == {}


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_no_verb_help_has_double_backticks(system: str) -> None:
    """A verb's help is the first paragraph of its command's docstring: the text above each
    form on the page (web/templates/_form.html), a slash command's description on Discord."""
    marked = {name: verb.help for name, verb in verbs(system).items() if "``" in verb.help}
    assert marked == {}


def test_no_cli_help_binds_every_address() -> None:
    """docs/server.md keeps the server on 127.0.0.1 behind an https proxy; no example in the
    help says otherwise (`serve --help`'s example bound 0.0.0.0)."""
    found = every_cli_help()
    assert "127.0.0.1" in found["campaign serve"]
    assert [line for line, text in found.items() if "0.0.0.0" in text] == []
