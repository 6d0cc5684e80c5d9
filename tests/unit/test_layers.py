"""Imports point down: cli -> engine (its package surface only), projections -> domain. The CLI
(and the server to come) stand on the application API in ``engine/__init__.py``; a front end that
reached into an engine module would tie itself to internals the engine is free to change."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = ("domain", "engine", "projections", "cli", "web")


def _modules_imported(path: Path) -> Iterator[tuple[int, str]]:
    """Every module a file imports (at its top, in functions, under TYPE_CHECKING)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module


def _offences(package: str, allowed: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in _modules_imported(path):
            top = module.split(".")[0]
            if top in OURS and not any(
                module == rule or (rule.endswith(".") and module.startswith(rule))
                for rule in allowed
            ):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
            if package == "domain" and top == "eventsourcing":
                found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return found


# package -> what it may import of ours: "x." is x's modules, "x" the package itself
RULES = {
    "domain": ("domain", "domain."),
    "projections": ("domain", "domain.", "projections", "projections."),
    "engine": ("domain", "domain.", "projections.", "engine", "engine."),
    "cli": ("domain", "domain.", "projections.", "engine", "cli", "cli.", "web"),  # surfaces
    "web": ("domain", "domain.", "projections.", "engine", "web", "web."),  # engine's surface
}


@pytest.mark.parametrize("package", sorted(RULES))
def test_imports_point_down(package: str) -> None:
    assert _offences(package, RULES[package]) == []
