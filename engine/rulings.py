"""The log of rulings, and undo: retract a ruling (and, when asked, the later ones depending on it).

A later ruling depends on an earlier one when its events no longer fit once the earlier ruling's
events are skipped: replaying every stream the rulings touched, without them, finds the misfits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING
from uuid import UUID

from attrs import frozen

from domain.campaign import CampaignState, evolve_campaign
from domain.commands import Change
from domain.errors import (
    CannotUndo,
    ConcurrentWrites,
    EmptyText,
    HistoryConflict,
    LaterRulingsDepend,
    NothingToUndo,
    RulingAlreadyRetracted,
    UnknownRuling,
)
from domain.events import Event, RulingMade, RulingRetracted
from engine.mapper import canonical_json
from engine.records import Recorded
from engine.streams import Evolve, fold, voided_versions

if TYPE_CHECKING:
    from engine.service import Engine, RulingResult

NOT_UNDOABLE = {"init": "it created the campaign", "undo": "undoing an undo is not supported"}


@frozen
class Retraction:
    by: int
    actor: str
    reason: str


@frozen
class LoggedRuling:
    """One ruling as the log shows it: header, events in order, and whether it was undone."""

    header: Recorded
    events: tuple[Recorded, ...]
    retraction: Retraction | None

    @property
    def ruling(self) -> RulingMade:
        event = self.header.event
        assert isinstance(event, RulingMade)
        return event


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


def read_log(engine: Engine, campaign_name: str) -> list[LoggedRuling]:
    campaign_id = engine.find_campaign(campaign_name).campaign_id
    records = engine.streams.records(campaign_id)
    undone = retractions(records)
    logged = []
    for header in headers(records):
        made = header.event
        assert isinstance(made, RulingMade)
        events = [
            record
            for span in made.touched
            for record in engine.streams.records(span.stream, gt=span.first - 1, lte=span.last)
        ]
        logged.append(LoggedRuling(header, tuple(events), undone.get(made.number)))
    return logged


def dependents(engine: Engine, campaign: CampaignState, target: RulingMade) -> set[int]:
    """Rulings after ``target`` whose events stop fitting once it is skipped (transitively)."""
    campaign_records = engine.streams.records(campaign.id)
    made = {m.number: m for m in rulings_made(campaign_records)}
    excluded = {target.number}
    checked: set[tuple[UUID, frozenset[int]]] = set()
    while True:
        streams = {campaign.id} | {
            span.stream for number in excluded for span in made[number].touched
        }
        found: set[int] = set()
        for stream in streams:
            key = (stream, frozenset(excluded))
            if key in checked:
                continue
            checked.add(key)
            records = campaign_records if stream == campaign.id else engine.streams.records(stream)
            found |= _misfits(records, engine.evolver(campaign, stream), excluded)
        if not found - excluded:
            return excluded - {target.number}
        excluded |= found


def _misfits(records: list[Recorded], evolve: Evolve, excluded: set[int]) -> set[int]:
    """Fold without the excluded rulings; every ruling whose events no longer fit is returned."""

    def versions_of(rulings: set[int]) -> set[int]:
        return {
            r.originator_version
            for r in records
            if r.ruling in rulings and not isinstance(r.event, RulingMade)
        }

    skip = voided_versions(records) | versions_of(excluded)
    misfits: set[int] = set()
    while True:
        try:
            fold(records, evolve, None, skip)
            return misfits
        except HistoryConflict as conflict:
            record: Recorded = conflict.event  # type: ignore[assignment]
            misfits.add(record.ruling)
            skip |= versions_of({record.ruling})


def undo(
    engine: Engine,
    campaign_name: str,
    ruling: int | None,
    *,
    reason: str,
    actor: str | None,
    with_dependents: bool = False,
) -> RulingResult:
    """Retract ``ruling`` (default: the latest one still in force) on every stream it touched."""
    if not reason.strip():
        raise EmptyText(what="the reason for undoing")
    campaign_id = engine.find_campaign(campaign_name).campaign_id
    for _ in range(12):
        loaded = engine.streams.load(campaign_id, evolve_campaign)
        campaign: CampaignState = loaded.state
        records = engine.streams.records(campaign_id)
        made = [h.event for h in headers(records)]
        target = _target(made, campaign, ruling, records)
        later = dependents(engine, campaign, target)
        if later and not with_dependents:
            listed = ", ".join(str(n) for n in sorted(later))
            raise LaterRulingsDepend(ruling=target.number, dependents=listed)
        by_number = {m.number: m for m in made if isinstance(m, RulingMade)}
        changes: list[Change] = []
        for number in sorted({target.number} | later, reverse=True):
            spans = by_number[number].touched
            on_campaign: tuple[int, ...] = ()
            for span in spans:
                versions = tuple(range(span.first, span.last + 1))
                if span.stream == campaign_id:
                    on_campaign = versions
                    continue
                event = RulingRetracted(ruling=number, reason=reason.strip(), versions=versions)
                changes.append(Change(span.stream, event))
            retracted = RulingRetracted(ruling=number, reason=reason.strip(), versions=on_campaign)
            changes.append(Change(campaign_id, retracted))
        result = engine.record(
            loaded,
            changes,
            command="undo",
            params=params_json(
                {"ruling": target.number, "with": sorted(later), "reason": reason.strip()}
            ),
            actor=actor or campaign.gm,
        )
        if result is not None:
            return result
    raise ConcurrentWrites(attempts=12)


def _target(
    made: list[Event], campaign: CampaignState, ruling: int | None, records: list[Recorded]
) -> RulingMade:
    rulings = [m for m in made if isinstance(m, RulingMade)]
    if ruling is None:
        for m in reversed(rulings):
            if m.number not in campaign.retracted and m.command not in NOT_UNDOABLE:
                return m
        raise NothingToUndo()
    found = next((m for m in rulings if m.number == ruling), None)
    if found is None:
        raise UnknownRuling(ruling=ruling)
    if found.command in NOT_UNDOABLE:
        raise CannotUndo(ruling=ruling, command=found.command, why=NOT_UNDOABLE[found.command])
    if ruling in campaign.retracted:
        raise RulingAlreadyRetracted(ruling=ruling, by=retractions(records)[ruling].by)
    return found


def params_json(params: dict[str, object]) -> str:
    return canonical_json(params).decode()
