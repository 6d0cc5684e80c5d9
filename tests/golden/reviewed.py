"""Reviewed files (the golden recaps and threads): read back for a comparison, and written anew
from what the example campaigns render when a change to how they read is deliberate."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

Rendered = Callable[[Path, Path], dict[str, str]]  # (script, scratch folder) -> name -> text


def kept(folder: Path, pattern: str) -> dict[str, str]:
    """The reviewed files of ``folder`` whose names match ``pattern``, by name."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob(pattern))}


def rewrite(folder: Path, pattern: str, scripts: Iterable[Path], rendered: Rendered) -> list[Path]:
    """Replace the files of ``folder`` matching ``pattern`` with what ``scripts`` render now."""
    folder.mkdir(exist_ok=True)
    for stale in folder.glob(pattern):
        stale.unlink()
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        for script in scripts:
            for name, text in rendered(script, Path(scratch)).items():
                (folder / name).write_text(text, encoding="utf-8")
                written.append(folder / name)
    return written
