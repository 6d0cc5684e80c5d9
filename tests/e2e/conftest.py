"""Drive the real `campaign` command on a SQLite file in a temporary folder."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import campaign
from engine import Engine
from tests.conftest import event_count

Run = Callable[[str], Result]

SETUP = [
    'init "Night Shift" --system code-green --gm Rosa',
    "session start",
    'scene start "The cold room"',
    "character create --player alice --form Legs,Tail,Teeth "
    "--function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5",
    "character create --player bob --form Guts,Lungs,Blood "
    "--function Phasing,Invasive,Auxiliary --dice 2,1,1,4,4",
    "place alice R1C1 R2C2 R3C3",
    "place bob R1C3 R3C1 R2C2",
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "campaign.db"


@pytest.fixture
def run(db: Path, frozen: None) -> Run:
    runner = CliRunner()

    def invoke(line: str) -> Result:
        return runner.invoke(campaign, ["--db", str(db), *shlex.split(line)])

    return invoke


@pytest.fixture
def table(run: Run) -> Run:
    """A campaign with two characters whose tokens are on their grids, in a running scene."""
    for line in SETUP:
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    return run


@pytest.fixture
def count(db: Path) -> Callable[[], int]:
    def events() -> int:
        with Engine(str(db)) as engine:
            return event_count(engine)

    return events
