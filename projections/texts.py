"""The texts of a recorded ruling that a search finds, each with its speaker: a post's text, the
narration a ruling was recorded with (``--say``), a note, the reason of an undo, an amendment or
a dispute (and of a dispute's resolution), a private message of a system's own. Read from the
ruling's header and events alone (no I/O, no replay), so an index can be built one ruling at a
time and rebuilt from the log.

Who may find a text is who may read its ruling (``domain.visibility``), and a GM-only note is the
GMs' alone: ``gm_only`` says so for each text.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen

from domain.events import (
    DisputeResolved,
    Event,
    NoteAdded,
    PostKind,
    PostWritten,
    RulingAmended,
    RulingDisputed,
    RulingMade,
    RulingRetracted,
)
from domain.plain import Plain
from domain.said import said
from projections.post_text import with_rolls
from projections.thread import as_post


@frozen(kw_only=True)
class Searchable(Plain):
    """One text of a ruling: ``kind`` (``post``, ``say``, ``note``, ``undo``, ``amend``,
    ``dispute``, ``resolve``), who says it (``speaker``: the character or NPC of a post in
    character, else the member), the member who wrote it (``member``), the character it is
    spoken as (``character``, or ``""``), and the text (a post's rolls written out in place)."""

    kind: str
    speaker: str
    member: str
    character: str = ""
    text: str
    gm_only: bool = False


def _post(post: PostWritten) -> Searchable:
    voiced = post.kind in (PostKind.CHARACTER, PostKind.NPC)
    return Searchable(
        kind="post",
        speaker=post.speaker if voiced else post.by,
        member=post.by,
        character=post.speaker if post.kind is PostKind.CHARACTER else "",
        text=with_rolls(post.text, post.rolls),
    )


def searchable_texts(
    actor: str, made: RulingMade, events: Iterable[Event]
) -> tuple[Searchable, ...]:
    """Every text of one ruling a search finds (see the module docstring): ``actor`` made the
    ruling, ``made`` is its header and ``events`` the events it recorded, in order (an
    amendment's ``RulingAmended`` carries the corrected events: a corrected post's new text is
    found under the amending ruling, kind ``post``)."""
    found: list[Searchable] = []
    narration = said(made)
    if narration:
        found.append(Searchable(kind="say", speaker=actor, member=actor, text=narration))
    seen: set[tuple[str, str]] = set()
    for event in events:
        for one in _texts(actor, event):
            key = (one.kind, one.text)
            if key not in seen:  # the same reason on every stream an undo touched reads once
                seen.add(key)
                found.append(one)
    return tuple(found)


def _texts(actor: str, event: Event) -> list[Searchable]:
    post = as_post(event)
    if post is not None:
        return [_post(post)]
    if isinstance(event, NoteAdded):
        return [
            Searchable(
                kind="note", speaker=actor, member=actor, text=event.text, gm_only=event.gm_only
            )
        ]
    if isinstance(event, RulingRetracted):
        return [Searchable(kind="undo", speaker=actor, member=actor, text=event.reason)]
    if isinstance(event, RulingAmended):
        corrected = [_post(p) for e in event.events if (p := as_post(e)) is not None]
        return [
            Searchable(kind="amend", speaker=actor, member=actor, text=event.reason),
            *corrected,
        ]
    if isinstance(event, RulingDisputed):
        return [Searchable(kind="dispute", speaker=event.by, member=event.by, text=event.reason)]
    if isinstance(event, DisputeResolved):
        return [Searchable(kind="resolve", speaker=actor, member=actor, text=event.reason)]
    return []
