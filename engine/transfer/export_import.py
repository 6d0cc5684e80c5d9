"""Export a campaign as JSON lines and import it into any store, verified before anything is
written.

The file is a header line, then one line per stored event in the order they were recorded:
``{"stream", "version", "topic", "event"}`` where ``event`` is the stored body (its hash link
included). Importing re-creates the very same rows, so the copy verifies with the same digest.
The store's directory entry is written anew in the target store.

The file is read and checked line by line by ``engine.transfer.file``, its lines held to the
bounds in ``engine.transfer.format``, its events and commands to the allow-lists in
``engine.store.event_classes``; the bounds, ``file_lines`` and the allow-lists are named here too.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.campaign import Directory, evolve_campaign, evolve_directory
from domain.errors import HistoryConflict
from domain.events import CampaignCreated, CharacterJoined, Event, RulingAmended
from domain.lifecycle import create_campaign
from domain.plain import Plain
from domain.rulesets import ruleset_named
from engine.audit.chain import MADE, campaign_streams, check_stream
from engine.audit.policy import PolicyWalk
from engine.audit.rows import StoreRows
from engine.audit.verify import Report, verify_stored
from engine.store.campaign_store import (
    MEMORY,
    StoredEventUnreadable,
    StoredLogDamaged,
    one_line,
    shown,
)
from engine.store.chain import encoded
from engine.store.event_classes import command_classes as command_classes
from engine.store.event_classes import event_classes as event_classes
from engine.store.mapper import loads
from engine.store.records import DIRECTORY_ID, Recorded, Snapshot
from engine.store.streams import CORRECTION_TOPICS as CORRECTIONS
from engine.store.streams import Evolve, corrections, fold
from engine.transfer.file import CheckedLines
from engine.transfer.folds import Folds
from engine.transfer.format import (
    FORMAT,
    ImportActorNotAllowed,
    ImportRefused,
    error_line,
    on_one_line,
    value_shown,
)
from engine.transfer.format import MAX_DEPTH as MAX_DEPTH
from engine.transfer.format import MAX_LINE as MAX_LINE
from engine.transfer.format import file_lines as file_lines
from engine.transfer.models_child import ChildModels, wanted
from engine.transfer.read_models import ImportModels
from engine.transfer.scratch import Scratch

if TYPE_CHECKING:
    from domain.campaign import DirectoryEntry
    from engine.reads.models import ReadModels
    from engine.store.campaign_store import CampaignStore
    from engine.write.ledger import Ledger
    from projections.documents import ReadModel

PAGE = 1000


@frozen
class Imported(Plain):
    name: str
    system: str
    events: int
    digest: str


def export_lines(
    store: CampaignStore, entry: DirectoryEntry, report: Report, *, spec: str = MEMORY
) -> Iterator[str]:
    """The campaign as JSON lines: a header (with what ``verify`` reported), then every stored
    event in recorded order. A row whose bytes are not JSON in UTF-8 (an empty one, bytes
    overwritten) is ``STORED_EVENT_UNREADABLE``, naming it (``spec``: the store's, to say)."""
    recorder = store.recorder
    streams = exported_streams(store, entry.campaign_id)
    yield json.dumps(header_of(entry, report), ensure_ascii=False)
    start = 1
    while True:
        page = recorder.select_notifications(start=start, limit=PAGE)
        for row in page:
            if _uuid(row.originator_id) in streams:
                yield stored_line(row, spec)
        if len(page) < PAGE:
            return
        start = page[-1].id + 1


def exported_streams(store: CampaignStore, campaign_id: UUID) -> set[UUID]:
    """The streams an export holds: the campaign's and those its rulings' headers name."""
    headers = StoreRows(store.recorder).picked(campaign_id, (MADE,))  # a page at a time
    try:
        return set(campaign_streams(campaign_id, headers))
    except (ValueError, TypeError, KeyError, AttributeError) as error:  # an edited header
        problem = f"a ruling's header names its streams wrongly ({error_line(error)})"
        raise StoredLogDamaged(problem=problem) from None


def header_of(entry: DirectoryEntry, report: Report) -> dict[str, Any]:
    """An export's header: the campaign and what ``verify`` reported of it."""
    return {
        "format": FORMAT,
        "name": entry.name,
        "system": entry.system,
        "campaign_id": str(entry.campaign_id),
        "events": report.events,
        "digest": report.digest,
    }


def stored_line(row: StoredEvent, spec: str) -> str:
    """One stored event as its line of an export."""
    line = {
        "stream": str(row.originator_id),
        "version": row.originator_version,
        "topic": row.topic,
        "event": _stored_body(row.state, row.originator_id, row.originator_version, spec),
    }
    return json.dumps(line, ensure_ascii=False, sort_keys=True)


def _stored_body(state: bytes, stream: UUID | str, version: int, spec: str) -> Any:
    try:
        return loads(state)
    except ValueError as error:  # JSON's and UTF-8's errors are ValueErrors
        place = f"stream {stream} version {version}"
        raise StoredEventUnreadable(
            spec=shown(spec), problem=f"{place}: {one_line(error)}"
        ) from None


def _uuid(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector, as it was before afterwards.

    A bulk write builds many rows that hold no cycles: the collector would walk them again and
    again, finding nothing. Measured on a 100k-event import: a quarter of its time."""
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
    read_models: ReadModels | None = None,
) -> Imported:
    """Verify an export completely, then write it and its directory entry in one transaction.

    The lines are read once, a page at a time into a scratch store (``engine.transfer.scratch``),
    which the checks read back a page at a time: what an import holds does not grow with the
    file. Each event is decoded once, as its line is read: each stream is folded from there
    (``engine.transfer.folds``), and so are ``read_models``' documents
    (``engine.transfer.read_models``). Nothing is written to the store until every check held; then
    the rows, a snapshot at each stream's head and the read models' documents."""
    with Scratch() as scratch:
        opened: list[ImportModels | ChildModels] = []  # made once the header says how large
        try:
            with collector_paused():  # what an import builds holds no cycles (measured: 10-25%)
                return _import(ledger, lines, progress, scratch, read_models, opened)
        finally:
            for models in opened:
                models.close()


def _models_for(
    header: dict[str, Any], scratch: Scratch, read_models: ReadModels | None
) -> ImportModels | ChildModels:
    """Every read model the store keeps, computed over the import's records: in a child process
    for a large file (``engine.transfer.models_child``), here otherwise."""
    models = _models() if read_models is not None and read_models.kept else []
    if models and wanted(header["events"]):
        try:
            child = ChildModels(scratch.folder, scratch.path, scratch.table, models)
        except OSError:  # no Python to start (an embedded interpreter): computed here instead
            return ImportModels(scratch.folder, models)
        scratch.written = child.written
        return child
    return ImportModels(scratch.folder, models)


def _models() -> list[ReadModel]:
    from engine.reads.recaps import models  # every system's presentation: only when an import runs

    return list(models().values())


@frozen
class _Read:
    """What reading the file's lines left: its streams folded, the read models computed over
    its records, the directory entry made from its first record (when the read models are
    computed), and who could make each of its rulings (None for a file of no rows)."""

    folds: Folds
    models: ImportModels | ChildModels
    early: tuple[Recorded, StoredEvent] | None
    policy: PolicyWalk | None


def _import(
    ledger: Ledger,
    lines: Iterable[str | bytes],
    progress: Callable[[int], None] | None,
    scratch: Scratch,
    read_models: ReadModels | None,
    opened: list[ImportModels | ChildModels],
) -> Imported:
    checked = CheckedLines(lines, progress, scratch.seen)
    read = _read_lines(ledger, checked, scratch, read_models, opened)
    header = checked.header
    folds, models, early = read.folds, read.models, read.early
    campaign_id = UUID(header["campaign_id"])
    streams = list(scratch.streams)
    report = _verified(campaign_id, scratch, streams)
    _check_report(report, header, scratch)
    decode = scratch.store.mapper.to_domain_event
    first_rows = scratch.recorder.select_events(campaign_id, limit=1)
    own = [cast("Recorded", decode(row)) for row in first_rows]
    registration = early[1] if early else _created(ledger, campaign_id, header, own, scratch)
    states = _replays(campaign_id, streams, scratch, folds)
    if folds.misplaced is not None or folds.unfinished:  # read as rulings, as the reads read it
        line, problem = folds.misplaced or (scratch.count + 1, "the last ruling is not whole")
        raise ImportRefused(line=line, field="event", problem=problem)
    if read.policy is not None:
        _check_actors(campaign_id, read.policy, scratch)
    if read_models is not None:  # each model at the log's end, to take the campaign's rulings
        models.caught_up(read_models)
    first, last = _insert(ledger, registration, scratch)
    _keep_heads(ledger, folds.snapshots(states))
    if read_models is not None and models.computed:
        with collector_paused():
            models.adopt(read_models.views, first, last)
    return Imported(header["name"], header["system"], scratch.count, report.digest)


def _read_lines(
    ledger: Ledger,
    checked: CheckedLines,
    scratch: Scratch,
    read_models: ReadModels | None,
    opened: list[ImportModels | ChildModels],
) -> _Read:
    """Read the file's lines into the scratch store, folding its streams, computing the read
    models over its records and checking who could make its rulings as they are read."""
    read: _Read | None = None
    for number, row, record in checked:
        if read is None:  # the first row: the header was read
            read = _first_row(
                ledger, checked.header, (number, record), scratch, read_models, opened
            )
        scratch.add(number, row)
        read.folds.add(number, row, record)
        policy = read.policy
        if policy is not None and record.originator_id == policy.campaign_id:
            policy.record(record)
        read.models.add(record)
    scratch.flush()
    if read is None:
        models = ImportModels(scratch.folder, [])
        opened.append(models)
        read = _Read(_folds(checked.header), models, None, None)
    return read


def _first_row(
    ledger: Ledger,
    header: dict[str, Any],
    first: tuple[int, Recorded],
    scratch: Scratch,
    read_models: ReadModels | None,
    opened: list[ImportModels | ChildModels],
) -> _Read:
    """What reading the lines starts with, at the file's ``first`` row (its line number and
    record; the header read): the read models are ``opened`` before anything else is done."""
    number, record = first
    folds = _folds(header)
    policy = _policy(header, scratch)
    models = _models_for(header, scratch, read_models)
    opened.append(models)
    computing = read_models is not None and bool(models.computed)
    early = _early(ledger, header, number, record) if computing else None
    if isinstance(models, ChildModels):  # told before any row is written to the scratch
        models.start(early[1] if early else None, header["system"])
    else:
        models.start(early[0] if early else None)
    return _Read(folds, models, early, policy)


def _check_report(report: Report, header: dict[str, Any], scratch: Scratch) -> None:
    """Refuse the file at the first thing ``verify`` would find wrong in the copy: a broken
    link, a seal or its dice, a digest its header does not give, a row of no ruling, ..."""
    if report.breaks:
        first = report.breaks[0]
        line = scratch.line(first.stream, first.version, scratch.count + 1)
        raise ImportRefused(line=line, field="event", problem=first.problem)
    if not all(s.intact for s in report.seals) or any(d.problems for d in report.dice):
        raise ImportRefused(line=1, field="seals", problem="a session seal or its dice fail")
    if report.events != header["events"] or report.digest != header.get("digest"):
        raise ImportRefused(line=1, field="digest", problem="the file does not match its header")
    if report.findings:
        finding = report.findings[0]
        stream, version = finding.stream, finding.version
        line = scratch.line(stream, version, 1) if stream and version is not None else 1
        raise ImportRefused(line=line, field="event", problem=on_one_line(finding.problem))


def _insert(ledger: Ledger, registration: StoredEvent, scratch: Scratch) -> tuple[int, int]:
    """Write the scratch store's rows into the store, the directory's registration first;
    the notification ids of the first and last rows written."""
    recorder: Any = ledger.store.recorder  # SQLite's and PostgreSQL's insert pages at once
    # The registration first, as `init` records it: its ruling's rows then come together in the
    # order recorded, which is how the read models take them (``engine.audit.log``).
    pages = [[registration], *scratch.pages()] if not hasattr(recorder, "insert_pages") else None
    try:
        with collector_paused():
            if hasattr(recorder, "insert_copied"):  # SQLite: copied from the scratch file by SQLite
                scratch.flush()
                first, last = recorder.insert_copied(
                    [registration], str(scratch.path), scratch.table
                )
            elif pages is None:
                first, last = recorder.insert_pages(
                    itertools.chain([[registration]], scratch.pages())
                )
            else:  # in memory: each page checked before any is written (a store of one process)
                for page in pages:
                    recorder._assert_uniqueness(page)
                ids = [i for page in pages for i in recorder.insert_events(page)]
                first, last = ids[0], ids[-1]
    except IntegrityError:
        raise ImportRefused(
            line=2, field="stream", problem="this campaign is in the store already"
        ) from None
    return first, last


def _policy(header: dict[str, Any], scratch: Scratch) -> PolicyWalk:
    """Who could make each ruling of the file, checked as its campaign's lines are read (the
    records decoded for the folds), folding the campaign from the rows read so far."""
    decode = scratch.store.mapper.to_domain_event
    return PolicyWalk(UUID(header["campaign_id"]), scratch.read_back(), decode)


def _check_actors(campaign_id: UUID, policy: PolicyWalk, scratch: Scratch) -> None:
    """Refuse the file at the first ruling the program never records for its actor, as
    ``verify`` would name it: an import leaves a log that verifies, or none."""
    refused = policy.refusals()
    if not refused:
        return
    first = refused[0]
    rule = f"{first.reason} ({first.code})" if first.code else first.reason
    raise ImportActorNotAllowed(
        line=scratch.line(campaign_id, first.version, 1),
        ruling=first.ruling,
        command=first.command,
        actor=on_one_line(first.actor, 80),
        rule=on_one_line(rule),
    )


def _keep_heads(ledger: Ledger, snapshots: list[Snapshot]) -> None:
    """A snapshot at each stream's head, from the states the import folded: the first load of a
    stream reads it instead of replaying the stream (a cache, as ``Streams`` keeps them:
    failing to write it changes nothing)."""
    store = ledger.store.snapshots
    if store is None or not snapshots:
        return
    with contextlib.suppress(Exception), collector_paused():
        store.put(snapshots)


def _verified(campaign_id: UUID, scratch: Scratch, streams: list[UUID]) -> Report:
    """``verify``'s checks of the rows (chains, rulings, seals, dice), which read the rows' raw
    bodies: a check that fails on a value it cannot read refuses the file at the first broken
    link (the value was changed), or else names the value it could not read."""
    try:
        return verify_stored(campaign_id, scratch.rows, streams, findings=True)
    except Exception as error:  # a value no check expected (a forged seed that is not hex, ...)
        for stream in streams:
            broken = check_stream(stream, _rows_of(scratch, stream))
            if broken is not None:
                line = scratch.line(stream, broken.version, 1)
                raise ImportRefused(line=line, field="event", problem=broken.problem) from None
        problem = f"cannot be checked ({error_line(error)})"
        raise ImportRefused(line=1, field="seals and dice", problem=problem) from None


def _rows_of(scratch: Scratch, stream: UUID) -> Iterator[StoredEvent]:
    for page in scratch.rows.pages(stream):
        yield from page


def _records_of(scratch: Scratch, stream: UUID) -> Iterator[Recorded]:
    decode = scratch.store.mapper.to_domain_event
    for row in _rows_of(scratch, stream):
        yield cast("Recorded", decode(row))


def _created(
    ledger: Ledger,
    campaign_id: UUID,
    header: dict[str, Any],
    own: list[Recorded],
    scratch: Scratch,
) -> StoredEvent:
    """The campaign's creation, put through `init`'s own checks (its name, that the name is
    free, its system and house rules): its directory entry, as the store's next row (written
    before the campaign's rows, with its first ruling's)."""
    created = own[0].event if own else None
    return _registration(ledger, campaign_id, header, created, scratch.line(campaign_id, 1, 2))[1]


def _registration(
    ledger: Ledger, campaign_id: UUID, header: dict[str, Any], created: Event | None, line: int
) -> tuple[Recorded, StoredEvent]:
    """``_created``, from the campaign's first event (read at ``line``): the directory entry's
    record and row."""
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
    (linked,), (row,) = encoded([record], {DIRECTORY_ID: last.chain if last else ""})
    return linked, row


def _early(
    ledger: Ledger, header: dict[str, Any], line: int, record: Recorded
) -> tuple[Recorded, StoredEvent] | None:
    """The directory entry made from the file's first record, when it is its campaign's
    creation (a file as `export` writes it): the read models take it first. None otherwise, or
    when it is refused (``_created`` refuses it in its turn, after the checks of the rows)."""
    campaign_id = UUID(header["campaign_id"])
    if record.originator_id != campaign_id or record.originator_version != 1:
        return None
    try:
        return _registration(ledger, campaign_id, header, record.event, line)
    except Exception:  # refused later, in order, by ``_created``
        return None


def _folds(header: dict[str, Any]) -> Folds:
    """The campaign's streams folded while the lines are read: the campaign's with the
    campaign's rules, every other with its system's."""
    evolve = ruleset_named(header["system"]).evolve_character
    return Folds(UUID(header["campaign_id"]), evolve_campaign, evolve)


def _replays(
    campaign_id: UUID, streams: list[UUID], scratch: Scratch, folds: Folds
) -> dict[UUID, Any]:
    """Every stream folds strictly, as loading it will (folded as it was read, ``Folds``, or
    from the rows kept when it holds corrections, a page at a time); only streams the
    campaign's rulings wrote to; every character of the roster has its stream. Returns each
    stream's state."""
    for stream in streams:
        if stream != campaign_id and (stream not in folds.touched or stream == DIRECTORY_ID):
            problem = "no ruling of this campaign wrote to this stream"
            first = scratch.recorder.select_events(stream, limit=1)[0].originator_version
            line = scratch.line(stream, first, 1)
            raise ImportRefused(line=line, field="stream", problem=problem)
    states: dict[UUID, Any] = {}
    for stream in [campaign_id, *(s for s in streams if s != campaign_id)]:
        if stream in folds.corrected:
            kind = evolve_campaign if stream == campaign_id else folds.character
            states[stream] = _folded(stream, kind, scratch)
        elif stream in folds.failed:
            line, problem = folds.failed[stream]
            raise ImportRefused(line=line, field="event", problem=problem)
        else:
            states[stream] = folds.states.get(stream)
    campaign = states[campaign_id]
    missing = {entry.character_id: entry for entry in campaign.roster}
    for stream, state in states.items():
        entry = missing.get(stream)
        if entry is not None and state is not None and getattr(state, "id", stream) == stream:
            del missing[stream]
    if missing:
        entry = next(iter(missing.values()))
        line = next(
            scratch.line(campaign_id, r.originator_version, 1)
            for r in _records_of(scratch, campaign_id)
            if isinstance(r.event, CharacterJoined) and r.event.character_id == entry.character_id
        )
        problem = f"character {value_shown(entry.name)} has no stream of its own that replays"
        raise ImportRefused(line=line, field="event", problem=problem)
    return states


def _folded(stream: UUID, evolve: Evolve, scratch: Scratch) -> Any:
    """The stream folded with its corrections applied, as ``Streams.load`` folds it (read a
    page at a time, its corrections first); a history that does not fold is refused at the line
    of the event that did not apply."""
    decode = scratch.store.mapper.to_domain_event
    found = [cast("Recorded", decode(row)) for row in scratch.rows.picked(stream, CORRECTIONS)]
    applying: list[Event | None] = [None]
    reading: list[Recorded | None] = [None]

    def tracked(event: Event, state: Any) -> Any:
        applying[0] = event
        return evolve(event, state)

    def records() -> Iterator[Recorded]:
        for record in _records_of(scratch, stream):
            reading[0] = record
            yield record

    try:
        return fold(records(), tracked, None, corrections(found))
    except Exception as error:  # whatever a rule makes of a history it was never given
        versions = {
            id(event): record.originator_version
            for record in found
            if isinstance(record.event, RulingAmended)
            for event in record.event.events
        }
        current = reading[0]
        if current is not None and applying[0] is current.event:
            versions[id(current.event)] = current.originator_version
        version = versions.get(id(applying[0]))
        line = scratch.line(stream, version if version is not None else 1, 1)
        said = str(error) if isinstance(error, HistoryConflict) else error_line(error)
        problem = f"does not replay: {on_one_line(said)}"
        raise ImportRefused(line=line, field="event", problem=problem) from None
