"""What a recap takes from each event: whether the public may see it, whether it is a highlight,
and which score it moved (before and after), all read from the event alone (DIGEST §5.1)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import singledispatch
from typing import Protocol
from uuid import UUID

from domain.events import (
    CampaignRegistered,
    DiceCommitted,
    DiceRevealed,
    Event,
    NoteAdded,
    RulingAmended,
    RulingMade,
    RulingRetracted,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionSealed,
    SessionStarted,
)
from projections.presentation import Moved, presentation_of_event


class Envelope(Protocol):
    """A recorded event as projections read it (the engine's ``Recorded`` fits)."""

    @property
    def originator_id(self) -> UUID: ...

    @property
    def originator_version(self) -> int: ...

    @property
    def timestamp(self) -> datetime: ...

    @property
    def ruling(self) -> int: ...

    @property
    def actor(self) -> str: ...

    @property
    def session(self) -> int | None: ...

    @property
    def scene(self) -> int | None: ...

    @property
    def event(self) -> Event: ...


# Events a recap reads as structure (sessions, scenes, corrections) or not at all (the dice
# commitments and seals are for `campaign verify`, not for readers of a recap).
STRUCTURE: tuple[type[Event], ...] = (
    CampaignRegistered,
    RulingMade,
    RulingRetracted,
    RulingAmended,
    SessionStarted,
    SessionEnded,
    SceneStarted,
    SceneEnded,
    DiceCommitted,
    DiceRevealed,
    SessionSealed,
)


@singledispatch
def gm_only(event: Event) -> bool:
    """Whether only the GM may read an event (never in a public recap or timeline)."""
    return False


@gm_only.register
def _note(event: NoteAdded) -> bool:
    return event.gm_only


def highlight(event: Event) -> str | None:
    """The kind of highlight an event is (``level up``, ``detail revealed``), or None: its
    system's presentation says (``projections.presentation``)."""
    shown = presentation_of_event(event)
    return None if shown is None else shown.highlights.get(type(event))


def moved(event: Event) -> tuple[Moved, ...]:
    """The scores an event moved: (score, before, after), for end-of-session deltas; its
    system's presentation says."""
    shown = presentation_of_event(event)
    return () if shown is None else shown.moved(event)


def amendments_by_ruling(records: Iterable[Envelope]) -> list[list[Envelope]]:
    """A correction's ``RulingAmended`` records, grouped by the ruling each one amends (an undo
    or an amendment that re-decides later rulings amends several), in the order recorded."""
    groups: dict[int, list[Envelope]] = {}
    for record in records:
        if isinstance(record.event, RulingAmended):
            groups.setdefault(record.event.ruling, []).append(record)
    return list(groups.values())
