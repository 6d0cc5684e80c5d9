"""The changes a correction (an undo or an amendment) records: each ruling it retracts or amends,
on every stream that ruling and its amendments wrote to; what its header says of the rulings it
decided again; and the resolution of the dispute it settles."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.campaign import CampaignState
from domain.commands import Change
from domain.errors import DisputeOfAnotherRuling
from domain.events import (
    AMEND,
    CORRECTIONS,
    Event,
    Outcome,
    RulingAmended,
    RulingMade,
    RulingRetracted,
)
from domain.table import resolution

if TYPE_CHECKING:
    from engine.corrections.redecide import Decision


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
