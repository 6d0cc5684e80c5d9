"""A `campaign` run imports what it uses (issue 32): `--help`, `--version` and `completion` no
engine at all, and a command on a campaign its own rule system only, never another system's
rules, CLI or presentation. Each command runs in a fresh interpreter, which then says what it
imported (``sys.modules``)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cli import start_up
from cli.defaults import DEFAULT_DB, MEMORY
from domain.rulesets import SYSTEMS
from tests.e2e.conftest import Run

PROBE = """
import contextlib, io, json, sys
from cli.main import campaign
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = campaign.main(sys.argv[1:], prog_name="campaign", standalone_mode=False)
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def imported(argv: list[str], cwd: Path) -> list[str]:
    """The modules a fresh process imported to run ``campaign ARGV`` (which must succeed)."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], cwd=cwd, capture_output=True, text=True, check=True
    )
    found = json.loads(out.stdout.splitlines()[-1])
    assert found["code"] in (0, None), (argv, found["code"])
    return list(found["modules"])


def system_modules(modules: list[str], package: str) -> list[str]:
    """The modules of one system's package: its rules, its CLI verbs, its presentation (not its
    manifest, ``cli.<package>_manifest``: the names and short help `--help` lists, plain data)."""
    roots = (f"domain.rulesets.{package}", f"cli.{package}", f"projections.{package}_")
    manifest = f"cli.{package}_manifest"
    return [
        m
        for m in modules
        if (m.startswith(roots) or m == f"projections.{package}") and m != manifest
    ]


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["completion", "bash"], ["-h"]])
def test_help_version_and_completion_import_no_engine(argv: list[str], tmp_path: Path) -> None:
    modules = imported(argv, tmp_path)
    assert [] == [m for m in modules if m == "engine" or m.startswith("engine.")]
    for package in SYSTEMS.values():
        assert [] == system_modules(modules, package), package


def test_a_verb_s_help_imports_its_own_system_only(table: Run, db: Path) -> None:
    """`campaign roll --help` on a Code Green campaign: Code Green's `roll`, no other's."""
    modules = imported(["--db", str(db), "roll", "--help"], db.parent)
    assert system_modules(modules, "code_green")
    for package in set(SYSTEMS.values()) - {"code_green"}:
        assert [] == system_modules(modules, package), package


SPRAWL = [
    "init Docklands --system sprawl-goons --gm Rosa",
    "session start",
    "character create Tanner --player ana --stats 2,1,1,0 --item melee:Katana "
    "--item armour:Kevlar --item lazarus --dice 3,4,5,2",
    'scene start "The container stacks"',
]


def _store(table: Run, db: Path, tmp_path: Path, setup: list[str], line: str) -> Path:
    """The store ``line`` runs on: the Code Green ``table`` (a test open for its `roll`), or
    one of its own played through ``setup``."""
    if not setup:
        if line.startswith("roll"):
            assert 0 == table("test alice Legs Invulnerable").exit_code
        return db
    from click.testing import CliRunner

    from cli.main import campaign

    store = tmp_path / "sprawl.db"
    for step in setup:
        result = CliRunner().invoke(campaign, ["--db", str(store), *shlex.split(step)])
        assert 0 == result.exit_code, (step, result.output)
    return store


@pytest.mark.parametrize(
    ("system", "setup", "line"),
    [
        ("code_green", [], "roll alice --dice 2,5"),
        ("code_green", [], "log"),
        ("code_green", [], "recap"),
        ("code_green", [], "character show alice"),
        ("code_green", [], "note 'the lights flicker'"),
        ("sprawl_goons", SPRAWL, "roll Tanner reaction --ds 10 --dice 3,3"),
        ("sprawl_goons", SPRAWL, "show Tanner"),
        ("sprawl_goons", SPRAWL, "thread"),
        ("sprawl_goons", SPRAWL, "history Tanner"),
        ("sprawl_goons", SPRAWL, "search Tanner"),
    ],
)
def test_a_command_on_a_campaign_imports_its_own_system_only(
    table: Run, db: Path, tmp_path: Path, system: str, setup: list[str], line: str
) -> None:
    """(``table`` is a Code Green campaign; Sprawl Goons gets a store of its own.)"""
    store = _store(table, db, tmp_path, setup, line)
    modules = imported(["--db", str(store), *shlex.split(line)], tmp_path)
    assert system_modules(modules, system), "the campaign's own system is what runs"
    for package in set(SYSTEMS.values()) - {system}:
        assert [] == system_modules(modules, package), (line, package)


# What a roll does without (issue 32, item 3): each was imported by a roll before, and a test
# here fails if one comes back. The modules named, and every module under them.
NOT_FOR_A_ROLL = {
    "cryptography": "Ed25519 checks: a roll checks no key or signature",
    "domain.signatures": "the entropy a player signs",
    "domain.lifecycle": "the session's commands (session, scene, note, entropy) and `init`",
    "domain.table": "the table's commands (members, disputes, reveals)",
    "engine.results.views": "the result types, for `--json` and the other reads",
    "projections.render_md": "Markdown of recaps and timelines",
    "projections.recap": "the recap",
    "projections.thread": "the thread of a session",
    "projections.documents": "the read models, read by recaps and timelines",
    "projections.presentation": "each system's presentation (sheets, recap highlights, pages)",
    "engine.application.access_secrets": "the sign-ins' table: a roll signs nobody in",
    "engine.application.replies": "the replies answered once (Discord)",
    "engine.application.read_positions": "where each member read up to",
    "engine.application.notice_marks": "the notices' marks and outbox",
    "engine.application.notice_outbox": "the notices' mail",
    "engine.application.store_changes": "following the store (live pages, seals)",
    **dict.fromkeys(
        (
            "cli.sprawl_goons.characters",
            "cli.sprawl_goons.combat",
            "cli.sprawl_goons.hazards",
            "cli.sprawl_goons.healing",
            "cli.sprawl_goons.kit",
            "cli.sprawl_goons.advancement",
            "cli.sprawl_goons.sheet",
            "projections.sprawl_goons_sheet",
        ),
        "Sprawl Goons' other verbs and its sheets: each verb is imported alone",
    ),
    **dict.fromkeys(
        ("cli.code_green.sheet", "projections.code_green_sheet"),
        "Code Green's sheets: each verb is imported alone",
    ),
}


@pytest.mark.parametrize(
    ("setup", "line"),
    [([], "roll alice --dice 2,5"), (SPRAWL, "roll Tanner reaction --ds 10 --dice 3,3")],
)
def test_a_roll_imports_only_what_a_roll_uses(
    table: Run, db: Path, tmp_path: Path, setup: list[str], line: str
) -> None:
    """A roll records and prints one ruling: none of the modules above is imported for it."""
    store = _store(table, db, tmp_path, setup, line)
    modules = imported(["--db", str(store), *shlex.split(line)], tmp_path)
    for name, what in NOT_FOR_A_ROLL.items():
        assert [] == [m for m in modules if m == name or m.startswith(name + ".")], what


RESUMED = """
import contextlib, gc, io, json, sys
from cli import start_up
from cli.main import campaign
start_up.pause()
paused = not gc.isenabled()
with contextlib.redirect_stdout(io.StringIO()):
    campaign.main(sys.argv[1:], prog_name="campaign", standalone_mode=False)
print(json.dumps([paused, gc.isenabled(), gc.get_freeze_count() > 0]))
"""


def test_the_collector_paused_for_start_up_runs_again_for_the_verb(
    table: Run, db: Path, tmp_path: Path
) -> None:
    """`campaign` pauses Python's cyclic collector while it imports (``cli.start_up``) and
    resumes it once the verb is found, with what start-up built frozen."""
    argv = [sys.executable, "-c", RESUMED, "--db", str(db), "log"]
    out = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert [True, True, True] == json.loads(out.stdout.splitlines()[-1])


def test_the_cli_s_defaults_are_the_engine_s() -> None:
    from engine import DEFAULT_DB as ENGINE_DEFAULT
    from engine import MEMORY as ENGINE_MEMORY

    assert (DEFAULT_DB, MEMORY) == (ENGINE_DEFAULT, ENGINE_MEMORY)


@pytest.mark.parametrize(
    ("argv", "opens"),
    [
        (["--version"], False),
        (["--help"], False),
        (["-h"], False),
        (["roll", "--help"], False),
        (["completion", "bash"], False),
        (["key", "new"], False),
        ([], False),
        (["roll", "Tanner", "reaction", "--dice", "3,3"], True),
        (["--db", "completion.db", "--campaign", "key", "log"], True),
        (["--json", "--as", "ana", "character", "show", "Tanner"], True),
    ],
)
def test_a_verb_that_opens_the_store_has_the_engine_imported_first(
    argv: list[str], opens: bool
) -> None:
    """``cli.start_up`` imports the engine at the bottom of the stack for a verb that opens
    the store, and never for help, the version, completion or the key file's verbs."""
    assert opens == start_up.opens_the_store(argv)


ENTERED = """
import contextlib, io, json, sys
from cli import start_up
sys.argv = ["campaign", *sys.argv[1:]]
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    start_up.main()
print(json.dumps(sorted(m for m in sys.modules if m == "engine" or m.startswith("engine."))))
"""


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["completion", "bash"]])
def test_the_program_s_entry_imports_no_engine_for_help(argv: list[str], tmp_path: Path) -> None:
    entered = [sys.executable, "-c", ENTERED, *argv]
    out = subprocess.run(entered, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert [] == json.loads(out.stdout.splitlines()[-1])


def test_the_options_start_up_skips_with_their_value_are_the_group_s() -> None:
    from cli.main import campaign

    valued = {
        name
        for param in campaign.params
        if isinstance(param, click.Option) and not param.is_flag
        for name in param.opts
    }
    assert valued == start_up._VALUED
