"""Resolving stored topics, old names included (``domain.rulesets.renamed``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from eventsourcing.utils import resolve_topic as _resolve_topic

from domain.rulesets.renamed import RENAMED

T = TypeVar("T")


def resolve(topic: str) -> Any:
    """The class a stored topic names, following a rename."""
    return _resolve_topic(RENAMED.get(topic, topic))


def with_old_names(classes: Mapping[str, T]) -> dict[str, T]:
    """``classes`` (topic -> class) with each renamed class also under its old topics."""
    found = dict(classes)
    for old, new in RENAMED.items():
        if new in classes:
            found[old] = classes[new]
    return found
