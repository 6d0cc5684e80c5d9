"""What a read model is: a name, a format version, and how one whole ruling's records change
its JSON documents (read and written by key through ``Documents``). The engine keeps the
documents and the position (``engine.reads.models``); the models live here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from projections.recap_facts import Envelope


class Documents(Protocol):
    """What a read model reads and writes while it processes rulings."""

    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: Any) -> None: ...


class ReadModel(Protocol):
    """A projection: a name, a format version, and how one ruling's records change its documents."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> int: ...

    def apply(self, docs: Documents, records: Sequence[Envelope]) -> None: ...
