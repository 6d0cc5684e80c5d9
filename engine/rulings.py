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
from domain.events import RulingMade, RulingRetracted, SceneStarted
from engine.mapper import canonical_json
from engine.records import Recorded
from engine.streams import Evolve, fold, voided_versions

if TYPE_CHECKING:
    from engine.assembly import RulingResult
    from engine.service import Engine

MAX_ATTEMPTS = 12
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


def dependents(
    engine: Engine, campaign: CampaignState, target: RulingMade, campaign_records: list[Recorded]
) -> set[int]:
    """Rulings after ``target`` that stop fitting once it is skipped (transitively): their events
    no longer replay, or they happened inside a scene whose start would be undone."""
    made = {m.number: m for m in rulings_made(campaign_records)}
    ruleset = engine.ruleset(campaign)
    characters = [e.character_id for e in campaign.roster]
    cache: dict[UUID, list[Recorded]] = {campaign.id: campaign_records}

    def records_of(stream: UUID) -> list[Recorded]:
        if stream not in cache:
            cache[stream] = engine.streams.records(stream)
        return cache[stream]

    excluded = {target.number}
    while True:
        streams = {campaign.id} | {
            span.stream for number in excluded for span in made[number].touched
        }
        found: set[int] = set()
        for stream in streams:
            found |= _misfits(records_of(stream), engine.evolver(campaign, stream), excluded)
        scenes = {
            r.event.number
            for r in campaign_records
            if r.ruling in excluded and isinstance(r.event, SceneStarted)
        }
        if scenes:
            found |= {
                r.ruling
                for stream in characters
                for r in records_of(stream)
                if r.scene in scenes and r.ruling > target.number and ruleset.needs_scene(r.event)
            }
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
    why = reason.strip()
    if not why:
        raise EmptyText(what="the reason for undoing")
    campaign_id = engine.find_campaign(campaign_name).campaign_id
    for _ in range(MAX_ATTEMPTS):
        loaded = engine.streams.load(campaign_id, evolve_campaign)
        campaign: CampaignState = loaded.state
        records = engine.streams.records(campaign_id)
        target = _target(rulings_made(records), campaign, ruling, records)
        ruling = target.number  # a retry after a concurrent write undoes the same ruling
        later = dependents(engine, campaign, target, records)
        if later and not with_dependents:
            listed = ", ".join(str(n) for n in sorted(later))
            raise LaterRulingsDepend(ruling=target.number, dependents=listed)
        by_number = {m.number: m for m in rulings_made(records)}
        changes: list[Change] = []
        for number in sorted({target.number} | later, reverse=True):
            on_campaign: tuple[int, ...] = ()
            for span in by_number[number].touched:
                versions = tuple(range(span.first, span.last + 1))
                if span.stream == campaign_id:
                    on_campaign = versions
                else:
                    event = RulingRetracted(ruling=number, reason=why, versions=versions)
                    changes.append(Change(span.stream, event))
            retracted = RulingRetracted(ruling=number, reason=why, versions=on_campaign)
            changes.append(Change(campaign_id, retracted))
        params = {"ruling": target.number, "with": sorted(later), "reason": why}
        result = engine.record(
            loaded,
            changes,
            command="undo",
            params=canonical_json(params).decode(),
            actor=actor or campaign.gm,
        )
        if result is not None:
            return result
    raise ConcurrentWrites(attempts=MAX_ATTEMPTS)


def _target(
    rulings: list[RulingMade], campaign: CampaignState, ruling: int | None, records: list[Recorded]
) -> RulingMade:
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
