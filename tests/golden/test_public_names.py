"""Pinned public names: every stored event topic, every command topic a ruling header records,
and every error code. Stored logs, exports and scripts depend on them: a rename here breaks a
campaign recorded yesterday. The golden list is `tests/golden/public_names.txt`.

- A name **added**: add it to the list (`python -m tests.golden.test_public_names` rewrites it;
  review the diff).
- A name **gone or renamed**: stored rows still carry the old topic. Keep the old name loadable
  (eventsourcing's `register_topic(old_topic, NewClass)` where the class is imported), or, for
  an error code, say in the commit why a script may see the new code; then update the list.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import cli
import domain
import engine
import projections
import web
from domain.errors import CodedError, DomainError, Fault
from domain.rulesets import SYSTEMS
from engine.transfer.export_import import command_classes, event_classes

GOLDEN = Path(__file__).with_name("public_names.txt")


def _import_everything() -> None:
    """Every module of the product, so that every error class is defined."""
    for package in (domain, engine, projections, cli, web):
        for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not found.name.endswith(("_postgres", "__main__")):  # psycopg is optional
                importlib.import_module(found.name)


def _error_classes() -> set[type[CodedError]]:
    found: set[type[CodedError]] = set()
    todo = [CodedError]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found - {DomainError, Fault}  # the bases: never raised themselves


def public_names() -> list[str]:
    _import_everything()
    names = set()
    for system in sorted(SYSTEMS):
        names |= {f"event {topic}" for topic in event_classes(system)}
        names |= {f"command {topic}" for topic in command_classes(system)}
    names |= {f"error {cls.code}" for cls in _error_classes()}
    return sorted(names)


def test_public_names_are_pinned() -> None:
    pinned = GOLDEN.read_text().splitlines()
    now = public_names()
    gone = sorted(set(pinned) - set(now))
    added = sorted(set(now) - set(pinned))
    assert not gone, (
        f"public names gone or renamed: {gone}. Stored logs hold them: register the old topic "
        "(eventsourcing.utils.register_topic) or say why the error code may change, then "
        "update tests/golden/public_names.txt (see this module's docstring)"
    )
    assert not added, (
        f"new public names: {added}. Pin them: python -m tests.golden.test_public_names"
    )


if __name__ == "__main__":
    GOLDEN.write_text("\n".join(public_names()) + "\n")
