"""What a player checks with nothing but an export: every hash chain and seal in the file, and
every committed roll recomputed from the revealed seed and the entropy the players added."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from engine.audit.verify import Report, verify_rows
from engine.transfer.file import read_export


def verify_export(lines: Iterable[str | bytes]) -> tuple[str, Report]:
    """The campaign's name and the report on its export (no store is opened). Its lines are read
    and checked as an import reads them: a malformed one is refused ``ImportRefused`` (or a
    bound's own error: not UTF-8, too long, nested too deep), naming the line. A member's copy
    (``campaign export --for``) is checked too: each withheld row by its digest."""
    header, rows, _ = read_export(lines, copies=True)
    streams: dict[UUID, list[StoredEvent]] = {}
    for row in rows:  # in the order recorded: each stream's versions in order
        streams.setdefault(UUID(str(row.originator_id)), []).append(row)
    return str(header["name"]), verify_rows(UUID(header["campaign_id"]), streams)
