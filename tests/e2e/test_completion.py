"""Issue 22: shell completion. `campaign completion bash|zsh|fish` prints a script to source;
verbs, campaign names and character names complete from the store, and completing in a folder
with no store makes none."""

from __future__ import annotations

import os
from pathlib import Path
from unittest.mock import patch

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from cli.main import campaign
from tests.e2e.conftest import SETUP, Run


def completed(db: Path, words: list[str], incomplete: str) -> list[str]:
    """What the shell is offered, asked as its script asks (the completion variable set)."""
    complete = ShellComplete(campaign, {}, "campaign", "_CAMPAIGN_COMPLETE")
    with patch.dict(os.environ, {"_CAMPAIGN_COMPLETE": "bash_complete"}):
        items = complete.get_completions(["--db", str(db), *words], incomplete)
    return [item.value for item in items]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_script_for_each_shell(shell: str) -> None:
    result = CliRunner().invoke(campaign, ["completion", shell])
    assert 0 == result.exit_code
    assert "_CAMPAIGN_COMPLETE" in result.output


def test_names_complete_from_the_store(run: Run, db: Path) -> None:
    for line in SETUP:
        assert 0 == run(line).exit_code
    assert ["Night Shift"] == completed(db, ["use"], "Ni")
    assert ["Night Shift"] == completed(db, ["--campaign"], "")
    assert ["31415"] == completed(db, ["show"], "31")
    assert {"21144", "31415"} == set(completed(db, ["history"], ""))
    assert "session" in completed(db, [], "sess")


def test_completing_makes_no_store(db: Path) -> None:
    assert [] == completed(db, ["use"], "")
    assert [] == completed(db, ["show"], "")
    assert not db.exists()


def test_a_systems_verbs_complete_character_names(run: Run, db: Path) -> None:
    for line in SETUP:
        assert 0 == run(line).exit_code
    assert ["31415"] == completed(db, ["place"], "314")


def test_what_a_verb_completes_is_its_parameters_kind(run: Run, db: Path) -> None:
    """From the registry (``domain.kinds``): a character named by any verb (the helper of an
    assist, as the one who acts), a member (the player of a new character)."""
    for line in SETUP:
        assert 0 == run(line).exit_code
    assert ["31415"] == completed(db, ["assist"], "314")
    assert ["31415"] == completed(db, ["reject-assist"], "314")
    assert ["Rosa"] == completed(db, ["character", "create", "--player"], "R")
