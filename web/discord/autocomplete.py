"""Autocomplete (interaction type 4): the choices Discord shows while a member types an option,
from the option's kind (``domain.kinds``) and the campaign as the member may read it: a
character's name from the roster (a player's own characters for the one who acts), a member's
from the table, a ruling's number from the rulings they may read (newest first), a choice's
values. At most 25, those holding what was typed first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.audience import Member
from domain.events import Role, RulingMade
from domain.kinds import Choice, Kind, ListOf, Reference, Refers
from engine import Engine
from web.discord.tables import Seat

MAX_CHOICES = 25
CHOICE_NAME = 100


def suggestions(
    engine: Engine, seat: Seat, kinds: Mapping[str, Kind], options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The choices for the focused option, by the kinds of the command's options (none for an
    option without suggestions)."""
    focused = next((o for o in options if o.get("focused")), None)
    if focused is None or focused.get("name") not in kinds:
        return []
    kind: Kind = kinds[str(focused["name"])]
    if isinstance(kind, ListOf):
        kind = kind.item
    typed = str(focused.get("value", "")).strip().casefold()
    if isinstance(kind, Reference) and kind.refers is Refers.RULING:
        return _rulings(engine, seat, typed)
    return [{"name": v[:CHOICE_NAME], "value": v} for v in _matching(_values(seat, kind), typed)]


def _values(seat: Seat, kind: Kind) -> list[str]:
    campaign = seat.campaign
    if isinstance(kind, Choice):
        return list(kind.values)
    if not isinstance(kind, Reference):
        return []
    if kind.refers is Refers.MEMBER:
        return [m.name for m in campaign.seats]
    member = campaign.member(seat.member)
    if kind.acts and member is not None and member.role is not Role.GM:
        own = campaign.own_characters(member)
        return [e.name for e in campaign.roster if e.character_id in own]
    return [e.name for e in campaign.roster]


def _matching(values: list[str], typed: str) -> list[str]:
    """Those starting with what was typed, then those holding it, up to 25."""
    starting = [v for v in values if v.casefold().startswith(typed)]
    holding = [v for v in values if typed in v.casefold() and v not in starting]
    return (starting + holding)[:MAX_CHOICES]


def _rulings(engine: Engine, seat: Seat, typed: str) -> list[dict[str, Any]]:
    """The rulings the member may read, newest first, those whose number or verb holds what
    was typed."""
    found = []
    for header in reversed(engine.headers(seat.campaign.name, audience=Member(seat.member))):
        made = header.event
        assert isinstance(made, RulingMade)
        label = f"#{made.number} {made.command} ({header.actor})"
        if typed in label.casefold():
            found.append({"name": label[:CHOICE_NAME], "value": made.number})
        if len(found) == MAX_CHOICES:
            break
    return found
