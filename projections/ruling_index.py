"""The ruling index read model: where each ruling's events lie, and which rulings belong to each
session and touched each stream, so a read of one session or one character finds its rulings
without reading the whole campaign stream.

Documents (keys within the model):
- ``ruling/<campaign id>/<page>``: the rulings numbered ``page * PAGE`` up to the next page, by
  number: the version of the ruling's header on the campaign stream (``v``), its session
  (``s``), the versions it wrote to each stream (``t``: ``[stream, first, last]``) and the
  rulings that undid or amended it since (``by``);
- ``session/<campaign id>/<n>`` (``none``: the rulings made outside a session) and
  ``stream/<campaign id>/<stream id>``: how many rulings a list holds; its numbers, in order,
  ``PAGE`` to a page, under the same key followed by ``/<page>``.

One more ruling reads and writes its own page, the head and last page of its session's list and
of each stream's list it touched, and the entry of each ruling it corrects: never a whole list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any
from uuid import UUID

from domain.events import RulingAmended, RulingMade, RulingRetracted
from projections.documents import Documents
from projections.ids import id_text
from projections.recap_facts import Envelope
from projections.recap_model import header_of

Doc = dict[str, Any]
PAGE = 100  # rulings in one page of entries, numbers in one page of a list
CORRECTING = (RulingRetracted, RulingAmended)  # the records of a ruling that correct another


def entries_key(campaign_id: UUID | str, number: int) -> str:
    return f"ruling/{campaign_id}/{number // PAGE}"


def session_key(campaign_id: UUID | str, session: int | None) -> str:
    return f"session/{campaign_id}/{'none' if session is None else session}"


def stream_key(campaign_id: UUID | str, stream: UUID | str) -> str:
    return f"stream/{campaign_id}/{stream}"


def append(docs: Documents, key: str, number: int) -> None:
    """Add ``number`` at the end of the list under ``key`` (its head and last page only)."""
    head = docs.get(key)
    count = head["count"] if head else 0
    page_key = f"{key}/{count // PAGE}"
    page = docs.get(page_key)
    if page:
        page.append(number)  # a page read is this batch's own: never the one stored
    else:
        page = [number]
    docs.put(page_key, page)
    docs.put(key, {"count": count + 1})


def listed(read: Callable[[str], Any], key: str) -> Iterator[int]:
    """The numbers of the list under ``key``, in order, a page at a time."""
    head = read(key)
    if head is None:
        return
    for page in range((head["count"] + PAGE - 1) // PAGE):
        yield from read(f"{key}/{page}") or []


def last_listed(read: Callable[[str], Any], key: str) -> int | None:
    """The last number of the list under ``key`` (None: the list is empty), its last page only."""
    head = read(key)
    if head is None or not head["count"]:
        return None
    page: list[int] = read(f"{key}/{(head['count'] - 1) // PAGE}") or []
    return page[-1] if page else None


def entry_of(read: Callable[[str], Any], campaign_id: UUID | str, number: int) -> Doc | None:
    page = read(entries_key(campaign_id, number))
    return None if page is None else page.get(str(number))


class IndexModel:
    """The ruling index of every campaign in the store (any rule system)."""

    name = "index"
    version = 1

    def apply(self, docs: Documents, records: Sequence[Envelope]) -> None:
        header = header_of(records)
        made = header.event
        assert isinstance(made, RulingMade)
        number = made.number
        cid = id_text(header.originator_id)
        spans: list[Any] = [[id_text(s.stream), s.first, s.last] for s in made.touched]
        key = f"ruling/{cid}/{number // PAGE}"  # entries_key
        page = docs.get(key) or {}
        page[str(number)] = {
            "v": header.originator_version,
            "s": header.session,
            "t": spans,
            "by": [],
        }
        docs.put(key, page)
        append(docs, session_key(cid, header.session), number)
        streams = [span[0] for span in spans]
        for stream in streams if len(streams) < 2 else dict.fromkeys(streams):
            if stream == cid:
                continue
            append(docs, f"stream/{cid}/{stream}", number)  # stream_key
        for record in records:
            event = record.event
            if isinstance(event, CORRECTING) and id_text(record.originator_id) == cid:
                self._corrected(docs, cid, event.ruling, number)

    def _corrected(self, docs: Documents, cid: str, ruling: int, by: int) -> None:
        key = entries_key(cid, ruling)
        page = docs.get(key)
        entry = None if page is None else page.get(str(ruling))
        if entry is None or by in entry["by"]:
            return
        entry["by"].append(by)
        docs.put(key, page)
