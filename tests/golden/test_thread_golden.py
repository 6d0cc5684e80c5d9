"""The thread of each example campaign's session played as a thread (one per system), as
Markdown and as the terminal shows it, compared with reviewed golden files.

After a deliberate change to how threads read, regenerate the files and review the diff:

    .venv/bin/python -m tests.golden.test_thread_golden      (or: make golden-threads)
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest
from freezegun import freeze_time

from domain.audience import GMS, of_actor
from engine import Engine
from projections.render_thread import thread_md, thread_text
from tests.conftest import FROZEN_AT
from tests.examples import player as example_player
from tests.golden.reviewed import kept, rewrite
from tests.golden.test_recap_golden import SCRIPTS

GOLDEN = Path(__file__).parent / "threads"


def rendered(script: Path, folder: Path) -> dict[str, str]:
    """The thread of the example's last session, as the GM and as an observer of the table
    (a player: the first member seated) read it, by file name."""
    db = folder / f"{script.stem}.db"
    with freeze_time(FROZEN_AT), contextlib.redirect_stdout(io.StringIO()):
        assert 0 == example_player()(script, db)
    with freeze_time(FROZEN_AT), Engine(str(db)) as engine:
        (entry,) = engine.directory().campaigns
        campaign = engine.campaign(entry.name)
        number = campaign.sessions
        player = next(m.name for m in campaign.members if m.role == "player")
        gm = engine.thread(entry.name, number, audience=GMS)
        theirs = engine.thread(entry.name, number, audience=of_actor(player))
    stem = f"{script.stem}-session-{number}"
    return {
        f"{stem}.md": thread_md(gm),
        f"{stem}.txt": thread_text(gm),
        f"{stem}-{player}.md": thread_md(theirs),
    }


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_threads_match_the_golden_files(script: Path, tmp_path: Path) -> None:
    """Each example's thread reads exactly as the reviewed files (regenerate: the docstring)."""
    files = rendered(script, tmp_path)
    assert kept(GOLDEN, f"{script.stem}-*") == files


def regenerate() -> list[Path]:
    return rewrite(GOLDEN, "*", SCRIPTS, rendered)


if __name__ == "__main__":
    for path in regenerate():
        print(f"wrote {path}")
    sys.exit(0)
