"""Sprawl Goons' verbs generated from the registry (``cli.generated``, issue 41 item 3): each
verb's help is its ``Verb``'s, each line of ``cli/sprawl_goons/declared.py`` is the command of
its verb with every field given, and a command line builds the command it always built."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import pytest

from cli.generated import Line, click_type, helped
from cli.sprawl_goons.declared import COMMANDS, GROUPS
from domain.kinds import CHARACTER, RULING, Choice, Flag, Integer, ListOf, Text
from tests.e2e.conftest import Run
from tests.e2e.test_cli_declared import command_of, modules_once_built
from tests.e2e.test_sprawl_goons_cli import SETUP

SYSTEM = "sprawl-goons"


def _command(path: str) -> click.Command:
    return command_of(SYSTEM, path)


def test_a_group_s_help_and_example() -> None:
    for name, group in GROUPS.items():
        assert _command(name).help == helped(group.help, group.example)
    assert {"create", "show", "list"} == set(_command("character").commands)


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (Flag(), click.BOOL),
        (Text(), click.STRING),
        (CHARACTER, click.STRING),
        (ListOf(item=CHARACTER), click.STRING),
        (Choice(values=("a", "b"), reads_more="or a number"), click.STRING),
    ],
)
def test_what_click_reads_a_kind_as(kind: Any, expected: click.ParamType[Any]) -> None:
    if expected is click.BOOL:
        return  # a flag is an option's own (is_flag), no type of its own
    assert click_type(kind) is expected


def test_choices_numbers_and_bounds() -> None:
    choice = click_type(Choice(values=("a", "b")))
    assert isinstance(choice, click.Choice)
    assert ["a", "b"] == list(choice.choices)
    bounded = click_type(Integer(minimum=1, maximum=3))
    assert 2 == bounded.convert("2", None, None)
    for wrong in ("4", "0", "٣", "x"):
        with pytest.raises(click.BadParameter):
            bounded.convert(wrong, None, None)
    with pytest.raises(click.BadParameter):
        click_type(RULING).convert("0", None, None)


BUILT = [
    ("cash Tanner --spend 40 --gain 5 --reason fee", {"character": "Tanner", "delta": -35}),
    ("rest Tanner Katya", {"characters": ("Tanner", "Katya"), "hours": 8, "safe": True}),
    ("rest Tanner --unsafe --hours 9", {"characters": ("Tanner",), "hours": 9, "safe": False}),
    (
        "item add Tanner Shotgun --kind ranged",
        {"item": "Shotgun", "category": "ranged", "bonus": 1, "bulky": None},
    ),
    ("item add Tanner Shotgun --kind ranged --not-bulky --uses 2", {"bulky": False, "uses": 2}),
    ("item bulk Tanner katana --not-bulky", {"item": "katana", "bulky": False, "reason": ""}),
    (
        "character create Case --stats 1,1,1,1 --item a --item b --custom gear:c",
        {
            "character": "Case",
            "player": "",
            "seat_player": False,
            "morphology": 1,
            "equilibrium": 1,
            "items": ("a", "b"),
            "custom": ("gear:c",),
        },
    ),
    ("character create Case --player ana --stats 2,1,1,0", {"player": "ana", "seat_player": True}),
    ("patch Katya --on Tanner", {"character": "Katya", "patient": "Tanner", "item": "Lazarus"}),
    ("patch Katya", {"patient": None}),
    ("extinguish Tanner --how doused", {"character": "Tanner", "reason": "doused"}),
    ("medical Tanner --by Ng", {"provider": "Ng"}),
    (
        "explode Zoner Ganger",
        {"targets": ("Zoner", "Ganger"), "dice_count": 2, "what": "planted explosive"},
    ),
    ("first-aid Katya Tanner", {"healer": "Katya", "patient": "Tanner", "ds": "10", "kit": None}),
    (
        "attack Tanner Zoner Ganger --stat m --damage x=+1 --item k --full-auto gun "
        "--shotgun close",
        {
            "targets": ("Zoner", "Ganger"),
            "damage_bonuses": ("x=+1",),
            "items": ("k",),
            "full_auto": "gun",
            "shotgun": "close",
            "glitch": False,
        },
    ),
    (
        "initiative Tanner Zoner --item Tanner:booster --modifier Zoner=+1",
        {"modifiers": ("Zoner=+1",)},
    ),
    ("ignite Zoner --damage 2", {"damage": 2, "rounds": 3}),
    ("slag Tanner kevlar --injury 2", {"armour": "kevlar", "injury": 2}),
    ("mission complete Docklands", {"mission": "Docklands"}),
    ("level-up Tanner r inventory", {"stat": "r", "secondary": "inventory"}),
    ("reload Katya pistol", {"item": "pistol"}),
    ("round", {}),
]


@pytest.mark.parametrize(("line", "fields"), BUILT, ids=[b[0] for b in BUILT])
def test_a_line_builds_the_command_it_always_built(
    sprawl: Run, monkeypatch: pytest.MonkeyPatch, line: str, fields: dict[str, Any]
) -> None:
    built: list[Any] = []
    monkeypatch.setattr("cli.dice.run", lambda _ctx, command, **_: built.append(command))
    result = sprawl(line)
    assert 0 == result.exit_code, result.output
    (command,) = built
    assert {k: getattr(command, k) for k in fields} == fields


@pytest.fixture
def sprawl(run: Run) -> Run:
    for line in SETUP:
        assert 0 == run(line).exit_code, line
    return run


def test_cash_changes_the_sheet(sprawl: Run) -> None:
    assert 0 == sprawl('cash Tanner --spend 40 --gain 10 --reason "a medkit"').exit_code
    assert "Cash 90" in sprawl("character show Tanner").output


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("roll Tanner", "Missing argument 'STAT'"),
        ("roll Tanner reaction", "Missing option '--ds'"),
        ("fall Tanner x", "'x' is not a whole number"),
        ("character create Case", "Missing option '--stats'"),
        ("item bulk Tanner katana", "Missing option '--bulky'"),
        ("attack Tanner --stat m", "Missing argument 'TARGETS...'"),
    ],
)
def test_usage_errors_are_click_s_as_before(sprawl: Run, line: str, problem: str) -> None:
    result = sprawl(line)
    assert 2 == result.exit_code
    assert problem in result.stderr


def test_a_verb_is_built_when_looked_up(tmp_path: Path) -> None:
    """A roll builds `roll` alone: no other verb's command module is imported for it."""
    loaded = modules_once_built(SYSTEM, "roll", tmp_path)
    assert "domain.rulesets.sprawl_goons.action_roll" in loaded
    for other in ("combat", "healing", "inventory", "advancement", "initiative", "hazards"):
        assert f"domain.rulesets.sprawl_goons.{other}" not in loaded, other
    assert COMMANDS in loaded


def test_arguments_and_options_complete_from_their_kinds(sprawl: Run, db: Path) -> None:
    """A character's name (who acts, a target), a stat's values, a member (the player)."""
    from tests.e2e.test_completion import completed

    assert ["Tanner"] == completed(db, ["roll"], "Ta")
    assert ["Zoner"] == completed(db, ["attack", "Tanner"], "Zo")
    assert ["reaction"] == completed(db, ["roll", "Tanner"], "re")
    assert ["hard"] == completed(db, ["roll", "Tanner", "reaction", "--ds"], "ha")
    assert ["Rosa"] == completed(db, ["character", "create", "Case", "--player"], "Ro")


def test_a_short_name_a_cli_default_and_an_off_switch() -> None:
    """What a line may say beyond the registry: `-d` for `--ds`, a default of the CLI's own."""
    from cli.generated import Opt, build

    line = Line(
        command="MakeActionRoll",
        example="campaign roll Tanner r -d 8",
        arguments={"who": "character", "stat": "stat"},
        options={"ds": Opt(short="d", default="moderate", show_default=True)},
    )
    command = build("roll", line, COMMANDS)
    ds = next(p for p in command.params if p.name == "ds")
    assert (["--ds", "-d"], False, "moderate") == (ds.opts, ds.required, ds.default)
    context = command.make_context("roll", ["Tanner", "r", "-d", "8"])
    assert ("Tanner", "8") == (context.params["who"], context.params["ds"])
    rest = next(p for p in _command("rest").params if p.name == "safe")
    assert (["--unsafe"], True, False) == (rest.opts, rest.default, rest.flag_value)
