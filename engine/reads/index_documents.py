"""The ruling index's documents as the indexed reads take them: each checked to be what the index
model writes before anything uses it, so a document edited by hand (not JSON, another shape, a
list whose count its pages do not hold) is ``IndexDamaged``, never a traceback in a read.

What a document says is checked against the log by the reads themselves (``engine.reads.indexed``):
here only whether it reads as the index's at all. A read that meets either falls back to the log:
the index is a cache, the log is the truth (`campaign verify` names the document).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from projections.ruling_index import PAGE

if TYPE_CHECKING:
    from projections.documents import Documents, ReadModel
    from projections.recap_facts import Envelope

Read = Callable[[str], Any]

# What a document edited by hand raises where a model's code or a read takes it as the index's:
# not JSON (a ValueError), another shape (the others).
MISREAD = (ValueError, TypeError, AttributeError, KeyError, IndexError, OverflowError)


class IndexDamaged(Exception):
    """A document of the ruling index is not what the index model writes, or what the index
    gave does not agree with the log."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(what)


def _whole(value: Any) -> bool:
    return type(value) is int and value >= 0


def _entry(value: Any) -> bool:
    """Whether ``value`` is a ruling's entry: ``{"v", "s", "t", "by"}``."""
    if not isinstance(value, dict) or sorted(value) != ["by", "s", "t", "v"]:
        return False
    spans, by, session = value["t"], value["by"], value["s"]
    return (
        _whole(value["v"])
        and (session is None or _whole(session))
        and isinstance(by, list)
        and all(_whole(n) for n in by)
        and isinstance(spans, list)
        and all(_span(span) for span in spans)
    )


def _span(value: Any) -> bool:
    """Whether ``value`` is ``[stream id, first version, last version]``."""
    if not (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str)):
        return False
    try:
        UUID(value[0])
    except ValueError:
        return False
    return _whole(value[1]) and _whole(value[2]) and value[1] <= value[2]


def shaped(key: str, document: Any) -> bool:
    """Whether ``document`` is shaped as the index model writes the document under ``key``: a
    page of entries (``ruling/<id>/<page>``), a list's head (``session/<id>/<n>``,
    ``stream/<id>/<stream>``: ``{"count"}``) or one of its pages (those followed by ``/<page>``)."""
    parts = key.split("/")
    if parts[0] == "ruling" and len(parts) == 3:
        return isinstance(document, dict) and all(
            number.isdigit() and _entry(entry) for number, entry in document.items()
        )
    if parts[0] in ("session", "stream") and len(parts) == 3:
        return (
            isinstance(document, dict) and list(document) == ["count"] and _whole(document["count"])
        )
    if parts[0] in ("session", "stream") and len(parts) == 4:
        return isinstance(document, list) and all(_whole(n) for n in document)
    return False


def checked(read: Read) -> Read:
    """``read`` (a document of the index by its key, None when there is none) that raises
    ``IndexDamaged`` for a document that is not JSON or not shaped as its key says."""

    def document(key: str) -> Any:
        try:
            found = read(key)
        except ValueError:
            raise IndexDamaged(f"{key} is not JSON") from None
        if found is not None and not shaped(key, found):
            raise IndexDamaged(f"{key} is not shaped as the index writes it")
        return found

    return document


def listed(read: Read, key: str) -> Iterator[int]:
    """The numbers of the list under ``key`` in order, a page at a time
    (``projections.ruling_index.listed``), held to its head: every page it counts is there and
    full but the last, and the numbers rise."""
    head = read(key)
    if head is None:
        return
    count, last = head["count"], 0
    for page in range((count + PAGE - 1) // PAGE):
        numbers = read(f"{key}/{page}")
        size = min(PAGE, count - page * PAGE)
        if numbers is None or len(numbers) != size:
            raise IndexDamaged(f"{key} counts {count} rulings; its page {page} does not hold them")
        for number in numbers:
            if number <= last:
                raise IndexDamaged(f"{key}/{page} does not list its rulings in order")
            last = number
            yield number


class Guarded:
    """A read model whose ``apply`` raises ``IndexDamaged`` for what a document edited by hand
    makes its code raise (catching the index up through a damaged document)."""

    def __init__(self, model: ReadModel) -> None:
        self._model = model
        self.name = model.name
        self.version = model.version

    def apply(self, docs: Documents, records: Sequence[Envelope]) -> None:
        try:
            self._model.apply(docs, records)
        except MISREAD as error:
            raise IndexDamaged(f"the {self.name} read model does not apply: {error!r}") from None
