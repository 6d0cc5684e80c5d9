"""Imports point down: cli -> engine (its package surface only), projections -> domain. The CLI
(and the server to come) stand on the application API in ``engine/__init__.py``; a front end that
reached into an engine module would tie itself to internals the engine is free to change."""

from __future__ import annotations

import ast
import re
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


# A system's own modules: its ruleset package, and its folders and modules in the layers above
# (``projections/the_code_sheet.py``, ``cli/the_code/``); the registry of systems names them all.
def _system_modules() -> tuple[set[str], re.Pattern[str]]:
    from domain.rulesets import SYSTEMS

    packages = "|".join(sorted(SYSTEMS.values()))
    own = re.compile(
        rf"^(domain/rulesets/({packages})/|(projections|cli|web)/({packages})(/|(_[a-z_]+)?\.py$))"
    )
    return set(SYSTEMS), own


def _names_of_systems(path: Path, ids: set[str], packages: set[str]) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        for name in names:
            parts = name.split(".")
            if any(p in packages or p.startswith(tuple(f"{s}_" for s in packages)) for p in parts):
                yield f"{node.lineno} imports {name}"
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value in ids
            and id(node) not in docstrings
        ):
            yield f"{node.lineno} names {node.value!r}"


# The registry itself: ``SYSTEMS`` (each system's verbs in the CLI's manifest are in the system's
# own ``cli/<package>_manifest.py``).
REGISTRIES = ("domain/rulesets/__init__.py",)


def test_no_shared_module_names_a_system() -> None:
    """Adding a ruleset is one line in ``SYSTEMS`` plus its own folders: the shared modules
    (every module of ``domain``, ``engine``, ``projections``, ``cli`` and ``web`` that is not a
    system's own) ask the registries (``domain.rulesets``, ``projections.presentation``,
    ``cli.systems``) and neither import a system's modules nor name a system."""
    ids, own = _system_modules()
    from domain.rulesets import SYSTEMS

    packages = set(SYSTEMS.values())
    found = []
    for top in OURS:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if own.match(rel) or rel in REGISTRIES:
                continue
            found += [f"{rel}:{hit}" for hit in _names_of_systems(path, ids, packages)]
    assert found == []


def test_the_check_sees_a_system_named() -> None:
    """The check above is not vacuous: the modules of a system are its own, and the ones it
    would flag are found."""
    ids, own = _system_modules()
    assert own.match("projections/the_code_presentation.py")
    assert own.match("cli/the_code/exposure.py")
    assert not own.match("projections/presentation.py")
    from domain.rulesets import SYSTEMS

    hits = list(
        _names_of_systems(ROOT / "projections/the_code_presentation.py", ids, set(SYSTEMS.values()))
    )
    assert any("imports projections.the_code_recap" in hit for hit in hits)
