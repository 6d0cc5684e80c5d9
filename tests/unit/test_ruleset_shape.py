"""The four rulesets have one shape (``domain/rulesets/README.md``): learn one, find the same
modules, the same lazy command list, keyword-only commands named in the imperative and the
character type in ``character.py`` in every other."""

from __future__ import annotations

import importlib
import pkgutil

import attrs
import pytest

from domain.registry import verbs
from domain.rulesets import SYSTEMS, ruleset_named

MODULES = {
    "__init__",
    "character",
    "checks",
    "commands",
    "creation",
    "errors",
    "events",
    "lookup",
    "moves",
    "policy",
    "settings",
    "state",
    "tables",
}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_ruleset_has_the_same_modules(system: str) -> None:
    package = importlib.import_module(f"domain.rulesets.{SYSTEMS[system]}")
    found = {m.name for m in pkgutil.iter_modules(package.__path__)} | {"__init__"}
    assert MODULES <= found, f"{system} lacks {sorted(MODULES - found)}"


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_commands_module_names_them_lazily(system: str) -> None:
    """One policy: ``commands`` lends each command from its rule module on first use."""
    commands = importlib.import_module(f"domain.rulesets.{SYSTEMS[system]}.commands")
    assert getattr(commands, "__getattr__", None) is not None
    assert commands.__all__, system


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_character_type_lives_in_character_py(system: str) -> None:
    kind = ruleset_named(system).character_type
    assert kind.__module__ == f"domain.rulesets.{SYSTEMS[system]}.character"


# Imperatives whose last word happens to end in -ed (the check below is a spelling heuristic).
ENDS_IN_ED = {"RollComplicated"}  # roll a Complicated situation (Sims, Situations)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_commands_are_keyword_only_and_imperative(system: str) -> None:
    """Every command takes its fields by name (a new field never shifts the others) and is
    named as an order (``SucceedMission``), not as an event (``MissionSucceeded``)."""
    for verb in verbs(system).values():
        cls = verb.command
        positional = [f.name for f in attrs.fields(cls) if not f.kw_only]
        assert positional == [], f"{cls.__name__} takes {positional} by position"
        event_like = cls.__name__.endswith("ed") and cls.__name__ not in ENDS_IN_ED
        assert not event_like, f"{cls.__name__} reads like an event"
