"""The log of rulings, and undo: retract a ruling (and, when asked, the later ones depending on it).

A later ruling depends on an earlier one when, decided again on the history without it, it does
not stand (``engine.redecide``).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any
from uuid import UUID

import attrs
from attrs import frozen

from domain.campaign import CampaignState, evolve_campaign
from domain.commands import Change
from domain.errors import (
    CannotUndo,
    DisputeOfAnotherRuling,
    EmptyText,
    LaterRulingsDepend,
    NothingToUndo,
    RedecideOrWithDependents,
    RulingAlreadyRetracted,
    UnknownRuling,
)
from domain.events import (
    AMEND,
    CORRECTIONS,
    UNDO,
    Event,
    Outcome,
    RulingAmended,
    RulingMade,
    RulingRetracted,
    StreamRange,
)
from domain.plain import Plain
from domain.policy import check_gm
from domain.rulesets import ruleset_named
from domain.table import resolution
from engine.mapper import canonical_json
from engine.records import DIRECTORY_ID, Recorded
from engine.tail import Tail, reach, read_back

if TYPE_CHECKING:
    from engine.assembly import RulingResult
    from engine.ledger import Ledger
    from engine.redecide import Decision
    from engine.streams import Streams

NOT_UNDOABLE = {
    "init": "it created the campaign",
    UNDO: "undoing an undo is not supported",
    AMEND: "undo or amend the ruling it amended instead",
    "session end": (
        "it revealed the session's dice seed and sealed the session; correct the session's "
        "rulings instead"
    ),
    "entropy": "the players' entropy is part of the session's committed dice",
}
SEALING = "session end"  # a later ruling that may not change under a correction either


@frozen
class Retraction(Plain):
    by: int
    actor: str
    reason: str


@frozen
class Amendment(Plain):
    """A ruling re-resolved: by which ruling, who, why, and the events that now stand for it
    (each in its stream's envelope); ``kind``: ``amended``, or ``re-decided`` when the
    correction of an earlier ruling decided it again."""

    by: int
    actor: str
    reason: str
    events: tuple[Recorded, ...]
    kind: str = "amended"


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
    amendments: dict[int, list[Amendment]] = {}
    for header in shown + later:  # in the order the amendments were made
        if header.ruling not in amenders:
            continue
        mine = events[header.ruling]
        for record in mine:
            if isinstance(record.event, RulingAmended) and record.originator_id == campaign_id:
                amended = record.event
                now = tuple(
                    attrs.evolve(r, event=e)
                    for r in mine
                    if isinstance(r.event, RulingAmended) and r.event.ruling == amended.ruling
                    for e in r.event.events
                )
                entry = Amendment(
                    by=header.ruling,
                    actor=header.actor,
                    reason=amended.reason,
                    events=now,
                    kind=amended.kind,
                )
                amendments.setdefault(amended.ruling, []).append(entry)
    return [
        LoggedRuling(
            header,
            events[header.ruling],
            undone.get(header.ruling),
            tuple(amendments.get(header.ruling, ())),
        )
        for header in shown
    ]


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
            stored[span.stream][version]
            for span in m.touched
            if span.stream != DIRECTORY_ID
            for version in range(span.first, span.last + 1)
        )
        for m in made
    }


def streams_of(made: Iterable[RulingMade]) -> dict[int, set[UUID]]:
    """Every stream a ruling wrote to, counting the streams its amendments wrote to."""
    streams: dict[int, set[UUID]] = {}
    for m in made:
        streams.setdefault(m.number, set()).update(span.stream for span in m.touched)
        if m.command in CORRECTIONS:
            params = json.loads(m.params)
            if m.command == AMEND:
                corrected = streams.setdefault(params["ruling"], set())
                corrected.update(span.stream for span in m.touched)
            for redecided in params.get("redecided", ()):
                again = streams.setdefault(redecided["ruling"], set())
                again.update(UUID(s) for s in redecided["streams"])
    return streams


def own_versions(made: RulingMade, stream: UUID) -> tuple[int, ...]:
    """The versions a ruling itself wrote to a stream (not counting its amendments)."""
    return tuple(
        v
        for span in made.touched
        if span.stream == stream
        for v in range(span.first, span.last + 1)
    )


def undo(
    ledger: Ledger,
    campaign_id: UUID,
    ruling: int | None,
    *,
    reason: str,
    actor: str | None,
    with_dependents: bool = False,
    redecide: bool = False,
    dispute: int | None = None,
) -> RulingResult:
    """Retract ``ruling`` (default: the latest one still in force) on every stream it touched.
    The later rulings are decided again without it (see ``engine.redecide``): those that do not
    stand are refused, undone with it (``with_dependents``) or amended (``redecide``)."""
    from engine.redecide import Redecider

    why = reason.strip()
    if not why:
        raise EmptyText(what="the reason for undoing")
    if with_dependents and redecide:
        raise RedecideOrWithDependents()

    def attempt() -> RulingResult | None:
        nonlocal ruling  # a retry after a concurrent write undoes the same ruling
        loaded = ledger.streams.load(campaign_id, evolve_campaign)
        campaign: CampaignState = loaded.state
        who = actor or campaign.gm
        check_gm(campaign, who, UNDO)
        records = _read_to_target(ledger.streams, campaign, ruling)
        target = _target(rulings_made(records), campaign, ruling, records)
        ruling = target.number
        tail = Tail(ledger.streams, campaign_id, target.number, records)
        walker = Redecider(ledger, campaign, tail, ruleset_named(campaign.system))
        plan = walker.walk(tail.made, target, redecide=redecide)
        if plan.dropped and not (with_dependents or redecide):
            listed = ", ".join(str(n) for n in sorted(plan.dropped))
            raise LaterRulingsDepend(ruling=target.number, dependents=listed)
        changes = retractions_of(tail.made, {target.number} | plan.dropped, campaign_id, why)
        changes += amendments_of(tail.made, plan.changed, campaign_id, why)
        changes += resolving(campaign, dispute, target.number, Outcome.UNDONE, why)
        params = {
            "ruling": target.number,
            "with": sorted(plan.dropped),
            "reason": why,
            **redecided_params(plan.changed, campaign_id),
            **({"dispute": dispute} if dispute is not None else {}),
        }
        return ledger.record(
            loaded,
            changes,
            command=UNDO,
            params=canonical_json(params).decode(),
            actor=who,
        )

    return ledger.retried(attempt)


def retractions_of(
    made: list[RulingMade], numbers: set[int], campaign_id: UUID, why: str
) -> list[Change]:
    """Retract each ruling (newest first) on every stream it or its amendments wrote to; the
    campaign stream always hears of it."""
    by_number = {m.number: m for m in made}
    streams = streams_of(made)
    changes: list[Change] = []
    for number in sorted(numbers, reverse=True):
        for stream in sorted(streams.get(number, set()) - {campaign_id}, key=str):
            versions = own_versions(by_number[number], stream)
            changes.append(
                Change(stream, RulingRetracted(ruling=number, reason=why, versions=versions))
            )
        versions = own_versions(by_number[number], campaign_id)
        changes.append(
            Change(campaign_id, RulingRetracted(ruling=number, reason=why, versions=versions))
        )
    return changes


def amendments_of(
    made: list[RulingMade], decisions: Iterable[Decision], campaign_id: UUID, why: str
) -> list[Change]:
    """Amend each re-decided ruling with its new decision, on every stream it, its amendments
    or its new decision wrote to; the campaign stream always hears of it."""
    by_number = {m.number: m for m in made}
    streams = streams_of(made)
    return [
        change
        for d in decisions
        for change in amended(
            by_number[d.ruling],
            streams.get(d.ruling, set()),
            d.events,
            campaign_id,
            why,
            redecided=True,
        )
    ]


def amended(
    target: RulingMade,
    streams: Collection[UUID],
    replacement: Mapping[UUID, tuple[Event, ...]],
    campaign_id: UUID,
    why: str,
    *,
    redecided: bool = False,
) -> list[Change]:
    """``RulingAmended`` of ``target`` on each of ``streams``, the ``replacement``'s and the
    campaign's, carrying the events that now stand for it there (campaign stream first)."""
    every = set(streams) | set(replacement) | {campaign_id}
    return [
        Change(
            stream,
            RulingAmended(
                ruling=target.number,
                reason=why,
                versions=own_versions(target, stream),
                events=replacement.get(stream, ()),
                redecided=redecided,
            ),
        )
        for stream in sorted(every, key=lambda s: (s != campaign_id, str(s)))
    ]


def redecided_params(decisions: Iterable[Decision], campaign_id: UUID) -> dict[str, Any]:
    """What a correction's header says of the rulings it re-decided: each one, the streams its
    new decision wrote to (so that undoing it later retracts them all) and its dice."""
    listed = [
        {
            "ruling": d.ruling,
            "streams": sorted(str(s) for s in {*d.events, campaign_id}),
            "dice": [[die.sides, die.face] for die in d.dice],
        }
        for d in decisions
    ]
    return {"redecided": listed} if listed else {}


def resolving(
    campaign: CampaignState, dispute: int | None, ruling: int, outcome: Outcome, reason: str
) -> list[Change]:
    """The resolution a correction of ``ruling`` records when it settles ``dispute``."""
    if dispute is None:
        return []
    resolved = resolution(campaign, dispute, outcome, reason)
    if resolved.ruling != ruling:
        raise DisputeOfAnotherRuling(dispute=dispute, ruling=resolved.ruling, corrected=ruling)
    return [Change(campaign.id, resolved)]


def _read_to_target(
    streams: Streams, campaign: CampaignState, ruling: int | None
) -> list[Recorded]:
    """The campaign stream's records from the ruling to undo on (``ruling``, or the latest one
    still in force), read backwards."""

    def far_enough(records: list[Recorded]) -> bool:
        if ruling is not None:
            return reach(records, ruling)
        latest = _latest_in_force(rulings_made(records), campaign)
        return latest is not None and reach(records, latest.number)

    return read_back(streams, campaign.id, far_enough)


def _latest_in_force(rulings: list[RulingMade], campaign: CampaignState) -> RulingMade | None:
    return next(
        (
            m
            for m in reversed(rulings)
            if m.number not in campaign.retracted and m.command not in NOT_UNDOABLE
        ),
        None,
    )


def _target(
    rulings: list[RulingMade], campaign: CampaignState, ruling: int | None, records: list[Recorded]
) -> RulingMade:
    if ruling is None:
        latest = _latest_in_force(rulings, campaign)
        if latest is None:
            raise NothingToUndo()
        return latest
    found = next((m for m in rulings if m.number == ruling), None)
    if found is None:
        raise UnknownRuling(ruling=ruling)
    if found.command in NOT_UNDOABLE:
        raise CannotUndo(ruling=ruling, command=found.command, why=NOT_UNDOABLE[found.command])
    if ruling in campaign.retracted:
        raise RulingAlreadyRetracted(ruling=ruling, by=retractions(records)[ruling].by)
    return found
