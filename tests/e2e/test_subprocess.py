"""The installed `campaign` program, run as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _campaign(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CAMPAIGN_DB": str(tmp_path / "table.db")}
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )


def test_a_session_in_real_processes(tmp_path: Path) -> None:
    """CAMPAIGN_DB picks the file; a refusal exits 2 on stderr; the log survives the process."""
    assert (
        0
        == _campaign(tmp_path, "init", "Proc", "--system", "code-green", "--gm", "Rosa").returncode
    )
    assert 0 == _campaign(tmp_path, "session", "start").returncode
    refused = _campaign(tmp_path, "session", "start")
    assert 2 == refused.returncode
    assert refused.stderr.startswith("error: SESSION_ALREADY_ACTIVE:")
    log = _campaign(tmp_path, "log")
    assert "session 1 starts" in log.stdout
    assert (tmp_path / "table.db").exists()
