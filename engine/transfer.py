"""Export a campaign as JSON lines and import it into any store, verified before anything is
written.

The file is a header line, then one line per stored event in the order they were recorded:
``{"stream", "version", "topic", "event"}`` where ``event`` is the stored body (its hash link
included). Importing re-creates the very same rows, so the copy verifies with the same digest.
The store's directory entry is written anew in the target store.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from importlib import import_module
from itertools import accumulate
from typing import TYPE_CHECKING, Any, BinaryIO
from uuid import UUID

import attrs
from attrs import frozen
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import get_topic

from domain import events as shared_events
from domain.campaign import Directory, evolve_campaign, evolve_directory
from domain.errors import (
    DomainError,
    HistoryConflict,
    ImportLineTooLong,
    ImportNestedTooDeep,
    ImportNotText,
)
from domain.events import CampaignCreated, CharacterJoined, Event, RulingAmended, RulingMade
from domain.lifecycle import create_campaign
from domain.plain import Plain
from domain.rulesets import SYSTEMS, ruleset_named
from engine.audit import Report, campaign_streams, check_stream, verify_rows
from engine.chain import encoded
from engine.mapper import (
    admitting,
    body_of,
    canonical_json,
    check_version,
    converter,
    decoded,
    loads,
    with_chain,
)
from engine.records import DIRECTORY_ID, Recorded
from engine.streams import Evolve, corrections, fold
from engine.topics import with_old_names

if TYPE_CHECKING:
    from domain.campaign import DirectoryEntry
    from engine.ledger import Ledger
    from engine.store import CampaignStore

FORMAT = "campaign-log/1"
PAGE = 1000


class ImportRefused(DomainError):
    template = "line {line}: {field}: {problem}; nothing was imported"


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


def read_export(
    lines: Iterable[str | bytes], progress: Callable[[int], None] | None = None
) -> tuple[dict[str, Any], list[StoredEvent], dict[tuple[UUID, int], int]]:
    """Parse and check every line; refuse with the line and field that is wrong."""
    export = read_checked(lines, progress)
    return export.header, export.rows, export.where


@frozen
class Export:
    """A file read and checked line by line: its header, its rows as they will be stored, each
    row's line, and each row decoded (``records[i]`` is ``rows[i]``)."""

    header: dict[str, Any]
    rows: list[StoredEvent]
    where: dict[tuple[UUID, int], int]
    records: list[Recorded]


def read_checked(
    lines: Iterable[str | bytes], progress: Callable[[int], None] | None = None
) -> Export:
    """Check every line before anything parses it deeply (length, UTF-8, nesting), then parse
    it: the header's system names the only event topics taken (never resolved), and every event
    decodes into its class exactly as this program writes it."""
    header: dict[str, Any] | None = None
    classes: dict[str, type[Event]] = {}  # the header's system's events (nested ones too)
    checked: set[str] = set()  # rulings' params already checked (many rulings repeat theirs)
    rows: list[StoredEvent] = []
    records: list[Recorded] = []
    where: dict[tuple[UUID, int], int] = {}
    streams: dict[str, UUID] = {}  # each stream's id parsed once
    heads: dict[UUID, int] = {}  # each stream's last version read: a file is in recorded order
    with admitting(classes):
        for number, line in enumerate(lines, start=1):
            if progress is not None:
                progress(number)
            text = _text(number, line)
            if not text.strip():
                continue
            data = _json(number, text)
            if header is None:
                header = _header(number, data)
                classes.update(event_classes(header["system"]))
                continue
            named = data.get("stream")
            stream = streams.get(named) if isinstance(named, str) else None
            if stream is None:
                stream = _parse_uuid(number, "stream", named)
                streams[str(named)] = stream
            row, body, canonical, cls = _row(number, stream, data, classes)
            key = (stream, row.originator_version)
            if key in where:
                problem = "this event appears twice"
                raise ImportRefused(line=number, field="version", problem=problem)
            where[key] = number
            if row.originator_version < heads.get(stream, 0):  # a gap: the chain walk's
                problem = f"after version {heads[stream]} of its stream: not in recorded order"
                raise ImportRefused(line=number, field="version", problem=problem)
            heads[stream] = row.originator_version
            system = header["system"]
            records.append(_decode(number, row, body, canonical, cls, system, checked))
            rows.append(row)
    if header is None:
        raise ImportRefused(line=1, field="format", problem="the file is empty")
    return Export(header, rows, where, records)


# Bounds a line is held to before it is parsed. The longest line the program writes is about a
# kilobyte (a ruling's header or a session's seal: at most 1,006 bytes over the four example
# campaigns); 1 MiB is a thousand times that (a seal over ~7,000 streams, a note of a million
# characters) and keeps what a hostile line costs to parse small. An event nests about eight
# levels deep (line, body, event, an amendment's events, their values): 64 is far past that, and
# far below what would exhaust a recursive parser.
MAX_LINE = 1 << 20  # bytes, its newline included
MAX_DEPTH = 64
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def file_lines(handle: BinaryIO) -> Iterator[bytes]:
    """A file's lines as bytes, none read past ``MAX_LINE`` + 1 bytes: a longer line is refused
    by its length before the rest of it is read."""
    while line := handle.readline(MAX_LINE + 1):
        yield line


def _text(number: int, line: str | bytes) -> str:
    """The line as text, once it is known to be short enough, UTF-8 and not nested too deep."""
    try:
        raw = line.encode() if isinstance(line, str) else line
        text = line if isinstance(line, str) else line.decode()
    except UnicodeError:
        raise ImportNotText(line=number) from None
    if len(raw) > MAX_LINE:
        raise ImportLineTooLong(line=number, limit=MAX_LINE)
    if _too_deep(raw):
        raise ImportNestedTooDeep(line=number, limit=MAX_DEPTH)
    return text


def _too_deep(raw: bytes) -> bool:
    """Whether the JSON in ``raw`` nests deeper than ``MAX_DEPTH``, found without parsing it and
    without recursion: escaped backslashes and quotes are dropped, then every byte but quotes
    and brackets, then what lies between quotes (text); the depth is the highest running count
    of brackets opened less those closed. (A line with too few brackets is not scanned.)"""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    brackets = b"".join(plain.split(b'"')[::2])
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH


def _json(number: int, text: str) -> dict[str, Any]:
    try:
        data = loads(text)
    except ValueError as error:
        raise ImportRefused(line=number, field="(line)", problem=f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ImportRefused(line=number, field="(line)", problem="not a JSON object")
    return data


def _header(number: int, data: dict[str, Any]) -> dict[str, Any]:
    if data.get("format") != FORMAT:
        problem = f"expected {FORMAT!r}, got {_shown(data.get('format'))}"
        raise ImportRefused(line=number, field="format", problem=problem)
    for field, kind in (("name", str), ("system", str), ("campaign_id", str), ("events", int)):
        if not isinstance(data.get(field), kind):
            raise ImportRefused(line=number, field=field, problem=f"missing or not {kind.__name__}")
    _parse_uuid(number, "campaign_id", data["campaign_id"])
    ruleset_named(data["system"])  # an unknown system is refused as `init` refuses it
    return data


def _parse_uuid(number: int, field: str, value: Any) -> UUID:
    try:
        return UUID(str(value))
    except ValueError:
        raise ImportRefused(line=number, field=field, problem="not a UUID") from None


@cache
def event_classes(system: str) -> Mapping[str, type[Event]]:
    """The events a campaign of ``system`` may hold, by topic: every ``Event`` subclass defined
    in ``domain.events`` and in the system's own ``events`` module, found from the classes (one
    added there is taken with no list to keep). An import takes no other topic and resolves
    none: resolving a topic imports the module it names."""
    modules = [shared_events, import_module(f"domain.rulesets.{SYSTEMS[system]}.events")]
    found = {
        get_topic(value): value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Event)
        and value is not Event
        and value.__module__ == module.__name__
    }
    return with_old_names(found)


@cache
def command_classes(system: str) -> Mapping[str, type[Any]]:
    """The commands a ruling of a ``system`` campaign may record in its ``params`` (which undo
    and amend decide again from), by topic: every command class the shared commands and the
    shared commands (``domain.lifecycle``, ``domain.table``) and the system's ``commands`` module
    name, found from the classes."""
    modules = [import_module("domain.lifecycle"), import_module("domain.table")]
    modules.append(import_module(f"domain.rulesets.{SYSTEMS[system]}.commands"))
    found: dict[str, type[Any]] = {}
    for module in modules:
        for name in dir(module):
            value = getattr(module, name)
            if (
                isinstance(value, type)
                and attrs.has(value)
                and callable(getattr(value, "decide", None))
                and isinstance(getattr(value, "name", None), str)
            ):
                found[get_topic(value)] = value
    return with_old_names(found)


def _row(
    number: int, stream: UUID, data: dict[str, Any], classes: Mapping[str, type[Event]]
) -> tuple[StoredEvent, dict[str, Any], bytes, type[Event]]:
    """The row as it will be stored, its body (parsed, without its link) and that body's
    canonical bytes (what the link is over), and its class."""
    version, topic, event = data.get("version"), data.get("topic"), data.get("event")
    if type(version) is not int or version < 1:
        raise ImportRefused(line=number, field="version", problem="not a positive whole number")
    if not isinstance(topic, str):
        raise ImportRefused(line=number, field="topic", problem="missing")
    cls = classes.get(topic)
    if cls is None:
        problem = f"unknown event type {_shown(topic)}: not an event of this program"
        raise ImportRefused(line=number, field="topic", problem=problem)
    if not isinstance(event, dict):
        raise ImportRefused(line=number, field="event", problem="not a JSON object")
    body = {key: value for key, value in event.items() if key != "chain"}
    chain = event.get("chain")
    try:
        canonical = canonical_json(body)
    except (TypeError, ValueError):  # a lone surrogate (\ud800) is not UTF-8
        problem = "holds text that is not valid Unicode"
        raise ImportRefused(line=number, field="event", problem=problem) from None
    state = with_chain(canonical, chain if isinstance(chain, str) else "")
    row = StoredEvent(originator_id=stream, originator_version=version, topic=topic, state=state)
    return row, body, canonical, cls


ENVELOPE = ("at", "ruling", "actor", "session", "scene")
_ENVELOPE_TYPES: tuple[tuple[str, tuple[type[Any], ...]], ...] = (
    ("at", (str,)),
    ("ruling", (int,)),
    ("actor", (str,)),
    ("session", (int, type(None))),
    ("scene", (int, type(None))),
)
_BODY = frozenset({*ENVELOPE, "event", "class_version"})


def _decode(
    number: int,
    row: StoredEvent,
    body: dict[str, Any],
    canonical: bytes,
    cls: type[Event],
    system: str,
    checked: set[str],
) -> Recorded:
    """The row decoded with the program's own converter, refused unless, written back, it is
    what was read: every value of its type, in the form this program writes it."""
    stored = body.get("class_version", 1)
    if type(stored) is not int or stored < 1:
        problem = "not a positive whole number"
        raise ImportRefused(line=number, field="class_version", problem=problem)
    if stored > 1:
        check_version(cls, stored, f"line {number}")
    for key, kinds in _ENVELOPE_TYPES:
        if type(body.get(key)) not in kinds:
            problem = f"missing or not {' or '.join(kind.__name__ for kind in kinds)}"
            raise ImportRefused(line=number, field=key, problem=problem)
    try:
        record: Recorded = decoded(row.originator_id, row.originator_version, cls, body)
        written = body_of(record)
        exact = canonical_json(written) == canonical
    except Exception as error:  # whatever the converter makes of a hostile payload
        problem = f"not a {cls.__name__} ({_said(error)})"
        raise ImportRefused(line=number, field="event", problem=problem) from None
    if not exact:  # upcast, a field left out for its default, or a difference (refused)
        _differences(number, cls, body, written)
    if isinstance(record.event, RulingMade) and record.event.params not in checked:
        _check_params(number, record.event, system)
        checked.add(record.event.params)
    return record


def _differences(
    number: int, cls: type[Event], body: dict[str, Any], written: dict[str, Any]
) -> None:
    """Refuse what differs between a body read and the body written back from its record;
    what may differ is the class version (upcast), and a payload field left out (its
    default: a field added with one, after the file was written)."""
    unknown = sorted(set(body) - _BODY)
    if unknown:
        problem = "not part of a stored event"
        raise ImportRefused(line=number, field=_shown(unknown[0]), problem=problem)
    for key in ENVELOPE:
        value = body.get(key)
        if type(value) is not type(written[key]) or value != written[key]:
            problem = f"{_shown(value)} is not as this program records it"
            raise ImportRefused(line=number, field=key, problem=problem)
    payload, kept = body["event"], written["event"]
    unknown = sorted(set(payload) - set(kept))
    if unknown:
        problem = f"{cls.__name__} has no field {_shown(unknown[0])}"
        raise ImportRefused(line=number, field="event", problem=problem)
    for key in sorted(payload):
        if canonical_json(payload[key]) != canonical_json(kept[key]):
            problem = f"{cls.__name__}.{key} is not as this program writes it"
            raise ImportRefused(line=number, field="event", problem=problem)


def _check_params(number: int, made: RulingMade, system: str) -> None:
    """A ruling's command, which undo and amend decide again: a JSON object (checked like a
    line), whose topic, when it names one, is a command of the campaign's system, and whose
    arguments decode into it."""
    raw = made.params.encode()
    if _too_deep(raw):
        raise ImportNestedTooDeep(line=number, limit=MAX_DEPTH)
    try:
        params = loads(raw)
    except ValueError:
        params = None
    if not isinstance(params, dict):
        raise ImportRefused(line=number, field="params", problem="not a JSON object")
    if "topic" not in params:  # init, undo and amend record their own parameters
        return
    topic = params["topic"]
    cls = command_classes(system).get(topic) if isinstance(topic, str) else None
    if cls is None:
        problem = f"unknown command type {_shown(topic)}: not a command of {system}"
        raise ImportRefused(line=number, field="params", problem=problem)
    try:
        converter.structure(params.get("args"), cls)
    except Exception as error:  # whatever the converter makes of hostile arguments
        problem = f"not a {cls.__name__} ({_said(error)})"
        raise ImportRefused(line=number, field="params", problem=problem) from None


def _shown(value: Any) -> str:
    """A value from the file, shown on one short line."""
    shown = repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def _said(error: BaseException) -> str:
    """An error, on one short line."""
    said = _one_line(str(error), 100)
    return f"{type(error).__name__}: {said}" if said else type(error).__name__


def _one_line(text: str, most: int = 160) -> str:
    """Text (which may hold what the file held) on one line of at most ``most`` characters."""
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return text if len(text) <= most else text[: most - 3] + "..."


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
        raise ImportRefused(line=line, field="event", problem=_one_line(finding.problem))
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
        problem = f"cannot be checked ({_said(error)})"
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
            problem = f"character {_shown(entry.name)} has no stream of its own that replays"
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
        said = str(error) if isinstance(error, HistoryConflict) else _said(error)
        problem = f"does not replay: {_one_line(said)}"
        raise ImportRefused(line=line, field="event", problem=problem) from None
