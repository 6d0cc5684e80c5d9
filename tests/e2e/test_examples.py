"""Every example campaign script plays through the real command without a surprise."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[2] / "examples"


def _play() -> object:
    spec = importlib.util.spec_from_file_location("play", EXAMPLES / "play.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play


@pytest.mark.parametrize("script", sorted(EXAMPLES.glob("*.campaign")), ids=lambda p: p.stem)
def test_example_plays_to_the_end(
    script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each line succeeds, or is refused exactly where the script expects a refusal."""
    play = _play()
    assert 0 == play(script, tmp_path / "example.db")  # type: ignore[operator]
    assert "The campaign is in" in capsys.readouterr().out
