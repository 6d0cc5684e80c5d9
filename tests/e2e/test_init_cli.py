"""`campaign init` names its GM: with --gm, or asked for on a terminal; never a made-up "GM"
(issue 30). With nobody at a terminal to ask, the run is refused and makes no store."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import campaigns
from cli.main import campaign
from tests.e2e.conftest import Run


def test_init_without_gm_off_a_terminal_is_refused_and_makes_no_store(run: Run, db: Path) -> None:
    result = run("init Lab --system code-green")
    assert 2 == result.exit_code
    assert result.stderr.startswith("error: GM_NOT_NAMED: ")
    assert "--gm NAME" in result.stderr
    assert "" == result.stdout
    assert [] == list(db.parent.iterdir())  # no store, no `.current`: nothing appended


def test_init_without_gm_under_json_is_refused_in_json(run: Run) -> None:
    result = run("--json init Lab --system code-green")
    assert 2 == result.exit_code
    assert "GM_NOT_NAMED" == json.loads(result.stderr)["error"]["code"]


def test_init_without_gm_on_a_terminal_asks_for_one(
    db: Path, monkeypatch: pytest.MonkeyPatch, frozen: None
) -> None:
    """The question goes to stderr; an empty answer is asked again; the answer is the GM."""
    monkeypatch.setattr(campaigns, "interactive", lambda: True)
    runner = CliRunner()
    argv = ["--db", str(db), "--json", "init", "Lab", "--system", "sims"]
    result = runner.invoke(campaign, argv, input="\nRosa\n")
    assert 0 == result.exit_code, result.output
    assert 2 == result.stderr.count("The GM's name (--gm): ")
    assert "Rosa" == json.loads(result.stdout)["actor"]
    members = runner.invoke(campaign, ["--db", str(db), "member", "list"]).stdout
    assert "Rosa (gm)" == members.splitlines()[0]


def test_a_real_terminal_is_asked(tmp_path: Path) -> None:
    """The installed program on a (pseudo-)terminal: the question, the answer, the campaign."""
    ours, theirs = pty.openpty()
    argv = [sys.executable, "-m", "cli", "--db", str(tmp_path / "t.db"), "init", "Lab"]
    process = subprocess.Popen(
        [*argv, "--system", "the-code"], stdin=theirs, stdout=theirs, stderr=theirs
    )
    os.close(theirs)
    seen = b""
    try:
        while b"(--gm): " not in seen:
            seen += os.read(ours, 4096)
        os.write(ours, b"Rosa\n")
        assert 0 == process.wait(timeout=60)
    finally:
        process.kill()
        os.close(ours)
    listed = CliRunner().invoke(campaign, ["--db", str(tmp_path / "t.db"), "member", "list"])
    assert "Rosa (gm)" == listed.stdout.splitlines()[0]
