"""The log as one reader may read it (``domain.visibility``): the rulings hidden from them left
out (and those that only wrote GM-only notes), GM-only notes taken out of the rulings they see,
amendments made in hiding dropped."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from domain.audience import Audience
from domain.campaign import CampaignState
from domain.visibility import hidden_from, reads_all, sees_event

if TYPE_CHECKING:
    from engine.corrections.undo import LoggedRuling
    from engine.store.records import Recorded


def as_read_by(
    campaign: CampaignState, audience: Audience, logged: list[LoggedRuling]
) -> list[LoggedRuling]:
    """``logged`` as ``audience`` may read it (everything, for a GM)."""
    if reads_all(campaign, audience):
        return logged
    hidden = hidden_from(campaign, audience)
    shown = []
    for entry in logged:
        if entry.ruling.number in hidden:
            continue
        amendments = tuple(
            attrs.evolve(a, events=_events(campaign, audience, a.events))
            for a in entry.amendments
            if a.by not in hidden
        )
        events = _events(campaign, audience, entry.events)
        if entry.events and not events:
            continue  # a ruling of GM-only notes: the GMs' alone
        shown.append(attrs.evolve(entry, events=events, amendments=amendments))
    return shown


def _events(
    campaign: CampaignState, audience: Audience, records: tuple[Recorded, ...]
) -> tuple[Recorded, ...]:
    return tuple(r for r in records if sees_event(campaign, audience, r.event))
