"""The Sims RPG's verbs generated from the registry (``cli.generated``, issue 41 item 3): each
verb's help is its ``Verb``'s, each line of ``cli/sims/declared.py`` is the command of its verb
with every field given, and a command line builds the command the hand-written CLI built."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click
import pytest

from cli.generated import helped
from cli.sims.declared import COMMANDS, GROUPS, LINES
from domain.rulesets.sims.tables import Danger, RankKind, SheetKind, TieBreak
from tests.e2e.conftest import Run
from tests.e2e.test_cli_declared import command_of, modules_once_built
from tests.e2e.test_sims_cli import SETUP

SYSTEM = "sims"


def _command(path: str) -> click.Command:
    return command_of(SYSTEM, path)


def test_a_group_s_help_and_example() -> None:
    for name, group in GROUPS.items():
        assert _command(name).help == helped(group.help, group.example)
    assert {"create", "show", "list"} == set(_command("character").commands)
    assert {"complete"} == set(_command("adventure").commands)
    assert {"announce", "succeed"} == set(_command("mission").commands)


BUILT = [
    # Sheets
    (
        "character create Case --player kim --quality A:Combat:Good --quality B:Mental:Poor "
        "--custom --strength Fast --strength Loud --weakness Shy",
        {
            "character": "Case",
            "player": "kim",
            "qualities": ("A:Combat:Good", "B:Mental:Poor"),
            "kind": SheetKind.PC,
            "custom": True,
            "strengths": ("Fast", "Loud"),
            "weaknesses": ("Shy",),
            "seat_player": True,
        },
    ),
    (
        "character create Smith --npc --quality Kung:Combat:Expert",
        {
            "player": "",
            "kind": SheetKind.NPC,
            "qualities": ("Kung:Combat:Expert",),
            "custom": False,
            "strengths": (),
            "seat_player": False,
        },
    ),
    (
        "character create Ninja --secondary Henchman:Average",
        {"kind": SheetKind.SECONDARY, "qualities": ("Henchman:Average",)},
    ),
    (
        "replace Kristov Rockstar Parkour --area Physical --gm-approved",
        {
            "character": "Kristov",
            "quality": "Rockstar",
            "new_name": "Parkour",
            "area": "Physical",
            "gm_approved": True,
        },
    ),
    ("replace Kristov Rockstar Parkour", {"area": None, "gm_approved": False}),
    # Situations
    (
        'simple Kristov none --difficulty average --task "climb the wall"',
        {
            "character": "Kristov",
            "quality": "none",
            "difficulty": "average",
            "task": "climb the wall",
        },
    ),
    (
        'roll Kristov Brawler "Dirty Fighter" --difficulty Good --task run --hazardous --badass '
        "--penalty dark --penalty rain --with Jefferson:Biker --dice 3,5",
        {
            "character": "Kristov",
            "qualities": ("Brawler", "Dirty Fighter"),
            "difficulty": "Good",
            "task": "run",
            "hazardous": True,
            "badass": True,
            "penalties": ("dark", "rain"),
            "helpers": ("Jefferson:Biker",),
        },
    ),
    (
        "roll Kristov --difficulty Good",
        {"qualities": (), "task": "", "hazardous": False, "badass": False, "penalties": ()},
    ),
    # Conflict turns
    (
        'turns "Kristov:Dirty Fighter" Jefferson:Biker',
        {"entries": ("Kristov:Dirty Fighter", "Jefferson:Biker"), "ties": TieBreak.ROLL_OFF},
    ),
    ("turns Kristov Jefferson --ties as-listed", {"ties": TieBreak.AS_LISTED}),
    ("next", {}),
    ("strategy Jefferson full-defense", {"character": "Jefferson", "strategy": "full-defense"}),
    # Conflicts
    (
        'attack Kristov Brawler "Dirty Fighter" --target Jefferson:Biker --target Ninja '
        "--kind failure --full-attack --full-defense Ninja --badass --penalty dark "
        "--with Jefferson:Biker --killing --dice 3,6",
        {
            "attacker": "Kristov",
            "qualities": ("Brawler", "Dirty Fighter"),
            "targets": ("Jefferson:Biker", "Ninja"),
            "kind": RankKind.FAILURE,
            "full_attack": True,
            "full_defense": ("Ninja",),
            "badass": True,
            "penalties": ("dark",),
            "helpers": ("Jefferson:Biker",),
            "killing": True,
        },
    ),
    (
        "attack Jefferson --target Kristov",
        {
            "qualities": (),
            "kind": RankKind.DAMAGE,
            "full_attack": False,
            "full_defense": (),
            "killing": False,
        },
    ),
    ("reroll Kristov --dice 4,4", {"attacker": "Kristov"}),
    ("reroll", {"attacker": None}),
    (
        'allocate Kristov Brawler Brawler "Dirty Fighter"',
        {"character": "Kristov", "steps": ("Brawler", "Brawler", "Dirty Fighter")},
    ),
    ("kill Jefferson Kristov", {"attacker": "Jefferson", "victim": "Kristov"}),
    # Recovery
    (
        "danger continuing Kristov Jefferson",
        {"danger": Danger.CONTINUING, "characters": ("Kristov", "Jefferson")},
    ),
    ("danger momentary", {"danger": Danger.MOMENTARY, "characters": ()}),
    (
        "authorize-recovery Kristov",
        {"character": "Kristov", "reason": "the GM says to roll again"},
    ),
    ('authorize-recovery Kristov --reason "a medic"', {"reason": "a medic"}),
    ("recover Kristov Brawler Brawler --dice 3", {"steps": ("Brawler", "Brawler")}),
    ("recover Kristov", {"character": "Kristov", "steps": ()}),
    ("restore Kristov Brawler", {"character": "Kristov", "steps": ("Brawler",)}),
    # Characters Improvement
    ('adventure complete "The club"', {"adventure": "The club"}),
    ("campaign-success", {}),
    (
        'mission announce "The Vault" Kristov Jefferson',
        {"mission": "The Vault", "characters": ("Kristov", "Jefferson")},
    ),
    ('mission succeed "The Vault"', {"mission": "The Vault", "characters": ()}),
    ("mission succeed Vault Kristov", {"characters": ("Kristov",)}),
    ("upgrade Kristov Brawler", {"character": "Kristov", "quality": "Brawler"}),
    ("master-plus Kristov Flight Psi", {"qualities": ("Flight", "Psi")}),
    (
        "rebirth Kristov --quality A:Combat:Good --quality B:Social:Poor --extra Psi:extraordinary "
        "--extra Luck",
        {
            "character": "Kristov",
            "qualities": ("A:Combat:Good", "B:Social:Poor"),
            "extra": ("Psi:extraordinary", "Luck"),
        },
    ),
    ("rebirth Kristov", {"qualities": (), "extra": ()}),
]


@pytest.mark.parametrize(("line", "fields"), BUILT, ids=[b[0] for b in BUILT])
def test_a_line_builds_the_command_it_always_built(
    bar: Run, monkeypatch: pytest.MonkeyPatch, line: str, fields: dict[str, Any]
) -> None:
    built: list[Any] = []
    monkeypatch.setattr("cli.dice.run", lambda _ctx, command, **_: built.append(command))
    result = bar(line)
    assert 0 == result.exit_code, result.output
    (command,) = built
    assert {k: getattr(command, k) for k in fields} == fields
    for key, value in fields.items():  # an enum's value is the enum, not its text
        assert type(getattr(command, key)) is type(value), key


def test_the_table_covers_every_verb_and_every_option() -> None:
    lines = [shlex.split(line) for line, _ in BUILT]
    for path in LINES:
        words = path.split()
        assert any(w[: len(words)] == words for w in lines), path
        given = {w for ws in lines if ws[: len(words)] == words for w in ws}
        for option in LINES[path].options:
            assert f"--{option}" in given, (path, option)


@pytest.fixture
def bar(run: Run) -> Run:
    for line in SETUP:
        assert 0 == run(line).exit_code, line
    return run


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("attack Kristov Brawler", "Missing option '--target'"),
        ("attack Kristov --target Jefferson --kind fire", "'fire' is not one of"),
        ("danger stormy", "'stormy' is not one of"),
        ("turns Kristov --ties coin", "'coin' is not one of"),
        ("simple Kristov", "Missing argument 'QUALITY'"),
        ("roll Kristov", "Missing option '--difficulty'"),
        ("allocate Kristov", "Missing argument 'STEPS...'"),
        ("restore Kristov", "Missing argument 'STEPS...'"),
        ("mission announce Vault", "Missing argument 'CHARACTERS...'"),
        ("turns", "Missing argument 'ENTRIES...'"),
        ("kill Jefferson", "Missing argument 'VICTIM'"),
    ],
)
def test_usage_errors_are_click_s_as_before(bar: Run, line: str, problem: str) -> None:
    result = bar(line)
    assert 2 == result.exit_code
    assert problem in result.stderr


def test_the_rules_refuse_what_click_refused_before(bar: Run) -> None:
    """`master-plus` takes any number of qualities and `strategy` a text (its rule reads any
    case): what is not two qualities or a strategy is the rule's to refuse, with its typed error
    (exit 2, nothing recorded)."""
    wrong = bar("master-plus Kristov Flight")
    assert (2, "error: NOT_ENOUGH_MASTERS: ") == (wrong.exit_code, wrong.stderr[:27])
    hide = bar("strategy Jefferson hide")
    assert 2 == hide.exit_code
    assert hide.stderr.startswith("error: "), hide.stderr
    assert 0 == bar("strategy Jefferson FULL-DEFENSE").exit_code


def test_a_verb_is_built_when_looked_up(tmp_path: Path) -> None:
    """A roll builds `roll` alone: no other verb's command module, nor the sheets, is imported
    for it."""
    loaded = modules_once_built(SYSTEM, "roll", tmp_path)
    assert "domain.rulesets.sims.situations" in loaded
    for other in ("conflict", "creation", "improvement", "recovery", "turns"):
        assert f"domain.rulesets.sims.{other}" not in loaded, other
    assert COMMANDS in loaded
    assert "cli.sims.sheet" not in loaded
    assert not any(m.startswith("projections.sims") for m in loaded), loaded


def test_arguments_and_options_complete_from_their_kinds(bar: Run, db: Path) -> None:
    """A character's name (who acts, a target), a choice's values, a member (the player)."""
    from tests.e2e.test_completion import completed

    assert ["Kristov"] == completed(db, ["roll"], "Kr")
    assert ["Jefferson"] == completed(db, ["attack", "Kristov", "--target"], "Je")
    assert ["failure"] == completed(db, ["attack", "Kristov", "--kind"], "f")
    assert ["continuing"] == completed(db, ["danger"], "c")
    assert ["as-listed"] == completed(db, ["turns", "--ties"], "a")
    assert ["full-attack"] == completed(db, ["strategy", "Jefferson"], "full-a")
    assert ["Good"] == completed(db, ["roll", "Kristov", "--difficulty"], "G")
    assert ["Lotus"] == completed(db, ["character", "create", "Case", "--player"], "Lo")
