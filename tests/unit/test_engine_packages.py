"""No module-level import cycle inside ``engine/`` (issue 27): its modules are grouped by role
into sub-packages, and each imports at module level only its own package and those below it. An
import inside a function, or under ``TYPE_CHECKING``, is not an edge: it runs once the modules
are loaded."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# the sub-packages, lowest first
ORDER = [
    "store",
    "dice",
    "write",
    "reads",
    "corrections",
    "audit",
    "transfer",
    "results",
    "application",
]


def _module_of(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_of(p): p for p in sorted(ENGINE.rglob("*.py"))}


def _edges(module: str, path: Path, known: set[str]) -> set[str]:
    """The engine modules ``module`` imports when it is itself imported."""
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):  # the engine imports absolutely (STYLE.md)
            base = node.module or ""
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {m for m in found if m in known and m != module}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_level_import_cycle_in_the_engine() -> None:
    modules = _modules()
    graph = {m: _edges(m, p, set(modules)) for m, p in modules.items()}
    assert len(modules) > 50
    assert _cycles(graph) == []


def test_the_packages_import_downwards() -> None:
    """At module level a sub-package's modules import only their own package's and those
    listed before it in ORDER."""
    modules = _modules()
    upwards = []
    for module, path in modules.items():
        parts = module.split(".")
        if len(parts) < 3 or parts[1] not in ORDER:
            continue
        for other in sorted(_edges(module, path, set(modules))):
            theirs = other.split(".")
            known = len(theirs) > 1 and theirs[1] in ORDER
            if known and ORDER.index(theirs[1]) > ORDER.index(parts[1]):
                upwards.append(f"{module} -> {other}")
    assert upwards == []


def test_the_cycle_check_finds_one() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_engine_module_imports_first_in_a_fresh_interpreter() -> None:
    """Each module imported before any other engine module (the package's own ``__init__``
    aside) loads: no import order hides a cycle."""
    names = sorted(m for m in _modules() if not m.endswith("_postgres"))  # psycopg is optional
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m == 'engine' or m.startswith('engine.')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
