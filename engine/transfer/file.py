"""An export file read and checked line by line before anything is written: its header, then
each line's row as it will be stored, decoded with the program's own converter and refused unless
it is exactly what this program writes (and, for a ruling, a command its system knows)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import StoredEvent

from domain.errors import ImportNestedTooDeep, ImportOfMemberCopy
from domain.events import Event, RulingMade
from domain.rulesets import ruleset_named
from engine.audit.chain import MADE, Withheld
from engine.store.event_classes import command_classes, event_classes
from engine.store.mapper import (
    admitting,
    body_of,
    canonical_json,
    check_version,
    converter,
    decoded,
    loads,
    structured_as_written,
    with_chain,
)
from engine.store.recorders import stream_id
from engine.store.records import Recorded
from engine.transfer.format import (
    FORMAT,
    MAX_DEPTH,
    ImportRefused,
    error_line,
    line_text,
    too_deep,
    value_shown,
)


def read_export(
    lines: Iterable[str | bytes],
    progress: Callable[[int], None] | None = None,
    *,
    copies: bool = False,
) -> tuple[dict[str, Any], list[StoredEvent], dict[tuple[UUID, int], int]]:
    """Parse and check every line; refuse with the line and field that is wrong. With
    ``copies``, a member's copy is read too, each withheld line as a ``Withheld`` row."""
    export = read_checked(lines, progress, copies=copies)
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
    lines: Iterable[str | bytes],
    progress: Callable[[int], None] | None = None,
    *,
    copies: bool = False,
) -> Export:
    """Every line checked (``CheckedLines``) and kept: the rows, their lines, their records
    (none for a withheld line of a member's copy, read with ``copies``)."""
    rows: list[StoredEvent] = []
    records: list[Recorded] = []
    where: dict[tuple[UUID, int], int] = {}

    def withheld(number: int, row: Withheld) -> None:
        where[(stream_id(row.originator_id), row.originator_version)] = number
        rows.append(row)

    checked = CheckedLines(
        lines,
        progress,
        lambda stream, version: (stream, version) in where,
        withheld if copies else None,
    )
    for number, row, record in checked:
        where[(stream_id(row.originator_id), row.originator_version)] = number
        rows.append(row)
        records.append(record)
    return Export(checked.header, rows, where, records)


class CheckedLines:
    """An export's lines read and checked one at a time (an iterator of (line, row, record)):
    each line is checked before anything parses it deeply (length, UTF-8, nesting), then parsed:
    the header's system names the only event topics taken (never resolved), and every event
    decodes into its class exactly as this program writes it. ``header`` once the first line
    was read; ``seen(stream, version)`` says whether an earlier line held that version (each
    stream's versions come in order, so only a version below the last one read is asked).

    A member's copy (its header's ``copy_for``) is refused ``IMPORT_OF_MEMBER_COPY`` unless
    ``withheld`` is given: each withheld line is then handed to it as a ``Withheld`` row, in
    its place among the lines, and not yielded."""

    def __init__(
        self,
        lines: Iterable[str | bytes],
        progress: Callable[[int], None] | None,
        seen: Callable[[UUID, int], bool],
        withheld: Callable[[int, Withheld], None] | None = None,
    ) -> None:
        self._lines = lines
        self._progress = progress
        self._seen = seen
        self._withheld = withheld
        self._header: dict[str, Any] | None = None

    @property
    def header(self) -> dict[str, Any]:
        if self._header is None:
            raise ImportRefused(line=1, field="format", problem="the file is empty")
        return self._header

    def __iter__(self) -> Iterator[tuple[int, StoredEvent, Recorded]]:
        classes: dict[str, type[Event]] = {}  # the header's system's events (nested ones too)
        checked: set[str] = set()  # rulings' params already checked (many rulings repeat theirs)
        times = _Times()  # a ruling's rows share its time: read once
        payloads = _Payloads()
        # Each stream's id parsed once, with its last version read (a file is in recorded
        # order): one cell per stream, shared by every text naming it.
        streams: dict[str, tuple[UUID, list[int]]] = {}
        heads: dict[UUID, list[int]] = {}
        progress = self._progress
        copy: _Spans | None = None  # of a member's copy: the rows since the last header
        with admitting(classes):
            for number, line in enumerate(self._lines, start=1):
                if progress is not None:
                    progress(number)
                text = line_text(number, line)
                if not text or text.isspace():  # blank (``text.strip()`` copied each line)
                    continue
                data = _json(number, text)
                if self._header is None:
                    self._header = _header(number, data)
                    classes.update(event_classes(self._header["system"]))
                    copy = self._copy(self._header)
                    continue
                named = data.get("stream")
                found = streams.get(named) if isinstance(named, str) else None
                if found is None:
                    stream = _parse_uuid(number, "stream", named)
                    found = streams[str(named)] = (stream, heads.setdefault(stream, [0]))
                stream, cell = found
                kept: Withheld | None = None
                row: StoredEvent
                if copy is not None and "withheld" in data:
                    kept = row = _withheld(number, stream, data, classes, copy)
                else:
                    row, body, canonical, cls = _row(number, stream, data, classes)
                if copy is not None:
                    copy.add(stream, row.originator_version, row.topic)
                version, head = row.originator_version, cell[0]
                if version == head or (version < head and self._seen(stream, version)):
                    problem = "this event appears twice"
                    raise ImportRefused(line=number, field="version", problem=problem)
                if version < head:  # a gap: the chain walk's
                    problem = f"after version {head} of its stream: not in recorded order"
                    raise ImportRefused(line=number, field="version", problem=problem)
                cell[0] = version
                if kept is not None and self._withheld is not None:
                    self._withheld(number, kept)
                    continue
                system = self._header["system"]
                decoding = _decode(
                    number, row, body, canonical, cls, system, checked, times, payloads
                )
                yield number, row, decoding
        self.header  # noqa: B018 (an empty file is refused here)

    def _copy(self, header: dict[str, Any]) -> _Spans | None:
        """A member's copy is read only when its withheld lines are wanted; else refused."""
        member = header.get("copy_for")
        if member is None:
            return None
        if self._withheld is None:
            raise ImportOfMemberCopy(member=value_shown(member))
        return _Spans(UUID(header["campaign_id"]))


class _Spans:
    """The rows of a member's copy since the campaign stream's last header, in the order
    recorded: what a withheld header lists (each stream's first and last version)."""

    def __init__(self, campaign: UUID) -> None:
        self.campaign = campaign
        self.spans: dict[UUID, list[int]] = {}

    def add(self, stream: UUID, version: int, topic: str) -> None:
        span = self.spans.get(stream)
        if span is None:
            self.spans[stream] = [version, version]
        else:
            span[1] = version
        if stream == self.campaign and topic == MADE:
            self.spans = {}

    def touched(self) -> tuple[tuple[UUID, int, int], ...]:
        return tuple((stream, first, last) for stream, (first, last) in self.spans.items())


HEX64 = frozenset("0123456789abcdef")


def _withheld(
    number: int,
    stream: UUID,
    data: dict[str, Any],
    classes: Mapping[str, type[Event]],
    copy: _Spans,
) -> Withheld:
    """A withheld line of a member's copy as its row: its stream, version and topic as a
    whole line's, its body's digest and its link (``{"digest", "chain"}``, and ``"linked_over":
    "body"`` for a row linked over its body's bytes), nothing else."""
    version, topic, kept = data.get("version"), data.get("topic"), data.get("withheld")
    if type(version) is not int or version < 1:
        raise ImportRefused(line=number, field="version", problem="not a positive whole number")
    if not isinstance(topic, str) or topic not in classes:
        problem = f"unknown event type {value_shown(topic)}: not an event of this program"
        raise ImportRefused(line=number, field="topic", problem=problem)
    if "event" in data or not isinstance(kept, dict):
        problem = "a withheld line holds its digest and link alone"
        raise ImportRefused(line=number, field="withheld", problem=problem)
    digest, chain, over = kept.get("digest"), kept.get("chain"), kept.get("linked_over")
    for field, value in (("digest", digest), ("chain", chain)):
        if not (isinstance(value, str) and len(value) == 64 and set(value) <= HEX64):
            problem = f"{field}: not 64 hex digits"
            raise ImportRefused(line=number, field="withheld", problem=problem)
    if over not in (None, "body") or set(kept) - {"digest", "chain", "linked_over"}:
        problem = f"not a withheld row's keys: {value_shown(sorted(kept))}"
        raise ImportRefused(line=number, field="withheld", problem=problem)
    assert isinstance(chain, str)
    assert isinstance(digest, str)
    touched = copy.touched() if stream == copy.campaign and topic == MADE else ()
    return Withheld(
        originator_id=stream,
        originator_version=version,
        topic=topic,
        state=b'{"chain":"' + chain.encode() + b'"}',
        digest=digest,
        given=over == "body",
        touched=touched,
    )


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
        problem = f"expected {FORMAT!r}, got {value_shown(data.get('format'))}"
        raise ImportRefused(line=number, field="format", problem=problem)
    for field, kind in (("name", str), ("system", str), ("campaign_id", str), ("events", int)):
        if not isinstance(data.get(field), kind):
            raise ImportRefused(line=number, field=field, problem=f"missing or not {kind.__name__}")
    if "copy_for" in data and not isinstance(data["copy_for"], str):
        raise ImportRefused(line=number, field="copy_for", problem="not a member's name")
    _parse_uuid(number, "campaign_id", data["campaign_id"])
    ruleset_named(data["system"])  # an unknown system is refused as `init` refuses it
    return data


def _parse_uuid(number: int, field: str, value: Any) -> UUID:
    try:
        return UUID(str(value))
    except ValueError:
        raise ImportRefused(line=number, field=field, problem="not a UUID") from None


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
        problem = f"unknown event type {value_shown(topic)}: not an event of this program"
        raise ImportRefused(line=number, field="topic", problem=problem)
    if not isinstance(event, dict):
        raise ImportRefused(line=number, field="event", problem="not a JSON object")
    body = dict(event)
    chain = body.pop("chain", None)
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


class _Times:
    """The last time text read, and the time it reads as and is written back as (a ruling's
    rows share one time: each text is read once)."""

    def __init__(self) -> None:
        self.text: str | None = None
        self.time: datetime | None = None
        self.written = ""

    def read(self, text: str) -> datetime:
        if text != self.text or self.time is None:
            time = datetime.fromisoformat(text)  # refused as ``decoded`` refuses it
            self.text, self.time, self.written = text, time, time.isoformat()
        return self.time


class _Payloads:
    """``converter.structure``, remembering whether the last payload passed its class's
    write-back test (``structured_as_written``)."""

    def __init__(self) -> None:
        self.as_written = False

    def __call__(self, payload: Any, cls: type[Any]) -> Any:
        self.as_written = False
        event, self.as_written = structured_as_written(payload, cls)
        return event


_CLASS_VERSION = frozenset({*ENVELOPE, "event", "class_version"})
_NO_CLASS_VERSION = frozenset({*ENVELOPE, "event"})


def _decode(
    number: int,
    row: StoredEvent,
    body: dict[str, Any],
    canonical: bytes,
    cls: type[Event],
    system: str,
    checked: set[str],
    times: _Times,
    payloads: _Payloads,
) -> Recorded:
    """The row decoded with the program's own converter, refused unless, written back, it is
    what was read: every value of its type, in the form this program writes it.

    Where the body is provably what writing it back gives (its envelope as written, its time
    written back as read, its payload passing its class's ``writes_back`` test), it is not
    written back: the bytes compared would be equal."""
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
    written: dict[str, Any] | None = None
    try:
        stream, version = row.originator_id, row.originator_version
        record: Recorded = decoded(stream, version, cls, body, times.read, payloads)
        if not (payloads.as_written and _as_written(body, cls, stored, times)):
            written = body_of(record, times.written)
            exact = canonical_json(written) == canonical
        else:
            exact = True
    except Exception as error:  # whatever the converter makes of a hostile payload
        problem = f"not a {cls.__name__} ({error_line(error)})"
        raise ImportRefused(line=number, field="event", problem=problem) from None
    if not exact:  # upcast, a field left out for its default, or a difference (refused)
        assert written is not None
        _differences(number, cls, body, written)
    if isinstance(record.event, RulingMade) and record.event.params not in checked:
        _check_params(number, record.event, system)
        checked.add(record.event.params)
    return record


def _as_written(body: dict[str, Any], cls: type[Event], stored: int, times: _Times) -> bool:
    """Whether the envelope of ``body`` (decoded, its types checked; its payload passed its
    class's write-back test) is provably what ``body_of`` writes of its record: its keys and
    class version as written (no upcast), its time as written back. False says nothing."""
    known = _WRITTEN.get(cls)
    if known is None:
        current = getattr(cls, "class_version", 1)
        known = _WRITTEN[cls] = (current, _CLASS_VERSION if current > 1 else _NO_CLASS_VERSION)
    current, keys = known
    return (
        body.keys() == keys and (current == 1 or stored == current) and body["at"] == times.written
    )


_WRITTEN: dict[type[Event], tuple[int, frozenset[str]]] = {}


def _differences(
    number: int, cls: type[Event], body: dict[str, Any], written: dict[str, Any]
) -> None:
    """Refuse what differs between a body read and the body written back from its record;
    what may differ is the class version (upcast), and a payload field left out (its
    default: a field added with one, after the file was written)."""
    unknown = sorted(set(body) - _BODY)
    if unknown:
        problem = "not part of a stored event"
        raise ImportRefused(line=number, field=value_shown(unknown[0]), problem=problem)
    for key in ENVELOPE:
        value = body.get(key)
        if type(value) is not type(written[key]) or value != written[key]:
            problem = f"{value_shown(value)} is not as this program records it"
            raise ImportRefused(line=number, field=key, problem=problem)
    payload, kept = body["event"], written["event"]
    unknown = sorted(set(payload) - set(kept))
    if unknown:
        problem = f"{cls.__name__} has no field {value_shown(unknown[0])}"
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
    if too_deep(raw):
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
        problem = f"unknown command type {value_shown(topic)}: not a command of {system}"
        raise ImportRefused(line=number, field="params", problem=problem)
    try:
        converter.structure(params.get("args"), cls)
    except Exception as error:  # whatever the converter makes of hostile arguments
        problem = f"not a {cls.__name__} ({error_line(error)})"
        raise ImportRefused(line=number, field="params", problem=problem) from None
