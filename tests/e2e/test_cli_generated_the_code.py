"""The Code's verbs generated from the registry (``cli.generated``, issue 41 item 3): each verb's
help is its ``Verb``'s, each line of ``cli/the_code/declared.py`` is the command of its verb with
every field given, and a command line builds the command the hand-written verbs built."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click
import pytest

from cli.generated import helped
from cli.the_code.declared import COMMANDS, GROUPS, LINES, REVEAL
from domain.rulesets.the_code.tables import NeedReason, Scale
from tests.e2e.conftest import Run
from tests.e2e.test_cli_declared import command_of, modules_once_built
from tests.e2e.test_the_code_cli import HAWK

SYSTEM = "the-code"


def _command(path: str) -> click.Command:
    return command_of(SYSTEM, path)


def test_a_group_s_help_and_example() -> None:
    for name, group in GROUPS.items():
        assert _command(name).help == helped(group.help, group.example)
    assert {"create", "show", "list"} == set(_command("character").commands)


def test_reveal_is_one_option_wherever_it_is_taken() -> None:
    """--reveal DETAIL, repeatable, the same on each verb whose command takes ``reveal``."""
    taking = sorted(p for p, line in LINES.items() if "reveal" in line.options)
    assert ["character create", "exposure", "objective", "solve"] == taking
    for path in taking:
        assert LINES[path].options["reveal"] is REVEAL
        (reveal,) = [p for p in _command(path).params if p.name == "reveal"]
        assert (["--reveal"], "DETAIL", True) == (reveal.opts, reveal.metavar, reveal.multiple)


DEFAULTS = {
    "public_identity": False,
    "exposure": 0,
    "popularity": 3,
    "reward_points": 0,
    "violent": False,
    "secretive": False,
    "reveal": (),
    "seat_player": True,
}

BUILT = [
    (
        'character create Case --player ana --identity "Vera O" --public --description tall '
        "--profession eng --advantage flight --advantage volt --weakness water --objective lights "
        "--score 8 --mo V --exposure 2 --popularity 8 --reward-points 60 --violent --secretive "
        "--reveal appearance --reveal profession",
        {
            "code_name": "Case",
            "player": "ana",
            "secret_identity": "Vera O",
            "public_identity": True,
            "physical_description": "tall",
            "profession": "eng",
            "advantages": ("flight", "volt"),
            "weakness": "water",
            "objective": "lights",
            "objective_score": 8,
            "modus_operandi": "V",
            "exposure": 2,
            "popularity": 8,
            "reward_points": 60,
            "violent": True,
            "secretive": True,
            "reveal": ("appearance", "profession"),
            "seat_player": True,
        },
    ),
    (
        "character create Case --player ana --identity V --description tall --profession eng "
        "--advantage flight --weakness water --objective lights --score 8 --mo V",
        {"advantages": ("flight",), **DEFAULTS},
    ),
    (
        "npc Grin --profession accountant --advantage nerves --advantage luck --weakness vanity "
        "--motivation 3",
        {
            "character": "Grin",
            "profession": "accountant",
            "advantages": ("nerves", "luck"),
            "weakness": "vanity",
            "motivation": 3,
        },
    ),
    (
        "npc Crook",
        {
            "character": "Crook",
            "profession": "",
            "advantages": (),
            "weakness": "",
            "motivation": None,
        },
    ),
    (
        'step Hawk "spot him" --profession --advantage --weakness',
        {
            "character": "Hawk",
            "task": "spot him",
            "profession": True,
            "advantage": True,
            "weakness": True,
        },
    ),
    ("step Hawk jump", {"profession": False, "advantage": False, "weakness": False}),
    (
        "challenge Hawk jump --needs-motivation bad-conditions --weakness",
        {
            "hero": "Hawk",
            "task": "jump",
            "needs_motivation": NeedReason.BAD_CONDITIONS,
            "weakness": True,
        },
    ),
    ("challenge Hawk climb", {"needs_motivation": None, "weakness": False}),
    ("motivation Hawk 2", {"hero": "Hawk", "dice": 2}),
    (
        'contest "spot him" Hawk --step 2 --roll 1 --vs Crook --vs-step 1 --vs-roll 3 --npc '
        "--npc-motivation 4",
        {
            "task": "spot him",
            "hero": "Hawk",
            "step": 2,
            "dice": 1,
            "opponent": "Crook",
            "opponent_step": 1,
            "opponent_dice": 3,
            "npc": True,
            "npc_motivation": 4,
        },
    ),
    (
        "contest jump Hawk --vs Volt",
        {
            "step": None,
            "dice": 0,
            "opponent_step": None,
            "opponent_dice": 0,
            "npc": False,
            "npc_motivation": None,
        },
    ),
    ('mo Hawk "cuffed him"', {"hero": "Hawk", "description": "cuffed him"}),
    ("mo Hawk", {"description": ""}),
    ("weakness Hawk chase", {"hero": "Hawk", "task": "chase"}),
    ("conduct Hawk --violent", {"hero": "Hawk", "violent": True, "secretive": False}),
    ("conduct Hawk --not-violent --secretive", {"violent": False, "secretive": True}),
    ("conduct Hawk --not-secretive", {"violent": False, "secretive": False}),
    ("day-off Hawk 2", {"hero": "Hawk", "days": 2}),
    ("day-off Hawk", {"days": 1}),
    ("objective Hawk --reveal appearance", {"hero": "Hawk", "reveal": ("appearance",)}),
    ("objective Hawk", {"reveal": ()}),
    (
        'solve Hawk minor "the park" --reveal profession',
        {
            "hero": "Hawk",
            "scale": Scale.MINOR,
            "description": "the park",
            "reveal": ("profession",),
        },
    ),
    (
        'recur Hawk "the park" --note "a new gang"',
        {"hero": "Hawk", "description": "the park", "note": "a new gang"},
    ),
    ('recur Hawk "the park"', {"note": ""}),
    ("buy-motivation Hawk", {"hero": "Hawk"}),
    (
        'alter-objective Hawk --objective "break the gang" --score 8',
        {"hero": "Hawk", "objective": "break the gang", "score": 8},
    ),
    ("alter-objective Hawk", {"objective": None, "score": None}),
    (
        "exposure Hawk --mo-followed --off --reduce --reveal appearance --reveal profession",
        {
            "hero": "Hawk",
            "mo_followed": True,
            "off": True,
            "reduce": True,
            "reveal": ("appearance", "profession"),
        },
    ),
    ("exposure Hawk", {"mo_followed": False, "off": False, "reduce": False, "reveal": ()}),
    ("lower-exposure Hawk", {"hero": "Hawk"}),
    (
        'blab Hawk profession appearance --by "his partner"',
        {"hero": "Hawk", "details": ("profession", "appearance"), "confidant": "his partner"},
    ),
    (
        'reaction Hawk "a beat cop" --extra-dice 1 --because ex-cop --conflict',
        {
            "hero": "Hawk",
            "audience": "a beat cop",
            "extra_dice": 1,
            "justification": "ex-cop",
            "conflict": True,
        },
    ),
    ("reaction Hawk press", {"extra_dice": 0, "justification": "", "conflict": False}),
]


@pytest.fixture
def heroes(run: Run) -> Run:
    for line in ('init "Rain City" --system the-code --gm Sam', HAWK, "session start"):
        assert 0 == run(line).exit_code, line
    return run


def test_the_table_covers_every_verb_and_option() -> None:
    said = {shlex.split(line)[0] for line, _ in BUILT}
    said |= {" ".join(shlex.split(line)[:2]) for line, _ in BUILT}
    assert set(LINES) <= said
    words = {word for line, _ in BUILT for word in shlex.split(line)}
    for path, line in LINES.items():
        for option in line.options:
            assert f"--{option}" in words, (path, option)


@pytest.mark.parametrize(("line", "fields"), BUILT, ids=[b[0] for b in BUILT])
def test_a_line_builds_the_command_it_always_built(
    heroes: Run, monkeypatch: pytest.MonkeyPatch, line: str, fields: dict[str, Any]
) -> None:
    built: list[Any] = []
    monkeypatch.setattr("cli.dice.run", lambda _ctx, command, **_: built.append(command))
    result = heroes(line)
    assert 0 == result.exit_code, result.output
    (command,) = built
    assert {k: getattr(command, k) for k in fields} == fields
    for name, value in fields.items():  # an enum's member, not its text
        assert type(getattr(command, name)) is type(value), name


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("motivation Hawk", "Missing argument 'DICE'"),
        ("motivation Hawk x", "'x' is not a whole number"),
        ("contest jump Hawk", "Missing option '--vs'"),
        ("blab Hawk --by partner", "Missing argument 'DETAILS...'"),
        ("blab Hawk profession", "Missing option '--by'"),
        ("solve Hawk huge x", "'huge' is not one of"),
        ("challenge Hawk jump --needs-motivation tired", "'tired' is not one of"),
        ("character create Case --player ana", "Missing option"),
        ("conduct Hawk --violent --angry", "No such option '--angry'"),
    ],
)
def test_usage_errors_are_click_s_as_before(heroes: Run, line: str, problem: str) -> None:
    result = heroes(line)
    assert 2 == result.exit_code
    assert problem in result.stderr


def test_a_ruling_runs_through_the_generated_verbs(heroes: Run) -> None:
    """Lines that record: the conduct ruled, a step ruled, then the hero's sheet."""
    for line in (
        'conduct "The Hawk" --violent',
        'step "The Hawk" "spot the crook" --profession',
        'day-off "The Hawk"',
    ):
        result = heroes(line)
        assert 0 == result.exit_code, (line, result.output)
    assert "The Hawk" in heroes('character show "The Hawk"').output


def test_a_verb_is_built_when_looked_up(tmp_path: Path) -> None:
    """A roll builds its own verb alone: no other verb's command module, nor the sheet."""
    loaded = modules_once_built(SYSTEM, "exposure", tmp_path)
    own = "domain.rulesets.the_code"
    assert f"{own}.exposure" in loaded
    for other in ("contest", "creation", "rewards", "challenges", "session_flags", "days_off"):
        assert f"{own}.{other}" not in loaded, other
    assert COMMANDS in loaded
    assert "projections.the_code_sheet" not in loaded
    assert "cli.the_code.sheet" not in loaded


def test_arguments_and_options_complete_from_their_kinds(heroes: Run, db: Path) -> None:
    """A hero's name, a member (the player), a choice's values."""
    from tests.e2e.test_completion import completed

    assert ["The Hawk"] == completed(db, ["exposure"], "The")
    assert ["The Hawk"] == completed(db, ["contest", "jump", "Hawk", "--vs"], "The")
    assert ["minor", "major"] == completed(db, ["solve", "The Hawk"], "m")
    assert ["bad-conditions"] == completed(db, ["challenge", "X", "y", "--needs-motivation"], "b")
    assert ["dana"] == completed(db, ["character", "create", "Case", "--player"], "da")
