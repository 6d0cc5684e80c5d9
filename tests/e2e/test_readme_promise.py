"""The README's promise about the dice (what a GM can and cannot do): every sentence names, in a
comment above it, the tests that hold it, and every test named exists, so a sentence is never
left without its proof nor a renamed test without its sentence."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## What a GM can and cannot do with the dice"


def promises() -> list[tuple[str, list[str]]]:
    """Each sentence of the section and the tests its comment names."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"<!-- promise: (.*?) -->\n- (.*?)(?=\n<!--|\n\n|\Z)", section, re.S)
    return [(" ".join(sentence.split()), named.split()) for named, sentence in found]


def defined(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


def test_every_sentence_of_the_promise_names_its_tests() -> None:
    found = promises()
    bullets = re.findall(
        r"^- ", (ROOT / "README.md").read_text().split(SECTION, 1)[1].split("\n## ", 1)[0], re.M
    )
    assert len(found) == len(bullets) >= 6
    for sentence, named in found:
        assert named, sentence


def test_every_test_the_promise_names_exists() -> None:
    missing = []
    for sentence, named in promises():
        for test in named:
            file, _, name = test.partition("::")
            path = ROOT / file
            if not path.exists() or name not in defined(path):
                missing.append((sentence[:40], test))
    assert [] == missing
