"""`campaign --help` in a campaign lists its own system's verbs (every system's with --all or
outside a campaign), importing no engine when the current campaign's system is remembered
beside the store; a mistyped verb is answered with the closest verb there (issue 30)."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import assume, given
from hypothesis import strategies as st

from cli import manifest
from cli.in_context import closest, verbs_here
from cli.main import campaign
from tests.e2e.conftest import Run
from tests.e2e.test_cli_imports import imported

TITLES = {system: title for system, (title, _) in manifest.SYSTEM_VERBS.items()}


def sections(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.endswith("verbs:")]


def test_in_a_campaign_help_lists_its_system_s_verbs_only(table: Run) -> None:
    listed = table("--help")
    assert 0 == listed.exit_code, listed.output
    assert ["Shared verbs:", "Code Green's verbs:"] == sections(listed.output)
    assert "adapt" in listed.output
    assert "contest" not in listed.output
    assert "`campaign --all --help` lists every system's" in listed.output


@pytest.mark.parametrize("line", ["--all --help", "--help --all", "--all"])
def test_all_lists_every_system_s_verbs_under_its_name(table: Run, line: str) -> None:
    listed = table(line)
    assert 0 == listed.exit_code, listed.output
    assert ["Shared verbs:", *(f"{t}:" for t in TITLES.values())] == sections(listed.output)


def test_outside_a_campaign_help_lists_every_system_s_verbs(run: Run, db: Path) -> None:
    listed = run("--help")
    assert ["Shared verbs:", *(f"{t}:" for t in TITLES.values())] == sections(listed.output)
    assert "Every system's verbs" in listed.output
    assert not db.exists()


def test_campaign_picks_whose_verbs_are_listed(table: Run) -> None:
    assert 0 == table("init Zion --system sims --gm Rosa").exit_code  # now the current one
    assert "The Sims RPG's verbs:" == sections(table("--help").output)[-1]
    named = table('--campaign "Night Shift" --help').output
    assert "Code Green's verbs:" == sections(named)[-1]
    assert 0 == table("use 'Night Shift'").exit_code
    assert "Code Green's verbs:" == sections(table("-h").output)[-1]


def test_help_in_a_campaign_imports_no_engine(table: Run, db: Path) -> None:
    """The system is read from the file that remembers the current campaign (`init` and `use`
    write it): no store is opened, no system's verbs imported."""
    assert "Night Shift\ncode-green\n" == Path(f"{db}.current").read_text(encoding="utf-8")
    modules = imported(["--db", str(db), "--help"], db.parent)
    assert [] == [m for m in modules if m == "engine" or m.startswith("engine.")]


def test_a_file_from_before_is_read_from_the_store_once(table: Run, db: Path) -> None:
    """A remembered campaign without its system (written by an older version): `--help` opens
    the store to find it (and still lists one system), and the next command keeps the system
    in the file, so `--help` imports no engine again."""
    memory = Path(f"{db}.current")
    memory.write_text("Night Shift\n", encoding="utf-8")
    modules = imported(["--db", str(db), "--help"], db.parent)
    assert "engine" in modules
    assert ["Shared verbs:", "Code Green's verbs:"] == sections(table("--help").output)
    assert 0 == table("log").exit_code
    assert "Night Shift\ncode-green\n" == memory.read_text(encoding="utf-8")
    assert "engine" not in imported(["--db", str(db), "--help"], db.parent)


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [("rol", "roll"), ("charcter", "character"), ("hist", "history"), ("sesion", "session")],
)
def test_a_mistyped_verb_suggests_the_closest_and_appends_nothing(
    table: Run, count: Callable[[], int], typed: str, suggested: str
) -> None:
    """`rol` is `roll` (not `resolve`, which click's own guess was)."""
    before = count()
    result = table(f"{typed} alice")
    assert 2 == result.exit_code
    expected = f"error: USAGE: No such command {typed!r}. Did you mean {suggested!r}?"
    assert result.stderr.startswith(expected)
    assert ("", before) == (result.stdout, count())


def test_outside_a_campaign_every_system_s_verbs_are_suggested(run: Run, db: Path) -> None:
    assert "Did you mean 'roll'?" in run("rol").stderr
    assert "Did you mean 'attack'?" in run("atack").stderr
    assert not db.exists()


def test_a_verb_only_another_system_has_is_not_suggested(table: Run) -> None:
    """`atack` in a Code Green campaign: no verb here is like it (Sprawl Goons' `attack` is
    not this campaign's)."""
    result = table("atack alice")
    assert result.stderr.startswith("error: USAGE: No such command 'atack'. (see")


VERBS = verbs_here(manifest.SHARED, None)


@given(st.sampled_from([v for v in VERBS if len(v) >= 4]), st.data())
def test_a_verb_with_a_letter_left_out_is_suggested(verb: str, data: st.DataObject) -> None:
    """A dropped letter finds its verb (unless what is left is a verb, or begins one)."""
    at = data.draw(st.integers(0, len(verb) - 1))
    typed = verb[:at] + verb[at + 1 :]
    assume(not any(other.startswith(typed) for other in VERBS))
    assert verb in closest(typed, VERBS)


def test_all_with_a_verb_changes_nothing(tmp_path: Path) -> None:
    """`--all` is one of the group's options, for `--help`: given with a verb it is ignored."""
    db = tmp_path / "c.db"
    runner = CliRunner()
    for line in ("init Lab --system sims --gm Rosa", "--all dice 1d6 --dice 3"):
        result = runner.invoke(campaign, ["--db", str(db), *shlex.split(line)])
        assert 0 == result.exit_code, result.output
