"""The README's five-minute tour runs as written."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.e2e.conftest import Run

README = Path(__file__).parents[2] / "README.md"


def tour_lines(heading: str = "## A five-minute tour for the GM") -> list[str]:
    """The commands of a section's first shell block, comments dropped, continued lines
    joined."""
    block = README.read_text(encoding="utf-8").split(heading, 1)[1]
    block = block.split("```sh", 1)[1].split("```", 1)[0]
    lines: list[str] = []
    current = ""
    for raw in block.splitlines():
        text = raw.split("  #", 1)[0].strip()
        if not text or text.startswith("#"):
            continue
        current = f"{current} {text}".strip()
        if current.endswith("\\"):
            current = current[:-1].rstrip()
            continue
        lines.append(current)
        current = ""
    return lines


@pytest.mark.parametrize(
    "heading", ["## A five-minute tour for the GM", "## The table: members, roles and disputes"]
)
def test_the_tour_runs_as_written(run: Run, heading: str) -> None:
    """Every command of the section succeeds, in order, on a fresh store."""
    lines = tour_lines(heading)
    assert len(lines) >= 10
    for line in lines:
        words = shlex.split(line)
        assert "campaign" == words[0]
        result = run(shlex.join(words[1:]))
        assert 0 == result.exit_code, (line, result.output)
