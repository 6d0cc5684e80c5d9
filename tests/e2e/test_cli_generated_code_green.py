"""Code Green's verbs generated from the registry (``cli.generated``, issue 41 item 3): each
verb's help is its ``Verb``'s, each line of ``cli/code_green/declared.py`` is the command of its
verb with every field given, and a command line builds the command it always built (the shapes
included: a test's two traits or ``--no-pair``, a new character's comma lists, adapting's two
squares or none)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click
import pytest

from cli.code_green.declared import COMMANDS, GROUPS, LINES, ROLLED
from cli.generated import helped
from domain.registry import Parameter, verb_for
from domain.rulesets.code_green import commands as cg
from domain.rulesets.code_green.tables import TOKENS
from tests.e2e.conftest import Run
from tests.e2e.test_cli_declared import command_of, modules_once_built

SYSTEM = "code-green"


def _shared() -> set[str]:
    """The parameters every rolling verb shares (``cli.dice.dice_options``), and `--say`."""
    from cli.dice import dice_options

    return {p.name or "" for p in click.command()(dice_options(lambda: None)).params} | {"say"}


DICE_AND_SAY = _shared()


def _command(path: str) -> click.Command:
    return command_of(SYSTEM, path)


def _fields(path: str) -> dict[str, Parameter]:
    return {p.name: p for p in verb_for(getattr(cg, LINES[path].command)).parameters}


def test_a_group_s_help_and_example() -> None:
    for name, group in GROUPS.items():
        assert _command(name).help == helped(group.help, group.example)
    assert {"create", "rename", "show", "list"} == set(_command("character").commands)


BUILT = [
    (
        "character create --player carol",
        {
            "player": "carol",
            "form": ("roll", "roll", "roll"),
            "function": ("roll", "roll", "roll"),
            "seat_player": True,
        },
    ),
    (
        "character create --player dan --form 'Guts, Lungs ,roll' --function Phasing,x,y",
        {"form": ("Guts", "Lungs", "roll"), "function": ("Phasing", "x", "y")},
    ),
    ("character create --player eve --form A,B", {"form": ("A", "B")}),
    ("character rename 31415 Frost", {"character": "31415", "new_name": "Frost"}),
    (
        "place alice R1C1 Legs/Cryptic roll",
        {"character": "alice", "squares": ("R1C1", "Legs/Cryptic", "roll")},
    ),
    (
        "test alice Legs Invulnerable",
        {"character": "alice", "form": "Legs", "function": "Invulnerable", "roll": False},
    ),
    ("test alice --no-pair --roll", {"form": None, "function": None, "roll": True}),
    ("test alice Legs Invulnerable --roll", {"form": "Legs", "roll": True}),
    (
        "assist bob Guts/Auxiliary --why 'a rumble'",
        {"helper": "bob", "square": "Guts/Auxiliary", "justification": "a rumble"},
    ),
    (
        "reject-assist bob --reason 'ear defenders'",
        {"helper": "bob", "reason": "ear defenders"},
    ),
    ("roll", {"character": None}),
    ("roll alice", {"character": "alice"}),
    ("strain alice", {"character": "alice", "destination": None, "foolhardy": False}),
    ("strain alice --to R1C2 --foolhardy", {"destination": "R1C2", "foolhardy": True}),
    ("displace alice R1C2", {"character": "alice", "destination": "R1C2"}),
    ("adapt alice R1C1 R2C3", {"character": "alice", "source": "R1C1", "destination": "R2C3"}),
    ("adapt alice", {"source": None, "destination": None}),
    ("recover alice", {"character": "alice"}),
]


@pytest.mark.parametrize(("line", "fields"), BUILT, ids=[b[0] for b in BUILT])
def test_a_line_builds_the_command_it_always_built(
    table: Run, monkeypatch: pytest.MonkeyPatch, line: str, fields: dict[str, Any]
) -> None:
    built: list[Any] = []
    monkeypatch.setattr("cli.dice.run", lambda _ctx, command, **_: built.append(command))
    result = table(line)
    assert 0 == result.exit_code, result.output
    (command,) = built
    assert {k: getattr(command, k) for k in fields} == fields


def test_the_lines_built_give_every_verb_and_every_option() -> None:
    """``BUILT`` runs each verb, and each of its options (not the dice and `--say`, shared)."""
    given: dict[str, set[str]] = {}
    for line, _ in BUILT:
        words = shlex.split(line)
        path = next(p for p in sorted(LINES, key=len, reverse=True) if line.startswith(p))
        given.setdefault(path, set()).update(w for w in words if w.startswith("--"))
    assert set(LINES) == set(given)
    for path in LINES:
        options = {
            o
            for p in _command(path).params
            if isinstance(p, click.Option) and p.name not in DICE_AND_SAY
            for o in p.opts
        }
        assert options == given[path], path
    assert ROLLED == "roll,roll,roll"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("test alice", "TRAITS_WITH_NO_PAIR"),
        ("test alice Legs", "TRAITS_WITH_NO_PAIR"),
        ("test alice Legs Invulnerable Tail", "TRAITS_WITH_NO_PAIR"),
        ("test alice Legs --no-pair", "TRAITS_WITH_NO_PAIR"),
        ("adapt alice R1C1", "ADAPT_NEEDS_TWO_SQUARES: adapt takes a FROM and a TO square"),
        ("adapt alice R1C1 R1C2 R1C3", "got 3"),
        ("place alice R1C1 R2C2", "Argument 'squares' takes 3 values"),
        ("place alice R1C1 R2C2 R3C3 R1C2", "Got unexpected extra argument (R1C2)"),
        ("character create", "Missing option '--player'"),
        ("character rename 31415", "Missing argument 'NEW_NAME'"),
        ("assist bob Guts/Auxiliary", "Missing option '--why'"),
        ("reject-assist bob", "Missing option '--reason'"),
        ("displace alice", "Missing argument 'SQUARE'"),
    ],
)
def test_refusals_and_usage_errors_are_as_before(
    table: Run, count: Any, line: str, problem: str
) -> None:
    before = count()
    result = table(line)
    assert 2 == result.exit_code
    assert problem in result.stderr
    assert before == count()


def test_usage_shows_the_arguments_as_before() -> None:
    usages = {
        "test": "WHO [TRAITS]...",
        "place": "WHO SQUARES...",
        "adapt": "WHO [SQUARES]...",
        "roll": "[WHO]",
        "assist": "HELPER SQUARE",
        "displace": "WHO SQUARE",
        "character rename": "WHO NEW_NAME",
    }
    for path, usage in usages.items():
        command = _command(path)
        context = click.Context(command, info_name=path)
        assert f"{path} [OPTIONS] {usage}" in command.get_usage(context), path


def test_a_verb_is_built_when_looked_up(tmp_path: Path) -> None:
    """A roll builds `roll` alone: no other verb's command module, and not the sheet."""
    loaded = modules_once_built(SYSTEM, "roll", tmp_path)
    assert "domain.rulesets.code_green.making_tests" in loaded
    for other in ("creation", "placement", "strain"):
        assert f"domain.rulesets.code_green.{other}" not in loaded, other
    assert COMMANDS in loaded
    assert not loaded & {"cli.code_green.sheet", "projections.code_green_sheet"}


def test_the_sheet_comes_with_the_character_verb(table: Run) -> None:
    from cli.code_green import SHEETS
    from cli.code_green.sheet import SHEETS as OWN

    assert SHEETS is OWN
    assert "31415 (played by alice)" in table("character show 31415").output
    assert "31415 (alice)" in table("character list").output


def test_arguments_and_options_complete_from_their_kinds(table: Run, db: Path) -> None:
    """A character's name (who acts, who helps), a member (the player)."""
    from tests.e2e.test_completion import completed

    assert ["31415"] == completed(db, ["test"], "31")
    assert ["21144"] == completed(db, ["assist"], "21")
    assert ["21144"] == completed(db, ["reject-assist"], "2")
    assert ["31415"] == completed(db, ["character", "rename"], "3")
    assert ["Rosa"] == completed(db, ["character", "create", "--player"], "Ro")


def test_place_takes_exactly_its_three_squares() -> None:
    (squares,) = [p for p in _command("place").params if p.name == "squares"]
    assert (TOKENS, True) == (squares.nargs, squares.required)
