"""examples/bot.py, the Python API example of docs/api.md, runs as printed: a campaign created, a
seeded roll, an undo, and the recap printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_example_runs(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    db = tmp_path / "bot.db"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "bot.py"), "--db", str(db)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert 0 == done.returncode, done.stderr
    lines = done.stdout.splitlines()
    assert "ruling 5: roll, dice [6, 1]" == lines[0]  # seed 42, reproducibly
    assert "# Neon Alley: session 1" == lines[1]
    assert "- **#5** Tanner: Reaction roll [6,1] + Reaction 1 = 8 vs DS 10: failure by 2" in lines
    assert "- **#6** (session 1) undone by #7 (Rosa): that was for the next scene" in lines
    assert db.exists()


def test_the_docs_python_example_runs(tmp_path: Path) -> None:
    """docs/api.md's Python API block, run as printed (in a scratch folder)."""
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    block = page.split("# Python API", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    done = subprocess.run(
        [sys.executable, "-c", block],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=120,
    )
    assert 0 == done.returncode, done.stderr
    assert done.stdout.startswith("# Neon Alley: session 1")
    assert "undone by #6 (Rosa): wrong stat" in done.stdout
