"""`campaign export --for MEMBER`: the GM's, or the member's own with --as; `verify-dice` checks
the copy and says whose it is; `import` refuses it (IMPORT_OF_MEMBER_COPY) and adds nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import Run

SECRET = "the vault code is 4471"
WHISPER = "Carl, meet me at the docks"


def ok(run: Run, line: str) -> str:
    result = run(line)
    assert result.exit_code == 0, (line, result.output, result.stderr)
    return result.stdout


def test_a_members_copy_from_the_command_line(run: Run, tmp_path: Path) -> None:
    ok(
        run,
        'init "Night Shift" --system code-green --gm Rosa --member Bea:player --member Carl:player',
    )
    ok(run, f'note "{SECRET}" --gm-only')
    ok(run, f'post "{WHISPER}" --to Carl')
    ok(run, 'note "rain on the docks"')
    whole, copy = tmp_path / "whole.jsonl", tmp_path / "bea.jsonl"
    ok(run, f"export --out {whole}")
    ok(run, f"--as Bea export --for Bea --out {copy}")
    text = copy.read_text()
    assert SECRET not in text
    assert WHISPER not in text
    assert "rain on the docks" in text
    checked = json.loads(ok(run, f"--json verify-dice {copy}"))
    gm = json.loads(ok(run, f"--json verify-dice {whole}"))
    assert checked["intact"]
    assert checked["copy"]["for"] == "Bea"
    assert checked["copy"]["withheld"] > 0
    assert checked["copy"]["digest"] == json.loads(whole.read_text().splitlines()[0])["digest"]
    assert "copy" not in gm
    said = ok(run, f"verify-dice {copy}")
    assert "Bea's copy:" in said
    refused = run(f"--as Carl export --for Bea --out {tmp_path / 'x.jsonl'}")
    assert refused.exit_code == 2
    assert "NOT_ALLOWED" in refused.stderr, refused.stderr
    other = tmp_path / "other.db"
    imported = run(f"--db {other} import {copy}")
    assert imported.exit_code == 2
    assert "IMPORT_OF_MEMBER_COPY" in imported.stderr, imported.stderr
    assert not other.exists()
