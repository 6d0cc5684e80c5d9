"""A player's check of an export against witness statements (`verify-dice --witness`): the
export read once and checked as ``verify_export`` checks it, its own head (what the player's
machine keeps as seen), and every statement of its campaign held to it
(``engine.audit.witnessed``)."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import StoredEvent

from engine.audit.chain import Withheld
from engine.audit.report import Report
from engine.audit.rows import HeldRows
from engine.audit.verify import verify_rows
from engine.audit.witness import Head, Statement
from engine.audit.witnessed import WitnessCheck, check_witnesses, heads_at, seats
from engine.transfer.file import read_export


@frozen
class ExportChecked:
    """The export's campaign name, its report, its head (None when its campaign stream ends
    on no ruling's header), the witnesses' check, and every (member, key) its log put on a
    seat."""

    name: str
    report: Report
    head: Head | None
    witnesses: WitnessCheck
    seats: frozenset[tuple[str, str]]
    copy_for: str | None = None  # a member's copy: whose
    withheld: int = 0  # its rows withheld (checked by their digests)
    given: int = 0  # of those, rows linked over their bodies: taken as given


def verify_witnessed(
    lines: Iterable[str | bytes], statements: Iterable[Statement] = ()
) -> ExportChecked:
    """Check the export's lines as ``verify_export`` does (refusing a malformed one, naming the
    line) and hold it to ``statements``; a member's copy too."""
    header, rows, _ = read_export(lines, copies=True)
    streams: dict[UUID, list[StoredEvent]] = {}
    for row in rows:
        streams.setdefault(UUID(str(row.originator_id)), []).append(row)
    campaign, name = UUID(header["campaign_id"]), str(header["name"])
    report = verify_rows(campaign, streams)
    held = HeldRows(streams)
    end = held.end(campaign)
    last = heads_at(held, campaign, name, [end]).get(end) if end else None
    return ExportChecked(
        name=name,
        report=report,
        head=last if isinstance(last, Head) else None,
        witnesses=check_witnesses(held, campaign, name, statements),
        seats=frozenset(seats(held, campaign)),
        copy_for=header.get("copy_for"),
        withheld=sum(isinstance(row, Withheld) for row in rows),
        given=sum(isinstance(row, Withheld) and row.given for row in rows),
    )
