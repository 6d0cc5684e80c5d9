"""The story a recap tells ("What happened"): the narration and the in-character posts of a
session, with the rulings they came with. Each ruling's part is kept in its entry of the recap
read model (``story_of``); ``projections.recap`` lists those that stand.

The entry keeps facts (``story_of``); the text is put together when the recap is read
(``told``). A part is a post (narration by the GM, a character's or an NPC's words) or a
ruling's narration (``--say``) with the line of what the ruling did. Out-of-character posts
and private ones are not the story; a hidden one is the GMs' as its ruling is (the recap leaves
out what its reader may not read).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.events import Event, PostKind, PostWritten, RulingMade, Visibility
from domain.said import said
from projections.post_text import with_rolls

Doc = dict[str, Any]


def story_of(
    made: RulingMade | None,
    actor: str,
    events: Iterable[Event],
    campaign: Doc,
    entry: Doc | None = None,
    narration: str | None = None,
) -> Doc | None:
    """A ruling's part of the story as facts, or None. ``made`` is its header (None for an
    amendment's replacement events: then ``entry``, the ruling's recap entry, says what it was,
    and ``narration`` the narration the amendment gave it, if it gave one).

    A post's part keeps its voice and who stood behind it then (the player of a character, the
    campaign's GM); its words and rolls stay in the post event, read by ``told``."""
    if made is not None and made.visibility is Visibility.PRIVATE:
        return None
    post = next(iter(_posts(events)), None)
    if post is not None:
        if post.to or post.kind is PostKind.OOC:
            return None
        part: Doc = {"voice": str(post.kind), "gm": campaign.get("gm")}
        if post.kind is PostKind.CHARACTER:
            part["player"] = campaign.get("players", {}).get(str(post.character_id), post.by)
        return part
    if made is not None:
        narration = said(made)
    elif narration is None:
        narration = _narrated(entry or {})
    if not narration:
        return None
    return {"voice": "say", "speaker": actor, "text": narration}


def _narrated(entry: Doc) -> str | None:
    """A recap entry's narration as it stands: its last amendment's, else as recorded."""
    parts = [entry.get("story"), *(a.get("story") for a in entry.get("amended", []))]
    said_parts = [p["text"] for p in parts if p and p.get("voice") == "say"]
    return said_parts[-1] if said_parts else None


def told(part: Doc, events: Iterable[Event]) -> Doc:
    """A part of the story as it reads: ``voice``, ``speaker`` and ``text`` (a post's rolls
    written out), from its facts and the events of the ruling (or amendment) it is of."""
    if part["voice"] == "say":
        return {"voice": "say", "speaker": part["speaker"], "text": part["text"]}
    post = _posts(events)[0]
    return {
        "voice": part["voice"],
        "speaker": _speaker(post, part),
        "text": with_rolls(post.text, post.rolls),
    }


def _posts(events: Iterable[Event]) -> list[PostWritten]:
    return [e for e in events if isinstance(e, PostWritten)]


def _speaker(post: PostWritten, part: Doc) -> str:
    if post.kind is PostKind.CHARACTER:
        return f"{post.speaker} ({part.get('player', post.by)})"
    if post.kind is PostKind.NPC:
        return f"{post.speaker} (NPC)"
    return f"GM {post.by}" if post.by == part.get("gm") else post.by
