"""A session as the table lived it: its posts and rulings interleaved in the order recorded, each
post under its speaker (the character and the player, an NPC, the GM narrating, a member out of
character), each ruling with its narration (``--say``) and what it did; struck (undone) and
edited (amended) posts and narrations marked, the text they had kept. Built once, as plain
frozen data, from the log as its reader may read it (the engine leaves out what they may not: a
private post of others, a hidden one); rendered per format by ``projections.render_thread``.

A private message of a system's own (the Sims' Behind the Scenes, before it became a post) reads
as a private post: its system's projections register it with ``as_post``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from functools import singledispatch
from typing import Any, Protocol
from uuid import UUID

import attrs
from attrs import frozen

from domain.campaign import CampaignState
from domain.events import (
    CORRECTIONS,
    DiceCommitted,
    DiceRevealed,
    Event,
    HiddenDiceRevealed,
    PostKind,
    PostWritten,
    RulingMade,
    SessionSealed,
    Visibility,
)
from domain.plain import Plain
from domain.said import said
from projections.describe import describe, said_of_all
from projections.recap_facts import Envelope

FORMAT = "campaign-log/thread"
VERSION = 1


# --- What the thread reads: the engine's logged rulings fit ------------------------------------


class Correction(Protocol):
    @property
    def by(self) -> int: ...

    @property
    def actor(self) -> str: ...

    @property
    def reason(self) -> str: ...


class Amended(Correction, Protocol):
    @property
    def events(self) -> Sequence[Envelope]: ...

    @property
    def kind(self) -> str: ...

    @property
    def say(self) -> str | None: ...


class Logged(Protocol):
    """A ruling as the log reads it back (``engine.LoggedRuling``)."""

    @property
    def header(self) -> Envelope: ...

    @property
    def events(self) -> Sequence[Envelope]: ...

    @property
    def retraction(self) -> Correction | None: ...

    @property
    def amendments(self) -> Sequence[Amended]: ...


# --- The thread ---------------------------------------------------------------------------------


@frozen(kw_only=True)
class Struck(Plain):
    """A post or ruling undone: by which ruling, who, why."""

    by: int
    actor: str
    reason: str


@frozen(kw_only=True)
class Edit(Plain):
    """A post's text or a ruling's narration amended: by which ruling, who, why, and the text
    it had before."""

    by: int
    actor: str
    reason: str
    was: str


@frozen(kw_only=True)
class Post(Plain):
    """What somebody wrote: ``voice`` (narration, character, npc, ooc), ``speaker`` (the
    character's or NPC's name; empty for narration and out of character), ``author`` (the
    member who wrote it), ``player`` (who plays the character: the author, or the character's
    player when the GM wrote for them), ``to`` (the members it was written to privately)."""

    voice: PostKind
    speaker: str
    author: str
    player: str
    to: tuple[str, ...]
    text: str
    rolls: tuple[Any, ...]  # domain.events.InlineRoll, where they stand in ``text``


@frozen(kw_only=True)
class Entry(Plain):
    """One ruling of the thread: a post (``post``), or a ruling with its narration (``say``)
    and its lines (``lines``: ``who: what`` as the log reads them)."""

    ruling: int
    command: str
    actor: str
    at: str
    session: int | None
    scene: int | None
    hidden: bool
    private: tuple[str, ...]  # the audience of a private ruling besides the GMs
    post: Post | None
    say: str
    lines: tuple[str, ...]
    struck: Struck | None
    edits: tuple[Edit, ...]

    @property
    def edited(self) -> bool:
        return bool(self.edits)


@frozen(kw_only=True)
class Thread(Plain):
    """A session's thread (``session`` None: the whole campaign's)."""

    campaign: str
    system: str
    gm: str
    session: int | None
    entries: tuple[Entry, ...]


# --- Posts a system recorded before posts were shared --------------------------------------------


@singledispatch
def as_post(event: Event) -> PostWritten | None:
    """The post an event is (a system's own private message), or None. A system's events are
    registered by its projections module, imported on its first event."""
    parts = type(event).__module__.split(".")
    if parts[:2] == ["domain", "rulesets"] and parts[2] not in _loaded:
        _loaded.add(parts[2])
        importlib.import_module(f"projections.{parts[2]}")
        return as_post(event)
    return None


_loaded: set[str] = set()


@as_post.register(PostWritten)
def _posted(event: PostWritten) -> PostWritten:
    return event


# --- Building it ----------------------------------------------------------------------------------


def _post_in(events: Iterable[Envelope]) -> PostWritten | None:
    return next((p for r in events if (p := as_post(r.event)) is not None), None)


def _post(event: PostWritten, campaign: CampaignState) -> Post:
    player = event.by
    if event.character_id is not None:
        entry = next((e for e in campaign.roster if e.character_id == event.character_id), None)
        player = entry.player if entry is not None else event.by
    return Post(
        voice=event.kind,
        speaker=event.speaker,
        author=event.by,
        player=player,
        to=event.to,
        text=event.text,
        rolls=event.rolls,
    )


# What the thread does not retell: the dice commitments and seals are for `campaign verify`
# (and `campaign log`), not for the story.
UNTOLD = (DiceCommitted, DiceRevealed, HiddenDiceRevealed, SessionSealed)


def _lines(events: Iterable[Envelope], names: dict[UUID, str]) -> tuple[str, ...]:
    found: list[str] = []
    for record in events:
        if isinstance(record.event, UNTOLD):
            continue
        text = describe(record.event)
        if text is None or as_post(record.event) is not None:
            continue
        who = None if said_of_all(record.event) else names.get(record.originator_id)
        line = f"{who}: {text}" if who else text
        if line not in found:  # a line several characters share reads once
            found.append(line)
    return tuple(found)


def entry_of(logged: Logged, campaign: CampaignState) -> Entry | None:
    """One ruling of the thread, or None: a correction (it shows on what it corrected) or a
    ruling that says nothing (no narration, no line)."""
    header = logged.header
    made = header.event
    assert isinstance(made, RulingMade)
    if made.command in CORRECTIONS:
        return None
    names = {e.character_id: e.name for e in campaign.roster}
    standing = logged.amendments[-1].events if logged.amendments else logged.events
    first = _post_in(logged.events)
    now = _post_in(standing) or first
    edits = []
    was = first.text if first is not None else ""
    say = said(made)
    for amendment in logged.amendments:
        changed = _post_in(amendment.events)
        edit = Edit(by=amendment.by, actor=amendment.actor, reason=amendment.reason, was=was)
        if changed is not None and changed.text != was:
            edits.append(edit)
            was = changed.text
        if amendment.say is not None and amendment.say != say:  # the narration corrected
            edits.append(attrs.evolve(edit, was=say))
            say = amendment.say
    retraction = logged.retraction
    entry = Entry(
        ruling=made.number,
        command=made.command,
        actor=header.actor,
        at=header.timestamp.isoformat(),
        session=header.session,
        scene=header.scene,
        hidden=made.visibility is Visibility.GM and made.number not in campaign.revealed,
        private=made.audience if made.visibility is Visibility.PRIVATE else (),
        post=_post(now, campaign) if now is not None else None,
        say=say,
        lines=_lines(standing, names),
        struck=(
            Struck(by=retraction.by, actor=retraction.actor, reason=retraction.reason)
            if retraction is not None
            else None
        ),
        edits=tuple(edits),
    )
    if entry.post is None and not entry.say and not entry.lines:
        return None
    return entry


def build_thread(
    campaign: CampaignState, logged: Iterable[Logged], session: int | None = None
) -> Thread:
    """The thread of ``logged`` (a session's rulings, as their reader may read them)."""
    entries = tuple(e for one in logged if (e := entry_of(one, campaign)) is not None)
    return Thread(
        campaign=campaign.name,
        system=campaign.system,
        gm=campaign.gm,
        session=session,
        entries=entries,
    )


def story(thread: Thread) -> tuple[Entry, ...]:
    """What happened: the narration (a GM's post, a ruling's ``--say``) and the in-character
    posts that stand, with the rulings they came with; private, hidden and out-of-character
    posts are not the story."""
    return tuple(
        entry
        for entry in thread.entries
        if entry.struck is None
        and not entry.hidden
        and not entry.private
        and (
            (entry.post is not None and entry.post.voice is not PostKind.OOC)
            or (entry.post is None and bool(entry.say))
        )
    )
