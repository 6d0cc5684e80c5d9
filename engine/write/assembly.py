"""Assembling one ruling: its events per stream, versions, the closing header and envelopes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from attrs import frozen

from domain.campaign import CampaignState
from domain.commands import Change
from domain.dice import Die, Provenance
from domain.events import (
    Event,
    RulingAmended,
    RulingMade,
    RulingRetracted,
    StreamRange,
    Visibility,
)
from domain.plain import Plain
from engine.store.records import Recorded
from engine.store.streams import Evolve


@frozen
class RulingResult(Plain):
    """What one ruling recorded, and the state of every stream it touched afterwards."""

    campaign: CampaignState
    number: int
    command: str
    records: tuple[Recorded, ...]
    dice: tuple[Die, ...]
    provenance: Provenance | None
    states: Mapping[UUID, Any]

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(r.event for r in self.records if not isinstance(r.event, RulingMade))

    @property
    def header(self) -> Recorded:
        """The ruling's header in its envelope (who, when, which session and scene)."""
        return next(r for r in self.records if isinstance(r.event, RulingMade))

    @property
    def made(self) -> RulingMade:
        """The ruling's header itself: its command, visibility, narration, dice."""
        made = self.header.event
        assert isinstance(made, RulingMade)
        return made


@frozen
class Draft(Plain):
    """A ruling ready to store: the events per stream, its header and the records."""

    header: RulingMade
    by_stream: Mapping[UUID, Sequence[Event]]
    records: tuple[Recorded, ...]
    after: Mapping[UUID, Any]


def assemble(
    *,
    campaign: CampaignState | None,
    campaign_id: UUID,
    versions: Mapping[UUID, int],
    states: Mapping[UUID, Any],
    evolvers: Mapping[UUID, Evolve],
    changes: Sequence[Change],
    command: str,
    params: str,
    actor: str,
    dice: tuple[Die, ...],
    provenance: Provenance | None,
    seed: int | None,
    at: datetime,
    counter: int | None = None,
    draws: int = 0,
    lane: str | None = None,
    leaf: int | None = None,
    visibility: Visibility = Visibility.PUBLIC,
    audience: tuple[str, ...] = (),
    roll_seal: str = "",
    sealed: int | None = None,
    interaction: str = "",
) -> Draft:
    """Number the ruling, give each event its stream version, close the ruling with its header
    on the campaign stream, and apply every event to its stream's state (a misfit raises: the
    command decided something its own rules would not replay)."""
    number = (campaign.rulings if campaign else 0) + 1
    by_stream: dict[UUID, list[Event]] = {}
    for change in changes:
        by_stream.setdefault(change.stream, []).append(change.event)
    by_stream.setdefault(campaign_id, [])
    touched = tuple(
        StreamRange(stream=stream, first=versions[stream] + 1, last=versions[stream] + len(events))
        for stream, events in by_stream.items()
        if events
    )
    header = RulingMade(
        number=number,
        command=command,
        params=params,
        dice=dice,
        provenance=provenance if dice else None,
        seed=seed if dice else None,
        touched=touched,
        counter=counter,
        draws=draws,
        lane=lane,
        leaf=leaf,
        visibility=visibility,
        audience=audience,
        seal=roll_seal,
        sealed=sealed,
        interaction=interaction,
    )
    by_stream[campaign_id].append(header)  # last: it closes the ruling
    after: dict[UUID, Any] = {}
    for stream, events in by_stream.items():
        state = states[stream]
        for event in events:
            if not isinstance(event, RulingRetracted | RulingAmended):  # corrections: see streams
                state = evolvers[stream](event, state)
        after[stream] = state
    campaign_after: CampaignState = after[campaign_id]
    before = campaign or campaign_after
    records = tuple(
        Recorded(
            originator_id=stream,
            originator_version=versions[stream] + offset,
            timestamp=at,
            ruling=number,
            actor=actor,
            session=campaign_after.session or before.session,
            scene=campaign_after.scene or before.scene,
            event=event,
        )
        for stream, events in by_stream.items()
        for offset, event in enumerate(events, start=1)
    )
    return Draft(header=header, by_stream=by_stream, records=records, after=after)
