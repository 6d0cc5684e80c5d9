"""The search read model: what people wrote into each ruling (posts, a ruling's narration, notes,
reasons, the why of a free roll, a private message's body: the fields each event names
``searchable``, and the header's ``--say``), kept per ruling so
the store's full-text index (SQLite FTS5, PostgreSQL text search) can find it.

Documents (keys within the model): ``ruling/<campaign id>/<number, ten digits>``, one per ruling
that wrote anything: its session (``s``), scene (``c``), who made it (``actor``), each text with
the record it came from (``texts``: ``stream``, ``v``, ``kind``, the event's type, ``who``:
the character it speaks for, when the event names one) and the texts
alone (``words``, what the full-text index reads). A ruling without text writes nothing.

The texts are what somebody typed: facts, not renderings. The reader's filter (hidden rulings,
private messages, GM-only notes) is applied when a search is read, by reading the rulings found
as the log does (``engine.reads.search``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any
from uuid import UUID

from domain.events import Event, RulingAmended, RulingMade, RulingRetracted
from domain.said import said
from projections.documents import Documents
from projections.recap_facts import Envelope

Doc = dict[str, Any]
NARRATION = "Narration"  # the kind of a ruling's own narration (``--say``)
DIGITS = 10  # a ruling's number in a key, zero-padded so that keys sort as numbers do
WORD = re.compile(r"[^\W_]+")  # a word as the full-text tokenizers read one: letters and digits


def ruling_key(campaign_id: UUID | str, number: int) -> str:
    return f"ruling/{campaign_id}/{number:0{DIGITS}d}"


def texts_of(event: Event) -> Iterator[tuple[Event, str]]:
    """What somebody wrote into ``event`` (each field its class names ``searchable``), the
    replacement events of an amendment included: each text with the event that holds it."""
    for name in type(event).searchable:
        text = getattr(event, name, "")
        if isinstance(text, str) and text.strip():
            yield event, text
    if isinstance(event, RulingAmended):
        for replaced in event.events:
            yield from texts_of(replaced)


def words(text: str) -> list[str]:
    """The words of ``text`` as a search compares them: letters and digits, case folded."""
    return WORD.findall(text.casefold())


class SearchModel:
    """The read model of what was written (see the module docstring)."""

    name = "search"
    version = 2

    def apply(self, docs: Documents, records: Sequence[Envelope]) -> None:
        header = next(r for r in records if isinstance(r.event, RulingMade))
        campaign_id = header.originator_id
        texts: list[Doc] = []
        narration = said(header.event)  # type: ignore[arg-type]
        if narration.strip():
            texts.append(
                {
                    "stream": str(campaign_id),
                    "v": header.originator_version,
                    "kind": NARRATION,
                    "text": narration,
                    "who": None,
                }
            )
        for record in records:
            event = record.event
            if isinstance(event, RulingRetracted | RulingAmended) and (
                record.originator_id != campaign_id
            ):
                continue  # a correction's reason is said once, on the campaign's stream
            for holder, text in texts_of(event):
                voice = getattr(holder, "speaker", None) or getattr(holder, "character", None)
                texts.append(
                    {
                        "stream": str(record.originator_id),
                        "v": record.originator_version,
                        "kind": type(holder).__name__,
                        "text": text,
                        "who": voice if isinstance(voice, str) else None,
                    }
                )
        if not texts:
            return
        docs.put(
            ruling_key(campaign_id, header.ruling),
            {
                "s": header.session,
                "c": header.scene,
                "actor": header.actor,
                "at": header.timestamp.isoformat(),
                "texts": texts,
                "words": [t["text"] for t in texts],
            },
        )
