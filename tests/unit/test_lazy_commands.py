"""A lazy ``commands`` module (``domain.rulesets.lazy``) lists each command three times: imported
for type checkers, in ``__all__`` (or ``RETIRED``: a command no verb builds any more, kept for
the rulings that recorded it), and in the map of where it lives. The three agree, and every
command its submodules define is listed."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from types import ModuleType

import pytest

LAZY = [
    "domain.rulesets.code_green.commands",
    "domain.rulesets.sims.commands",
    "domain.rulesets.sprawl_goons.commands",
    "domain.rulesets.the_code.commands",
]


def _type_checking_imports(module: ModuleType) -> dict[str, str]:
    """Each name imported under ``if TYPE_CHECKING:``, with the module it comes from."""
    tree = ast.parse(inspect.getsource(module))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                for alias in statement.names:
                    found[alias.name] = str(statement.module)
    return found


@pytest.mark.parametrize("name", LAZY)
def test_the_three_lists_agree(name: str) -> None:
    module = importlib.import_module(name)
    typed = _type_checking_imports(module)
    listed = [*module.__all__, *getattr(module, "RETIRED", ())]
    assert sorted(typed) == sorted(listed)
    for command in listed:
        value = getattr(module, command)  # through the map
        assert value.__module__ == typed[command], command
    assert set(listed) <= set(dir(module))


@pytest.mark.parametrize("name", LAZY)
def test_every_command_of_the_submodules_is_listed(name: str) -> None:
    module = importlib.import_module(name)
    homes = set(_type_checking_imports(module).values())
    listed = {*module.__all__, *getattr(module, "RETIRED", ())}
    for home in homes:
        for cls_name, cls in vars(importlib.import_module(home)).items():
            is_command = inspect.isclass(cls) and hasattr(cls, "decide") and hasattr(cls, "name")
            if is_command and cls.__module__ == home and not cls_name.startswith("_"):
                assert cls_name in listed, f"{home}.{cls_name} is not in {name}"


@pytest.mark.parametrize("name", LAZY)
def test_importing_the_module_imports_no_command(name: str) -> None:
    homes = sorted(set(_type_checking_imports(importlib.import_module(name)).values()))
    code = f"import sys, {name}; print(sorted(m for m in {homes!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
