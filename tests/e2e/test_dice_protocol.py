"""Commit-reveal from the command line: the GM commits, players add entropy, the dice roll,
the session ends, and a player checks the export with `verify-dice` alone."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import Run

SETUP = [
    'init "Night Shift" --system code-green --gm Rosa',
    "session start",  # 2: the commitment, printed
    'entropy "pancakes at midnight" --by Bea',  # 3
    'entropy "4471" --by Carl',  # 4
    'scene start "The cold room"',  # 5
    "character create --player alice --form Legs,Tail,Teeth "
    "--function Cryptic,Invulnerable,Phasing",  # 6: five committed name dice
]


def played(run: Run) -> str:
    """The session played; the commitment `session start` printed."""
    outputs = [run(line) for line in SETUP]
    for line, result in zip(SETUP, outputs, strict=True):
        assert 0 == result.exit_code, (line, result.output)
    started = outputs[1].output
    assert 'campaign entropy "your words" --by NAME' in started
    return started.split("seed hash ")[1].split()[0]


def test_players_add_entropy_and_check_the_session_from_the_export(
    run: Run, tmp_path: Path
) -> None:
    commitment = played(run)
    late = run('entropy "too late" --by Dan')
    assert 2 == late.exit_code
    assert "ENTROPY_WINDOW_CLOSED" in late.stderr
    assert "ruling 6" in late.stderr
    assert 0 == run("scene end").exit_code
    assert 0 == run("session end").exit_code
    undo = run('undo 8 --reason "no"')
    assert 2 == undo.exit_code
    assert "CANNOT_UNDO" in undo.stderr
    out = tmp_path / "s.jsonl"
    assert 0 == run(f"export --out {out}").exit_code

    checked = run(f"verify-dice {out}")

    assert 0 == checked.exit_code, checked.output
    assert f"session 1: commitment {commitment}" in checked.output
    assert "entropy from Bea: 'pancakes at midnight'" in checked.output
    assert "entropy from Carl: '4471'" in checked.output
    assert "1 committed rulings: verified" in checked.output
    assert "the dice check out" in checked.output
    report = json.loads(run(f"--json verify-dice {out} --session 1").stdout)
    assert (True, commitment) == (report["intact"], report["dice"][0]["commitment"])


def test_a_forged_face_in_the_export_does_not_check_out(run: Run, tmp_path: Path) -> None:
    played(run)
    run("scene end")
    run("session end")
    out = tmp_path / "s.jsonl"
    run(f"export --out {out}")
    lines = out.read_text().splitlines()
    for number, line in enumerate(lines):
        row = json.loads(line)
        if (
            row.get("topic", "").endswith(":RulingMade")
            and row["event"]["event"].get("counter") == 0
        ):
            die = row["event"]["event"]["dice"][0]
            die["face"] = 7 - die["face"]
            lines[number] = json.dumps(row)
    out.write_text("\n".join(lines) + "\n")

    checked = run(f"verify-dice {out}")

    assert 1 == checked.exit_code
    assert "the dice do NOT check out" in checked.output
