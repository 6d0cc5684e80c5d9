"""Every system's verbs generated from the registry (``cli.generated``, issue 41 item 3), held
to what each system declares in ``cli/<package>/declared.py``: a line for each command of the
system, a verb's help that is its ``Verb``'s then its example, every field given by an argument,
an option or a shape, an example the verb reads, and each argument and option reading what its
kind (its field's, or the one the line declares for a shape) takes. What each system's lines
build, line by line, is in its own test_cli_generated*.py."""

from __future__ import annotations

import importlib
import json
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import click
import pytest

from cli import systems
from cli.generated import Arg, Line, Opt, click_type, helped
from domain.kinds import Flag, Kind, ListOf
from domain.registry import Parameter, verb_for, verb_of, verbs
from domain.rulesets import SYSTEMS


def _shared() -> set[str]:
    """The parameters every rolling verb shares (``cli.dice.dice_options``), and ``--say``."""
    from cli.dice import dice_options

    return {p.name or "" for p in click.command()(dice_options(lambda: None)).params} | {"say"}


DICE_AND_SAY = _shared()


def declared(system: str) -> ModuleType:
    return importlib.import_module(f"cli.{SYSTEMS[system]}.declared")


def commands(system: str) -> ModuleType:
    return importlib.import_module(declared(system).COMMANDS)


VERBS = [(system, path) for system in SYSTEMS for path in sorted(declared(system).LINES)]


def _line(system: str, path: str) -> Line:
    line: Line = declared(system).LINES[path]
    return line


def _fields(system: str, path: str) -> dict[str, Parameter]:
    command = getattr(commands(system), _line(system, path).command)
    return {p.name: p for p in verb_for(command).parameters}


def command_of(system: str, path: str) -> click.Command:
    """The click command of ``system``'s verb ``path`` (``item add``)."""
    found: click.Command = systems.verbs(system)
    for word in path.split():
        assert isinstance(found, click.Group)
        found = found.commands[word]
    return found


BUILT_ALONE = """
import json, sys
from cli import systems
found = systems.verbs(sys.argv[1])
for word in sys.argv[2:]:
    found = found.commands[word]
print(json.dumps(sorted(sys.modules)))
"""


def modules_once_built(system: str, path: str, cwd: Path) -> set[str]:
    """The modules a fresh process holds once it has built ``system``'s verb ``path`` alone."""
    probe = [sys.executable, "-c", BUILT_ALONE, system, *path.split()]
    out = subprocess.run(probe, capture_output=True, text=True, check=True, cwd=cwd)
    return set(json.loads(out.stdout))


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_command_of_the_system_has_its_line(system: str) -> None:
    own = commands(system)
    lines = declared(system).LINES
    assert sorted(verb_of(getattr(own, name)) for name in own.__all__) == sorted(lines)
    for path, line in lines.items():
        assert verb_of(getattr(own, line.command)) == path
        assert path in verbs(system)


@pytest.mark.parametrize(("system", "path"), VERBS)
def test_a_verb_s_help_is_its_verb_s_then_its_example(system: str, path: str) -> None:
    """The one text the OpenAPI schema and Discord show (``Verb.help``)."""
    line = _line(system, path)
    verb = verb_for(getattr(commands(system), line.command))
    assert command_of(system, path).help == helped(verb.help, line.example)


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_group_s_help_and_example(system: str) -> None:
    for name, group in declared(system).GROUPS.items():
        assert command_of(system, name).help == helped(group.help, group.example)
    assert {"create", "show", "list"} <= set(command_of(system, "character").commands)


@pytest.mark.parametrize(("system", "path"), VERBS)
def test_every_field_has_an_argument_an_option_or_a_shape(system: str, path: str) -> None:
    line = _line(system, path)
    given = {a if isinstance(a, str) else a.field for a in line.arguments.values()}
    given |= set(line.shaped)
    given |= {
        o.field if o.field is not None else n.replace("-", "_") for n, o in line.options.items()
    }
    assert set(_fields(system, path)) <= given
    assert set(line.optional) <= set(line.arguments)
    loose = [a for a in line.arguments.values() if isinstance(a, Arg) and not a.field]
    loose += [o for o in line.options.values() if o.field == ""]
    if line.shaped or loose:  # what no field takes, or a field no option gives: a shape's
        assert line.shape is not None


@pytest.mark.parametrize(("system", "path"), VERBS)
def test_the_example_is_a_line_the_verb_reads(system: str, path: str) -> None:
    line = _line(system, path)
    words = shlex.split(line.example.replace("\\\n", " "))
    assert ["campaign", *path.split()] == words[: len(path.split()) + 1]
    command = command_of(system, path)
    context = command.make_context(path, words[len(path.split()) + 1 :], resilient_parsing=True)
    assert context.params or not _fields(system, path)


def _argument_kind(system: str, path: str, name: str) -> tuple[Kind | None, int | None]:
    """What an argument takes (its field's kind, or the one its ``Arg`` declares) and the count
    of values it declares (None: its kind's)."""
    said = _line(system, path).arguments[name]
    if isinstance(said, str):
        return _fields(system, path)[said].kind, None
    kind = _fields(system, path)[said.field].kind if said.field else said.kind
    return kind, said.nargs


def _option_kind(system: str, path: str, param: click.Parameter) -> Kind | None:
    by_name = {f"--{n}": o for n, o in _line(system, path).options.items()}
    said = next((by_name[o] for o in param.opts if o in by_name), Opt())
    field = said.field if said.field is not None else param.name or ""
    return _fields(system, path)[field].kind if field else said.kind


@pytest.mark.parametrize(("system", "path"), VERBS)
def test_each_argument_and_option_reads_its_kind(system: str, path: str) -> None:
    """What a parameter takes on the command line is what its kind (its field's, or the one
    the line declares for a shape to read) takes (``click_type``)."""
    for param in command_of(system, path).params:
        if param.name in DICE_AND_SAY:
            continue
        if isinstance(param, click.Argument):
            kind, nargs = _argument_kind(system, path, param.name or "")
        else:
            kind, nargs = _option_kind(system, path, param), None
        if kind is None or isinstance(kind, Flag):
            continue
        expected = click_type(kind)
        assert type(param.type) is type(expected), (path, param.name)
        assert getattr(param.type, "choices", None) == getattr(expected, "choices", None)
        listed = -1 if isinstance(kind, ListOf) else 1
        assert param.multiple or param.nargs == (nargs or listed), (path, param.name)
