"""Export a campaign as JSON lines and import it into any store, verified before anything is
written.

The file is a header line, then one line per stored event in the order they were recorded:
``{"stream", "version", "topic", "event"}`` where ``event`` is the stored body (its hash link
included). Importing re-creates the very same rows, so the copy verifies with the same digest.
The store's directory entry is written anew in the target store.

The file is read and checked line by line by ``engine.export_file``, its lines held to the
bounds in ``engine.export_format``, its events and commands to the allow-lists in
``engine.export_classes``; the bounds, ``file_lines`` and the allow-lists are named here too.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.campaign import Directory, evolve_campaign, evolve_directory
from domain.errors import HistoryConflict
from domain.events import CampaignCreated, CharacterJoined, Event, RulingAmended, RulingMade
from domain.lifecycle import create_campaign
from domain.plain import Plain
from domain.rulesets import ruleset_named
from engine.audit import Report, verify_rows
from engine.audit_chain import campaign_streams, check_stream
from engine.chain import encoded
from engine.export_classes import command_classes as command_classes
from engine.export_classes import event_classes as event_classes
from engine.export_file import read_checked
from engine.export_format import FORMAT, ImportRefused, error_line, on_one_line, value_shown
from engine.export_format import MAX_DEPTH as MAX_DEPTH
from engine.export_format import MAX_LINE as MAX_LINE
from engine.export_format import file_lines as file_lines
from engine.records import DIRECTORY_ID, Recorded
from engine.streams import Evolve, corrections, fold

if TYPE_CHECKING:
    from domain.campaign import DirectoryEntry
    from engine.ledger import Ledger
    from engine.store import CampaignStore

PAGE = 1000


@frozen
class Imported(Plain):
    name: str
    system: str
    events: int
    digest: str


def export_lines(store: CampaignStore, entry: DirectoryEntry, report: Report) -> Iterator[str]:
    """The campaign as JSON lines: a header (with what ``verify`` reported), then every stored
    event in recorded order."""
    recorder = store.recorder
    campaign_rows = recorder.select_events(entry.campaign_id)
    streams = set(campaign_streams(entry.campaign_id, campaign_rows))
    header = {
        "format": FORMAT,
        "name": entry.name,
        "system": entry.system,
        "campaign_id": str(entry.campaign_id),
        "events": report.events,
        "digest": report.digest,
    }
    yield json.dumps(header, ensure_ascii=False)
    start = 1
    while True:
        page = recorder.select_notifications(start=start, limit=PAGE)
        for row in page:
            if _uuid(row.originator_id) in streams:
                line = {
                    "stream": str(row.originator_id),
                    "version": row.originator_version,
                    "topic": row.topic,
                    "event": json.loads(row.state),
                }
                yield json.dumps(line, ensure_ascii=False, sort_keys=True)
        if len(page) < PAGE:
            return
        start = page[-1].id + 1


def _uuid(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector, as it was before afterwards.

    An import keeps every row alive until its one transaction: the collector would walk them
    again and again, finding nothing (parsed JSON holds no cycles). Measured on a 100k-event
    import: a quarter of its time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def import_lines(
    ledger: Ledger,
    lines: Iterable[str | bytes],
    progress: Callable[[int], None] | None = None,
) -> Imported:
    """Verify an export completely, then write it and its directory entry in one transaction."""
    with collector_paused():
        return _import(ledger, lines, progress)


def _import(
    ledger: Ledger, lines: Iterable[str | bytes], progress: Callable[[int], None] | None
) -> Imported:
    export = read_checked(lines, progress)
    header, rows, where = export.header, export.rows, export.where
    campaign_id = UUID(header["campaign_id"])
    by_stream: dict[UUID, list[StoredEvent]] = {}
    records: dict[UUID, list[Recorded]] = {}
    for row, record in zip(rows, export.records, strict=True):
        by_stream.setdefault(_uuid(row.originator_id), []).append(row)
        records.setdefault(record.originator_id, []).append(record)
    for found in by_stream.values():
        found.sort(key=lambda r: r.originator_version)
    for kept in records.values():
        kept.sort(key=lambda r: r.originator_version)
    report = _verified(campaign_id, by_stream, where)
    if report.breaks:
        first = report.breaks[0]
        line = where.get((first.stream, first.version), len(rows) + 1)
        raise ImportRefused(line=line, field="event", problem=first.problem)
    if not all(s.intact for s in report.seals) or any(d.problems for d in report.dice):
        raise ImportRefused(line=1, field="seals", problem="a session seal or its dice fail")
    if report.events != header["events"] or report.digest != header.get("digest"):
        raise ImportRefused(line=1, field="digest", problem="the file does not match its header")
    if report.findings:  # what `verify` would find wrong in the copy (a row of no ruling, ...)
        finding = report.findings[0]
        stream, version = finding.stream, finding.version
        line = where.get((stream, version), 1) if stream and version is not None else 1
        raise ImportRefused(line=line, field="event", problem=on_one_line(finding.problem))
    registration = _created(ledger, campaign_id, header, records.get(campaign_id, []), where)
    _replays(campaign_id, header, records, where)
    try:
        ledger.store.recorder.insert_events([*rows, registration])
    except IntegrityError:
        raise ImportRefused(
            line=2, field="stream", problem="this campaign is in the store already"
        ) from None
    return Imported(header["name"], header["system"], len(rows), report.digest)


def _verified(
    campaign_id: UUID,
    by_stream: dict[UUID, list[StoredEvent]],
    where: dict[tuple[UUID, int], int],
) -> Report:
    """``verify``'s checks of the rows (chains, rulings, seals, dice), which read the rows' raw
    bodies: a check that fails on a value it cannot read refuses the file at the first broken
    link (the value was changed), or else names the value it could not read."""
    try:
        return verify_rows(campaign_id, by_stream, findings=True)
    except Exception as error:  # a value no check expected (a forged seed that is not hex, ...)
        for stream, found in by_stream.items():
            broken = check_stream(stream, found)
            if broken is not None:
                line = where.get((stream, broken.version), 1)
                raise ImportRefused(line=line, field="event", problem=broken.problem) from None
        problem = f"cannot be checked ({error_line(error)})"
        raise ImportRefused(line=1, field="seals and dice", problem=problem) from None


def _created(
    ledger: Ledger,
    campaign_id: UUID,
    header: dict[str, Any],
    own: list[Recorded],
    where: dict[tuple[UUID, int], int],
) -> StoredEvent:
    """The campaign's creation, put through `init`'s own checks (its name, that the name is
    free, its system and house rules): its directory entry, as the store's next row."""
    created = own[0].event if own else None
    line = where.get((campaign_id, 1), 2)
    if not isinstance(created, CampaignCreated):
        problem = "the campaign's stream does not start with its creation"
        raise ImportRefused(line=line, field="event", problem=problem)
    rules = {rule.key: rule.value for rule in created.house_rules}
    if len(rules) != len(created.house_rules):
        raise ImportRefused(line=line, field="event", problem="a house rule is given twice")
    directory = ledger.streams.load(DIRECTORY_ID, evolve_directory)
    changes = create_campaign(
        directory.state or Directory(),
        directory_id=DIRECTORY_ID,
        campaign_id=campaign_id,
        name=header["name"],
        system=header["system"],
        gm=created.gm,
        house_rules=rules,
    )
    if (created.campaign_id, created.name, created.system) != (
        campaign_id,
        header["name"],
        header["system"],
    ):
        problem = "the campaign created is not the header's (campaign_id, name, system)"
        raise ImportRefused(line=line, field="event", problem=problem)
    record = Recorded(
        originator_id=DIRECTORY_ID,
        originator_version=directory.version + 1,
        timestamp=ledger.now(),
        ruling=0,
        actor="import",
        session=None,
        scene=None,
        event=changes[0].event,
    )
    last = ledger.streams.last(DIRECTORY_ID)
    _, (row,) = encoded([record], {DIRECTORY_ID: last.chain if last else ""})
    return row


def _replays(
    campaign_id: UUID,
    header: dict[str, Any],
    records: dict[UUID, list[Recorded]],
    where: dict[tuple[UUID, int], int],
) -> None:
    """Every stream folds strictly, as loading it will: the campaign's with the campaign's rules,
    every other with its system's; only streams the campaign's rulings wrote to; every
    character of the roster has its stream."""
    own = records[campaign_id]
    touched = {
        span.stream
        for record in own
        if isinstance(record.event, RulingMade)
        for span in record.event.touched
    }
    for stream, found in records.items():
        if stream != campaign_id and (stream not in touched or stream == DIRECTORY_ID):
            problem = "no ruling of this campaign wrote to this stream"
            line = where[(stream, found[0].originator_version)]
            raise ImportRefused(line=line, field="stream", problem=problem)
    campaign = _folded(own, evolve_campaign, where)
    evolve = ruleset_named(header["system"]).evolve_character
    states = {s: _folded(found, evolve, where) for s, found in records.items() if s != campaign_id}
    for entry in campaign.roster:
        state = states.get(entry.character_id)
        if state is None or getattr(state, "id", entry.character_id) != entry.character_id:
            line = next(
                where[(campaign_id, r.originator_version)]
                for r in own
                if isinstance(r.event, CharacterJoined)
                and r.event.character_id == entry.character_id
            )
            problem = f"character {value_shown(entry.name)} has no stream of its own that replays"
            raise ImportRefused(line=line, field="event", problem=problem)


def _folded(found: list[Recorded], evolve: Evolve, where: dict[tuple[UUID, int], int]) -> Any:
    """The stream folded with its corrections applied, as ``Streams.load`` folds it; a history
    that does not fold is refused at the line of the event that did not apply."""
    applying: list[Event | None] = [None]

    def tracked(event: Event, state: Any) -> Any:
        applying[0] = event
        return evolve(event, state)

    try:
        return fold(found, tracked, None, corrections(found))
    except Exception as error:  # whatever a rule makes of a history it was never given
        lines: dict[int, int] = {}
        for record in found:
            line = where[(record.originator_id, record.originator_version)]
            lines[id(record.event)] = line
            if isinstance(record.event, RulingAmended):
                lines.update((id(event), line) for event in record.event.events)
        line = lines.get(id(applying[0]), where[(found[0].originator_id, 1)])
        said = str(error) if isinstance(error, HistoryConflict) else error_line(error)
        problem = f"does not replay: {on_one_line(said)}"
        raise ImportRefused(line=line, field="event", problem=problem) from None
