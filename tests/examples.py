"""The example campaigns (examples/*.campaign) played for a test: the whole script, or its lines
up to the first one that holds a given text (a scene stopped mid-fight, a test left open), on a
fresh SQLite file, through the real `campaign` command (examples/play.py)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from collections.abc import Callable
from pathlib import Path

from freezegun import freeze_time

from tests.conftest import FROZEN_AT

EXAMPLES = Path(__file__).parents[1] / "examples"


def player() -> Callable[[Path, Path], int]:
    """``play(script, db)`` of examples/play.py (loaded from its file: examples is no package)."""
    spec = importlib.util.spec_from_file_location("play", EXAMPLES / "play.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    play: Callable[[Path, Path], int] = module.play
    return play


def played(stem: str, folder: Path, until: str | None = None) -> str:
    """The store (its path) of ``examples/<stem>.campaign`` played to its end, or up to and with
    the first line that holds ``until``."""
    lines = (EXAMPLES / f"{stem}.campaign").read_text(encoding="utf-8").splitlines()
    if until is not None:
        lines = lines[: next(i for i, line in enumerate(lines) if until in line) + 1]
    script = folder / f"{stem}.campaign"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = folder / f"{stem}.db"
    with freeze_time(FROZEN_AT), contextlib.redirect_stdout(io.StringIO()):
        assert 0 == player()(script, db)
    return str(db)
