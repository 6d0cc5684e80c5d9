"""Reading history: the ruling in force at a session's end or a moment, a character's changes,
a session's rulings in order."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import MINYEAR, datetime, timedelta
from typing import TYPE_CHECKING, Any
from uuid import UUID

from attrs import frozen

from domain.errors import DomainError, ErrorKind
from domain.events import CORRECTIONS
from domain.plain import Plain
from engine.store.log import LoggedRuling, headers, read_log
from engine.store.mapper import canonical_json, converter
from engine.store.records import Recorded

if TYPE_CHECKING:
    from domain.campaign import CampaignState
    from engine.store.streams import Streams


class NoSuchPoint(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "the log has no {what}"


@frozen
class Change(Plain):
    """One ruling's effect on one character: the ruling as logged and its events there."""

    logged: LoggedRuling
    events: tuple[Recorded, ...]


def ruling_at(
    made: list[Recorded],
    *,
    ruling: int | None = None,
    session: int | None = None,
    time: datetime | None = None,
) -> int:
    """The last ruling at a point: a ruling number, the end of session N, or a moment, among
    the rulings whose headers are ``made``."""
    if ruling is not None:
        if not any(h.ruling == ruling for h in made):
            raise NoSuchPoint(what=f"ruling {ruling}")
        return ruling
    if session is not None:
        found = [h.ruling for h in made if h.session == session]
        if not found:
            raise NoSuchPoint(what=f"session {session}")
        return max(found)
    if time is not None:
        moment = placed(time)
        found = [h.ruling for h in made if h.timestamp <= moment]
        if not found:
            raise NoSuchPoint(what=f"ruling at or before {moment.isoformat()}")
        return max(found)
    return max(h.ruling for h in made)


EDGE = timedelta(days=2)  # more than any offset from UTC local time has ever had


def placed(time: datetime) -> datetime:
    """``time`` with its offset from UTC: a moment without one is local time, at the offset
    local time had then. Within a day of the calendar's ends (year 1, year 9999) the library
    cannot find that offset (it would pass through a year 0 or 10000): such a moment takes the
    offset local time has two days inward, where it can."""
    if time.tzinfo is not None:
        return time
    try:
        return time.astimezone()
    except (ValueError, OverflowError):
        inward = EDGE if time.year == MINYEAR else -EDGE
        return time.replace(tzinfo=(time + inward).astimezone().tzinfo)


def history(streams: Streams, campaign: CampaignState, ref: str) -> list[Change]:
    """Every ruling that changed a character, in order, with its events on that character."""
    stream = campaign.find(ref).character_id
    grouped = _by_ruling(streams.records(stream))
    touching = {number for number, _ in grouped}
    logged = {e.ruling.number: e for e in read_log(streams, campaign.id, rulings=touching)}
    changes: list[Change] = []
    for number, records in grouped:
        entry = logged.get(number)
        if entry is not None and entry.ruling.command not in CORRECTIONS:
            changes.append(Change(entry, records))
    return changes


def _by_ruling(records: Iterable[Recorded]) -> list[tuple[int, tuple[Recorded, ...]]]:
    grouped: dict[int, list[Recorded]] = {}
    for record in records:
        grouped.setdefault(record.ruling, []).append(record)
    return [(number, tuple(group)) for number, group in grouped.items()]


def session_rulings(streams: Streams, campaign_id: UUID, session: int | None) -> list[LoggedRuling]:
    """The rulings of one session (default: the latest session), in order."""
    sessions = [h.session for h in headers(streams.records(campaign_id)) if h.session]
    if not sessions:
        raise NoSuchPoint(what="session yet")
    wanted = session if session is not None else max(sessions)
    chosen = read_log(streams, campaign_id, session=wanted)
    if not chosen:
        raise NoSuchPoint(what=f"session {wanted}")
    return chosen


def _plain(state: Any) -> dict[str, Any]:
    if state is None:
        return {}
    plain: dict[str, Any] = json.loads(canonical_json(converter.unstructure(state)))
    return plain


def differences(before: Any, after: Any) -> list[tuple[str, Any, Any]]:
    """Field by field, what differs between two states (plain data, sorted by field)."""
    old = _plain(before)
    new = _plain(after)
    keys = sorted(set(old) | set(new))
    return [(key, old.get(key), new.get(key)) for key in keys if old.get(key) != new.get(key)]
