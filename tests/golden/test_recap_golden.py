"""Recaps and Exposure timelines of the example campaigns, compared with reviewed golden files.

After a deliberate change to how recaps read, regenerate the files and review the diff:

    .venv/bin/python -m tests.golden.test_recap_golden      (or: make golden-recaps)
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from domain.audience import GMS
from engine import Engine
from engine.reads.recaps import NotAHero
from projections.render_md import campaign_timeline_md, recap_md, timeline_md
from tests.conftest import FROZEN_AT
from tests.examples import EXAMPLES, player
from tests.golden.reviewed import kept, rewrite

GOLDEN = Path(__file__).parent / "recaps"
SCRIPTS = sorted(EXAMPLES.glob("*.campaign"))


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def rendered(script: Path, folder: Path) -> dict[str, str]:
    """Every recap of a played example (and, for The Code, every timeline), by file name."""
    db = folder / f"{script.stem}.db"
    with freeze_time(FROZEN_AT), contextlib.redirect_stdout(io.StringIO()):
        assert 0 == player()(script, db)
    files: dict[str, str] = {}
    with freeze_time(FROZEN_AT), Engine(str(db)) as engine:
        (entry,) = engine.directory().campaigns
        campaign = engine.campaign(entry.name)
        for number in range(1, campaign.sessions + 1):
            recap: dict[str, Any] = engine.recap(entry.name, number, audience=GMS)
            files[f"{script.stem}-session-{number}.md"] = recap_md(recap)
        if campaign.system == "the-code":
            for hero in campaign.roster:
                with contextlib.suppress(NotAHero):  # an NPC has no Exposure timeline
                    line = engine.hero_timeline(entry.name, hero.name, audience=GMS)
                    files[f"{script.stem}-{slug(hero.name)}.md"] = timeline_md(line)
            view = engine.campaign_timelines(entry.name, audience=GMS)
            files[f"{script.stem}-exposure.md"] = campaign_timeline_md(view)
    return files


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_recaps_match_the_golden_files(script: Path, tmp_path: Path) -> None:
    """Each example's recaps read exactly as the reviewed files (regenerate: see the docstring)."""
    files = rendered(script, tmp_path)
    assert kept(GOLDEN, f"{script.stem}-*.md") == files


def regenerate() -> list[Path]:
    return rewrite(GOLDEN, "*.md", SCRIPTS, rendered)


if __name__ == "__main__":
    for path in regenerate():
        print(f"wrote {path}")
    sys.exit(0)
