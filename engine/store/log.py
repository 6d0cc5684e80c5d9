"""The log of rulings as it is read back: each ruling's header, the events it wrote in order, its
undo and its amendments (the last one in force)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING
from uuid import UUID

import attrs
from attrs import frozen

from domain.events import AMEND, RulingAmended, RulingMade, RulingRetracted, StreamRange
from domain.plain import Plain
from domain.said import amended_say, said
from engine.store.campaign_store import StoredLogDamaged
from engine.store.records import DIRECTORY_ID, Recorded

if TYPE_CHECKING:
    from engine.store.streams import Streams


@frozen
class Retraction(Plain):
    by: int
    actor: str
    reason: str


@frozen
class Amendment(Plain):
    """A ruling re-resolved: by which ruling, who, why, and the events that now stand for it
    (each in its stream's envelope); ``kind``: ``amended``, or ``re-decided`` when the
    correction of an earlier ruling decided it again; ``say``: the narration it gave the ruling
    (``amend --set say=...``), None when it left it as it was; ``new_dice``: how many dice the
    ruling never rolled it drew (each such amendment re-draws the ruling's dice)."""

    by: int
    actor: str
    reason: str
    events: tuple[Recorded, ...]
    kind: str = "amended"
    say: str | None = None
    new_dice: int = 0


@frozen
class LoggedRuling(Plain):
    """One ruling as the log shows it: header, events in order, whether it was undone, and its
    amendments (the last one is in force)."""

    header: Recorded
    events: tuple[Recorded, ...]
    retraction: Retraction | None
    amendments: tuple[Amendment, ...] = ()

    @property
    def ruling(self) -> RulingMade:
        event = self.header.event
        assert isinstance(event, RulingMade)
        return event

    @property
    def standing(self) -> tuple[Recorded, ...]:
        """The events in force for this ruling: its last amendment's, or those it recorded."""
        return self.amendments[-1].events if self.amendments else self.events

    @property
    def say(self) -> str:
        """The ruling's narration as it stands: the one its last amendment of it gave, else the
        one it was recorded with (``domain.said``)."""
        return next(
            (a.say for a in reversed(self.amendments) if a.say is not None), said(self.ruling)
        )

    @property
    def status(self) -> str:
        """``undone``, ``amended`` or ``re-decided`` (its latest correction), or ``""``."""
        if self.retraction is not None:
            return "undone"
        return self.amendments[-1].kind if self.amendments else ""

    def corrected_after(self, ruling: int) -> list[str]:
        """The corrections of this ruling made after ruling ``ruling``, as the log says them
        (``#9 re-decided by #12``)."""
        found = [(a.by, a.kind) for a in self.amendments if a.by > ruling]
        if self.retraction is not None and self.retraction.by > ruling:
            found.append((self.retraction.by, "undone"))
        return [f"#{self.ruling.number} {kind} by #{by}" for by, kind in sorted(found)]


def headers(records: Iterable[Recorded]) -> list[Recorded]:
    return [r for r in records if isinstance(r.event, RulingMade)]


def rulings_made(records: Iterable[Recorded]) -> list[RulingMade]:
    return [r.event for r in records if isinstance(r.event, RulingMade)]


def retractions(records: Iterable[Recorded]) -> dict[int, Retraction]:
    found: dict[int, Retraction] = {}
    for r in records:
        if isinstance(r.event, RulingRetracted):
            found[r.event.ruling] = Retraction(by=r.ruling, actor=r.actor, reason=r.event.reason)
    return found


def read_log(
    streams: Streams,
    campaign_id: UUID,
    *,
    session: int | None = None,
    rulings: Collection[int] | None = None,
) -> list[LoggedRuling]:
    """Every ruling (only session ``session``'s, only the ``rulings`` numbered, when given) with
    its events, undo and amendments. Each stream is read once, over the versions the rulings
    shown (and those amending them) wrote."""
    records = streams.records(campaign_id)
    undone = retractions(records)
    every = headers(records)
    shown = [
        h
        for h in every
        if (session is None or h.session == session) and (rulings is None or h.ruling in rulings)
    ]
    numbers = {h.ruling for h in shown}
    amenders = {
        r.ruling: r.event.ruling
        for r in records
        if isinstance(r.event, RulingAmended) and r.event.ruling in numbers
    }
    later = [h for h in every if h.ruling in amenders and h.ruling not in numbers]
    read = {campaign_id: records}
    events = {**_events_of(shown, streams, read), **_events_of(later, streams, read)}
    _check_numbered(shown + later, events)
    amendments: dict[int, list[Amendment]] = {}
    for header in sorted(shown + later, key=lambda h: h.ruling):  # in the order made
        if header.ruling in amenders:
            for amended, entry in _amendments_by(header, events[header.ruling], campaign_id):
                amendments.setdefault(amended, []).append(entry)
    return [
        LoggedRuling(
            header,
            events[header.ruling],
            undone.get(header.ruling),
            tuple(amendments.get(header.ruling, ())),
        )
        for header in shown
    ]


def _check_numbered(headers: list[Recorded], events: Mapping[int, object]) -> None:
    """Refuse a log in which a header's RulingMade says another number than its row."""
    for header in headers:
        if header.ruling not in events:
            number = getattr(header.event, "number", None)
            problem = f"the header of ruling {header.ruling} is numbered {number}"
            raise StoredLogDamaged(problem=problem)


def _amendments_by(
    header: Recorded, mine: tuple[Recorded, ...], campaign_id: UUID
) -> Iterator[tuple[int, Amendment]]:
    """The amendments ruling ``header`` made (its events ``mine``), each with the number of
    the ruling it amends."""
    for record in mine:
        if isinstance(record.event, RulingAmended) and record.originator_id == campaign_id:
            amended = record.event
            now = tuple(
                attrs.evolve(r, event=e)
                for r in mine
                if isinstance(r.event, RulingAmended) and r.event.ruling == amended.ruling
                for e in r.event.events
            )
            made = header.event
            entry = Amendment(
                by=header.ruling,
                actor=header.actor,
                reason=amended.reason,
                events=now,
                kind=amended.kind,
                say=amended_say(made, amended) if isinstance(made, RulingMade) else None,
                new_dice=_new_dice(made, amended.ruling),
            )
            yield amended.ruling, entry


def _new_dice(made: object, ruling: int) -> int:
    """How many dice the amendment ``made`` of ``ruling`` drew anew (0 for a ruling it
    re-decided, which draws none)."""
    if not isinstance(made, RulingMade) or made.command != AMEND:
        return 0
    params = json.loads(made.params)
    return int(params.get("new_dice", 0)) if params.get("ruling") == ruling else 0


def _events_of(
    shown: list[Recorded], streams: Streams, read: Mapping[UUID, list[Recorded]]
) -> dict[int, tuple[Recorded, ...]]:
    """The events of each ruling (by its header) in the order it wrote them, reading each
    stream once (from the first version these rulings wrote there to the last) unless it was
    ``read`` whole already."""
    made = [h.event for h in shown if isinstance(h.event, RulingMade)]
    spans: dict[UUID, list[StreamRange]] = {}
    for m in made:
        for span in m.touched:
            if span.stream != DIRECTORY_ID:  # the store's directory, shared by its campaigns
                spans.setdefault(span.stream, []).append(span)
    stored: dict[UUID, dict[int, Recorded]] = {}
    for stream, ranges in spans.items():
        if stream in read:
            found = read[stream]
        else:
            low, high = min(r.first for r in ranges), max(r.last for r in ranges)
            found = streams.records(stream, gt=low - 1, lte=high)
        stored[stream] = {r.originator_version: r for r in found}
    return {
        m.number: tuple(
            _claimed(stored, m.number, span.stream, version)
            for span in m.touched
            if span.stream != DIRECTORY_ID
            for version in range(span.first, span.last + 1)
        )
        for m in made
    }


def _claimed(
    stored: Mapping[UUID, Mapping[int, Recorded]], ruling: int, stream: UUID, version: int
) -> Recorded:
    """The row a ruling's header claims; one the store does not hold is a damaged log."""
    found = stored[stream].get(version)
    if found is None:
        problem = f"ruling {ruling} claims version {version} of stream {stream}, not stored"
        raise StoredLogDamaged(problem=problem)
    return found
