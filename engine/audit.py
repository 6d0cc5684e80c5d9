"""`campaign verify`: walk every chain and seal of a campaign in the store's raw rows, check that
every stored row belongs to a ruling and every ruling's rows are there, then replay every stream
with the rules and compare every stored snapshot with the state at its version.

The structural checks (``verify_rows``, also run on an export being imported) work on the stored
bytes, so a row that no longer decodes is reported rather than crashing the check; the replay
(``verify`` on a store) decodes each row and reports the first that does not decode or apply.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

import attrs
from attrs import frozen
from eventsourcing.persistence import StoredEvent

from domain.campaign import evolve_campaign, evolve_directory
from domain.dice import Provenance
from domain.errors import DomainError, HistoryConflict, ReplayMismatch
from domain.events import CORRECTIONS, Event, RulingAmended, RulingRetracted
from domain.plain import Plain
from engine.chain import genesis, link, seal, stored_link
from engine.committed_dice import commitment, key, mixed, replay
from engine.mapper import EDITED, UNLINKED, canonical_json, loads, read_snapshot, split_chain
from engine.records import DIRECTORY_ID as DIRECTORY
from engine.records import Recorded, Snapshot
from engine.streams import Evolve, corrections, fold

if TYPE_CHECKING:
    from engine.store import CampaignStore

MADE = "domain.events:RulingMade"
SEALED = "domain.events:SessionSealed"
COMMITTED = "domain.events:DiceCommitted"
REVEALED = "domain.events:DiceRevealed"
ENTROPY = "domain.events:EntropyAdded"


@frozen
class Break(Plain):
    """The first place a stream's chain does not hold."""

    stream: UUID
    version: int
    ruling: int | None
    problem: str


@frozen
class Seal(Plain):
    session: int
    digest: str
    intact: bool
    problem: str = ""  # why it is broken: a head that is not the stored one, or the digest


@frozen
class Finding(Plain):
    """Something besides a broken chain that does not hold, named by where it is as far as that
    is known. ``kind``: ``ruling`` (headers and the versions they claim), ``orphan`` (a row of
    no ruling), ``seal`` (a missing seal or a break in their chain), ``dice``, ``snapshot``,
    ``replay`` (a history that does not decode or apply), ``rewritten`` (rows whose links are
    no longer those a seal or snapshot recorded), ``directory``."""

    kind: str
    problem: str
    stream: UUID | None = None
    version: int | None = None
    ruling: int | None = None
    session: int | None = None


@frozen
class DiceCheck(Plain):
    """A session's committed dice: how many rulings rolled them and whether they check out."""

    session: int
    rulings: int
    revealed: bool
    problems: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    seed_hash: str = ""  # the commitment the GM published when the session started
    entropy: tuple[tuple[str, str], ...] = ()  # (who, words) the players added after it


@frozen
class Report(Plain):
    streams: int
    events: int
    seals: tuple[Seal, ...]
    breaks: tuple[Break, ...]
    dice: tuple[DiceCheck, ...] = ()
    digest: str = ""  # over every stream's head: a log and its copy give the same digest
    findings: tuple[Finding, ...] = ()
    replayed: int = 0  # streams folded with the rules (``verify`` on a store; not on an import)
    snapshots: int = 0  # stored snapshots compared with the replay

    @property
    def intact(self) -> bool:
        return (
            not self.breaks
            and all(s.intact for s in self.seals)
            and all(not d.problems for d in self.dice)
            and not self.findings
        )


def _rows(store: CampaignStore, stream: UUID) -> Sequence[StoredEvent]:
    return store.recorder.select_events(stream)


def _body(row: StoredEvent) -> dict[str, Any] | None:
    try:
        body: dict[str, Any] = loads(row.state)
    except (ValueError, UnicodeDecodeError):
        return None
    return body


def check_stream(
    stream: UUID, rows: Sequence[StoredEvent], owner: Callable[[int], int | None] | None = None
) -> Break | None:
    """Walk one stream's chain from its genesis; the first row that does not link is reported.

    A row written chain first is checked over its own bytes; any other is parsed, its link
    taken out and its body encoded canonically again (older stores wrote the link among the
    sorted keys). ``owner`` names the ruling whose header claims a version (for a missing row,
    the only way to name it; for a changed one, the ruling it says is its own comes first)."""
    previous = genesis(stream)
    name = str(stream)
    for expected, row in enumerate(rows, start=1):
        if row.originator_version != expected:
            ruling = owner(expected) if owner is not None else None
            return Break(stream, expected, ruling, f"version {expected} is missing")
        fast = split_chain(row.state)
        if fast is not None and link(previous, name, expected, row.topic, fast[1]) == fast[0]:
            previous = fast[0]
            continue
        body = _body(row)
        claimed = owner(expected) if owner is not None else None
        if not isinstance(body, dict):
            return Break(stream, expected, claimed, "the stored event is not readable")
        ruling = body.get("ruling") if isinstance(body.get("ruling"), int) else claimed
        chain = body.pop("chain", None)
        if not chain:
            return Break(stream, expected, ruling, "the event has no chain link")
        if link(previous, stream, expected, row.topic, canonical_json(body)) != chain:
            return Break(stream, expected, ruling, "the event was changed or moved")
        previous = chain
    return None


def campaign_streams(campaign_id: UUID, campaign_rows: Sequence[StoredEvent]) -> list[UUID]:
    """The campaign's stream and every stream its rulings wrote to (not the store's directory,
    which every campaign of the store shares)."""
    streams = [campaign_id]
    for row in campaign_rows:
        if row.topic == MADE:
            for span in (_body(row) or {}).get("event", {}).get("touched", []):
                stream = UUID(span["stream"])
                if stream not in streams and stream != DIRECTORY:
                    streams.append(stream)
    return streams


def verify(store: CampaignStore, campaign_id: UUID) -> Report:
    """Check every stream the campaign's rulings wrote to, every ruling's ranges, every seal,
    the store's directory entry; then replay every stream with the rules and compare every
    stored snapshot with the state at its version."""
    campaign_rows = _rows(store, campaign_id)
    read = _read(campaign_id, campaign_rows)  # each row of the campaign stream parsed once
    streams = [campaign_id, *(s for s in read[0].touched if s != campaign_id)]
    streams += [s for s in _roster(campaign_rows) if s not in streams]
    rows = {campaign_id: campaign_rows, **{s: _rows(store, s) for s in streams[1:]}}
    stored = {s: _stored_snapshots(store, s) for s in [*streams, DIRECTORY]}
    anchors = {s: _snapshot_anchors(found) for s, found in stored.items() if s != DIRECTORY}
    report, ledger = _verify_rows(campaign_id, rows, anchors, read)
    findings = list(report.findings)
    breaks = list(report.breaks)
    directory_rows = _rows(store, DIRECTORY)
    broken = check_stream(DIRECTORY, directory_rows)
    if broken is not None:
        breaks.append(broken)
    replay = _Replay(store, ledger)
    for stream, found in rows.items():
        findings += replay.stream(stream, found, stored[stream])
    findings += replay.stream(DIRECTORY, directory_rows, stored[DIRECTORY])
    findings += _directory_findings(replay, ledger)
    return attrs.evolve(
        report,
        breaks=tuple(breaks),
        findings=_ordered(findings),
        replayed=replay.replayed,
        snapshots=replay.compared,
    )


def verify_rows(
    campaign_id: UUID, rows: Mapping[UUID, Sequence[StoredEvent]], *, findings: bool = False
) -> Report:
    """Check the rows of a campaign's streams (from a store, or from an export being imported):
    chains, the rulings' ranges, seals (and their chain) and dice; with ``findings``, also
    every ruling's header and the versions it claims, missing seals, counters (``Finding``)."""
    report = _verify_rows(campaign_id, rows, {})[0]
    return report if findings else attrs.evolve(report, findings=())


def _read(campaign_id: UUID, campaign_rows: Sequence[StoredEvent]) -> tuple[_Ledger, _Dice]:
    """What the campaign stream's rows say of its rulings and sessions, and of its dice."""
    ledger = _Ledger(campaign_id)
    dice = _Dice()
    for row in campaign_rows:
        body = _body(row)
        if not isinstance(body, dict):
            continue  # not readable: its chain check names it
        try:
            dice.read(row.topic, body)
            ledger.read(row, body)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            version = row.originator_version
            problem = f"version {version} does not read as a {row.topic} ({_why(error)})"
            ledger.problems.append(Finding("ruling", problem, campaign_id, version))
    return ledger, dice


def _verify_rows(
    campaign_id: UUID,
    rows: Mapping[UUID, Sequence[StoredEvent]],
    anchors: Mapping[UUID, Sequence[tuple[int, str, str]]],
    read: tuple[_Ledger, _Dice] | None = None,
) -> tuple[Report, _Ledger]:
    """``verify_rows``, with more recorded links to hold the streams to (``anchors``: stream ->
    (version, link, who recorded it), from stored snapshots) and the campaign stream ``read``
    already; returns the ledger too."""
    ledger, dice = read or _read(campaign_id, rows.get(campaign_id, ()))
    breaks = [
        b
        for stream, found in rows.items()
        if (b := check_stream(stream, found, ledger.owner(stream)))
    ]
    for number, stream, last in ledger.ranges:
        found = rows.get(stream, ())
        end = found[-1].originator_version if found else 0
        if end < last and not any(b.stream == stream for b in breaks):
            problem = f"ruling {number} wrote up to version {last}; the stream ends before it"
            breaks.append(Break(stream, end + 1, number, problem))
    seals = tuple(_check_seal(event, rows) for _, event in ledger.sealed)
    findings = ledger.findings(rows)
    findings += _rewritten(rows, ledger, breaks, anchors)
    events = sum(len(found) for found in rows.values())
    ordered = tuple(sorted(breaks, key=lambda b: (b.ruling or 0, str(b.stream))))
    report = Report(
        streams=len(rows),
        events=events,
        seals=seals,
        breaks=ordered,
        dice=dice.checks(),
        digest=heads_digest(rows),
        findings=_ordered(findings),
    )
    return report, ledger


def heads_digest(rows: Mapping[UUID, Sequence[StoredEvent]]) -> str:
    """One digest over every stream's last version and link: equal for equal logs."""
    heads = {}
    for stream, found in rows.items():
        if found:
            last = _body(found[-1]) or {}
            heads[stream] = (found[-1].originator_version, str(last.get("chain", "")))
    return seal(heads)


class _Commitment:
    """One commitment of a session's dice (a session started again has several): its hash, the
    entropy given with it and added after it, its committed rolls and its reveal."""

    def __init__(self, session: int, seed_hash: str, entropy: str) -> None:
        self.session = session
        self.seed_hash = seed_hash
        self.given = entropy
        self.added: list[tuple[str, str]] = []
        self.rolls: list[dict[str, Any]] = []
        self.seed: str | None = None
        self.counters: int | None = None  # the counters used in all, as the reveal says


class _Dice:
    """Collects each session's commitments (in log order), the entropy added to each, their
    committed rolls and reveals, then recomputes them."""

    def __init__(self) -> None:
        self.commitments: list[_Commitment] = []
        self.current: dict[int, _Commitment] = {}  # the latest commitment of each session

    def read(self, topic: str, body: dict[str, Any]) -> None:
        event = body.get("event", {})
        if topic == COMMITTED:
            committed = _Commitment(event["session"], event["seed_hash"], event["entropy"])
            self.commitments.append(committed)
            self.current[committed.session] = committed
        elif topic == ENTROPY and event.get("session") in self.current:
            self.current[event["session"]].added.append((event["by"], event["words"]))
        elif topic == REVEALED and event.get("session") in self.current:
            self.current[event["session"]].seed = event["seed"]
            self.current[event["session"]].counters = event.get("counters")
        elif topic == MADE and event.get("counter") is not None:
            session = body.get("session") or 0
            if session in self.current:
                self.current[session].rolls.append(event)

    def checks(self) -> tuple[DiceCheck, ...]:
        checks = [self._check(c) for c in self.commitments]
        return tuple(sorted(checks, key=lambda c: c.session))

    def _check(self, c: _Commitment) -> DiceCheck:
        warnings = []
        if c is not self.current[c.session] and c.added:
            warnings.append(
                f"session {c.session} was started again after players added entropy: its "
                "first seed was set aside"
            )
        problems = _counters(c.rolls, c.counters)

        def check(revealed: bool) -> DiceCheck:
            return DiceCheck(
                c.session,
                len(c.rolls),
                revealed,
                tuple(problems),
                tuple(warnings),
                c.seed_hash,
                tuple(c.added),
            )

        if c.seed is None:
            return check(False)
        try:
            secret = bytes.fromhex(c.seed)
        except (TypeError, ValueError):
            problems.append("the revealed seed is not a hex string")
            return check(True)
        if commitment(secret) != c.seed_hash:
            problems.append("the revealed seed is not the one committed")
            return check(True)
        derived = key(secret, mixed(c.given, c.added))
        for made in c.rolls:
            sides = tuple(d["sides"] for d in made["dice"])
            faces, draws = replay(derived, made["counter"], sides)
            if faces != tuple(d["face"] for d in made["dice"]) or draws != made["draws"]:
                problems.append(f"ruling {made['number']}: the dice do not follow from the seed")
        return check(True)


def _counters(rolls: Sequence[dict[str, Any]], used: int | None) -> list[str]:
    """A commitment's rolls use its counters 0, 1, 2... in log order, each once, up to the
    number its reveal says were used: every gap or repeat is named (undone rulings keep their
    headers, so they count too)."""
    problems = []
    expected = 0
    for made in rolls:
        if made["counter"] != expected:
            problems.append(
                f"ruling {made['number']}: committed dice from counter {made['counter']}, "
                f"expected {expected} (counters run 0, 1, 2... without gaps or repeats)"
            )
        expected = made["counter"] + made["draws"]
    if used is not None and used != expected:
        problems.append(
            f"the reveal says the session's committed dice used {used} counters; the rolls "
            f"recorded used {expected}"
        )
    return problems


def _check_seal(event: dict[str, Any], rows: Mapping[UUID, Sequence[StoredEvent]]) -> Seal:
    """A seal holds when every head it lists is the stored one and its digest is over them and
    the seal before it (``previous``)."""
    heads: dict[UUID, tuple[int, str]] = {}
    problem = ""
    number = event.get("number", 0)
    digest = str(event.get("digest", ""))
    try:
        for head in event.get("heads", []):
            stream, version, chain = UUID(head["stream"]), int(head["version"]), head["chain"]
            heads[stream] = (version, chain)
            if not problem and _link_at(rows.get(stream, ()), version) != chain:
                problem = f"stream {stream} version {version} is not the event it sealed"
        expected = seal(heads, str(event.get("previous", "")))
    except (KeyError, TypeError, ValueError, AttributeError):
        return Seal(number, digest, False, "the seal does not read")
    if not problem and expected != digest:
        problem = "its digest is not over the heads it lists"
    return Seal(number if isinstance(number, int) else 0, digest, not problem, problem)


# --- What the campaign stream says: rulings, the versions they claim, sessions and seals ------

STARTED = "domain.events:SessionStarted"
ENDED = "domain.events:SessionEnded"
CREATED = "domain.events:CampaignCreated"
JOINED = "domain.events:CharacterJoined"
REGISTERED = "domain.events:CampaignRegistered"
CHECKPOINT = 1000  # the replay keeps the state every this many versions (see ``_states``)


@frozen
class _Header(Plain):
    version: int
    number: Any  # an int unless the row was forged
    envelope: Any  # the ruling its envelope names
    session: Any
    event: dict[str, Any]


class _Ledger:
    """What a campaign stream's rows say: each ruling's header and the versions it claims on
    each stream, the sessions started, ended and sealed, the dice committed and revealed."""

    def __init__(self, campaign_id: UUID) -> None:
        self.campaign_id = campaign_id
        self.headers: list[_Header] = []
        self.spans: dict[UUID, list[tuple[int, int, int]]] = {}  # stream: (first, last, ruling)
        self.ranges: list[tuple[int, UUID, int]] = []  # (ruling, stream, last): the tail check
        self.sealed: list[tuple[int, dict[str, Any]]] = []  # (version, event)
        self.started: list[Any] = []
        self.ended: list[tuple[Any, int]] = []  # (session, version)
        self.committed: dict[Any, int] = {}  # session: version of its latest commitment
        self.revealed: dict[Any, int] = {}  # session: version of its latest reveal
        self.created: dict[str, Any] | None = None
        self.problems: list[Finding] = []
        self._index: dict[UUID, tuple[list[int], list[tuple[int, int, int]]]] = {}
        self._uuids: dict[str, UUID] = {}
        self.touched: dict[UUID, None] = {}  # every stream a header claims versions of, in order

    def read(self, row: StoredEvent, body: dict[str, Any]) -> None:
        given = body.get("event")
        event: dict[str, Any] = given if isinstance(given, dict) else {}
        version, topic = row.originator_version, row.topic
        if topic == MADE:
            number = event.get("number")
            header = _Header(version, number, body.get("ruling"), body.get("session"), event)
            self.headers.append(header)
            touched = event.get("touched")
            for span in touched if isinstance(touched, list) else []:
                try:
                    named = str(span["stream"])
                    stream = self._uuids.get(named) or self._uuids.setdefault(named, UUID(named))
                    first, last = int(span["first"]), int(span["last"])
                except (KeyError, TypeError, ValueError):
                    problem = f"ruling {number}'s header lists a range that does not read"
                    self.problems.append(
                        Finding("ruling", problem, self.campaign_id, version, _int(number))
                    )
                    continue
                if stream != DIRECTORY:
                    self.touched[stream] = None
                if stream != DIRECTORY and isinstance(number, int):
                    self.spans.setdefault(stream, []).append((first, last, number))
                    self.ranges.append((number, stream, last))
        elif topic == SEALED:
            self.sealed.append((version, event))
        elif topic == STARTED:
            self.started.append(event.get("number"))
        elif topic == ENDED:
            self.ended.append((event.get("number"), version))
        elif topic == COMMITTED:
            self.committed[event.get("session")] = version
        elif topic == REVEALED:
            self.revealed[event.get("session")] = version
        elif topic == CREATED and self.created is None:
            self.created = event

    @property
    def numbers(self) -> set[int]:
        return {h.number for h in self.headers if isinstance(h.number, int)}

    def _spans(self, stream: UUID) -> tuple[list[int], list[tuple[int, int, int]]]:
        if stream not in self._index:
            spans = sorted(self.spans.get(stream, ()))
            self._index[stream] = ([first for first, _, _ in spans], spans)
        return self._index[stream]

    def owner(self, stream: UUID) -> Callable[[int], int | None]:
        """The ruling whose header claims a version of ``stream`` (None: no header does)."""
        firsts, spans = self._spans(stream)

        def of(version: int) -> int | None:
            at = bisect_right(firsts, version) - 1
            if at >= 0 and spans[at][1] >= version:
                return spans[at][2]
            return None

        return of

    def findings(self, rows: Mapping[UUID, Sequence[StoredEvent]]) -> list[Finding]:
        return [
            *self.problems,
            *self._numbering(),
            *self._claims(rows),
            *self._seal_chain(),
            *self._missing_seals(),
            *self._dice(),
        ]

    def _numbering(self) -> Iterator[Finding]:
        """Headers are numbered 1, 2, 3... in the order recorded, each once, and each header's
        envelope names its own ruling."""
        campaign = self.campaign_id
        expected = 1
        first_at: dict[int, int] = {}
        for h in self.headers:
            number, version = h.number, h.version
            if not isinstance(number, int):
                yield Finding("ruling", "a header without a ruling number", campaign, version)
                continue
            if number in first_at:
                twice = f"versions {first_at[number]} and {version}"
                problem = f"ruling {number}'s header appears twice ({twice})"
                yield Finding("ruling", problem, campaign, version, number)
            elif number > expected:
                missing = (
                    f"ruling {expected} has no header"
                    if number == expected + 1
                    else f"rulings {expected}..{number - 1} have no header"
                )
                problem = f"{missing}: ruling {number}'s follows ruling {expected - 1}'s"
                yield Finding("ruling", problem, campaign, version, expected)
            elif number < expected:
                problem = f"ruling {number}'s header comes after ruling {expected - 1}'s"
                yield Finding("ruling", problem, campaign, version, number)
            first_at.setdefault(number, version)
            if h.envelope != number:
                problem = f"ruling {number}'s header says it was recorded by ruling {h.envelope}"
                yield Finding("ruling", problem, campaign, version, number)
            expected = max(expected, number + 1)

    def _claims(self, rows: Mapping[UUID, Sequence[StoredEvent]]) -> Iterator[Finding]:
        """Every row lies in exactly one ruling's claimed versions (a header stands outside
        them, on the campaign stream): a row outside all of them belongs to no ruling."""
        headers_at = {h.version for h in self.headers}
        numbers = self.numbers
        for stream, found in rows.items():
            _, spans = self._spans(stream)
            for (_, last, ruling), (first, later_last, later) in pairwise(spans):
                if first <= last:
                    both = f"{first}..{min(last, later_last)}"
                    problem = f"rulings {ruling} and {later} both claim versions {both}"
                    yield Finding("ruling", problem, stream, first, later)
            owner = self.owner(stream)
            headers = headers_at if stream == self.campaign_id else set()
            run: list[Any] = []  # [first, last, ruling] of consecutive rows of no ruling

            for row in found:
                version = row.originator_version
                claimed = owner(version)
                if version in headers:
                    if claimed is not None:
                        problem = (
                            f"a header stands at version {version}, among the versions ruling "
                            f"{claimed} wrote"
                        )
                        yield Finding("ruling", problem, stream, version, claimed)
                    continue
                if claimed is not None:
                    continue
                says = (_body(row) or {}).get("ruling")
                if run and run[1] == version - 1 and run[2] == says:
                    run[1] = version
                    continue
                if run:
                    yield _orphans(stream, run, numbers)
                run = [version, version, says]
            if run:
                yield _orphans(stream, run, numbers)

    def _seal_chain(self) -> Iterator[Finding]:
        """Each seal names the digest of the seal before it (logs written before seals were
        chained name none, until the first that does)."""
        prior: str | None = None
        chained = False
        owner = self.owner(self.campaign_id)
        for version, event in self.sealed:
            number = _int(event.get("number"))
            previous = str(event.get("previous") or "")
            if prior is None and previous:
                problem = (
                    f"session {number}'s seal follows a seal ({previous[:16]}) that is not in "
                    "the log: an earlier session's end was removed"
                )
                yield Finding("seal", problem, self.campaign_id, version, owner(version), number)
            elif prior is not None and previous != prior and (previous or chained):
                problem = (
                    f"session {number}'s seal does not follow the seal before it: it names "
                    f"{previous[:16] or 'none'}, the log holds {prior[:16]}"
                )
                yield Finding("seal", problem, self.campaign_id, version, owner(version), number)
            chained = chained or bool(previous)
            prior = str(event.get("digest", ""))

    def _missing_seals(self) -> Iterator[Finding]:
        """A session that ended, or that a later session followed, has a seal."""
        sealed = {event.get("number") for _, event in self.sealed}
        ended = {n for n, _ in self.ended if isinstance(n, int)}
        started = [n for n in self.started if isinstance(n, int)]
        latest = max(started, default=0)
        for number in sorted((ended | {n for n in started if n < latest}) - sealed):
            problem = (
                f"session {number} ended but its seal is missing"
                if number in ended
                else f"session {number} has no end and no seal, yet session {latest} started"
            )
            yield Finding("seal", problem, self.campaign_id, session=number)

    def _dice(self) -> Iterator[Finding]:
        """A ruling names a committed-dice counter exactly when it drew committed dice, in a
        session that committed to a seed (an amendment names the dice of the ruling it amends,
        drawing none); a session that ended revealed it."""
        committed = Provenance.COMMITTED.value
        rolled: dict[Any, int] = {}
        for h in self.headers:
            provenance, counter = h.event.get("provenance"), h.event.get("counter")
            where = (self.campaign_id, h.version, _int(h.number), _int(h.session))
            drew = h.event.get("command") not in CORRECTIONS  # corrections re-use recorded dice
            if provenance == committed and counter is None and drew:
                problem = f"ruling {h.number}'s dice are committed ones but it names no counter"
                yield Finding("dice", problem, *where)
            elif counter is not None and provenance != committed:
                problem = (
                    f"ruling {h.number} names committed-dice counter {counter} but its dice "
                    f"are {provenance or 'none'}"
                )
                yield Finding("dice", problem, *where)
            elif counter is not None and h.session not in self.committed:
                problem = (
                    f"ruling {h.number} drew committed dice in session {h.session}, which "
                    "committed to no seed"
                )
                yield Finding("dice", problem, *where)
            if counter is not None:
                rolled[h.session] = rolled.get(h.session, 0) + 1
        owner = self.owner(self.campaign_id)
        for session, count in rolled.items():
            since = self.committed.get(session)
            ends = [v for n, v in self.ended if n == session and since is not None and v > since]
            if ends and self.revealed.get(session, 0) < (since or 0):
                problem = (
                    f"session {session} ended without revealing its seed: its {count} "
                    "committed rulings cannot be checked"
                )
                yield Finding("dice", problem, self.campaign_id, ends[0], owner(ends[0]), session)


def _orphans(stream: UUID, run: list[Any], numbers: set[int]) -> Finding:
    """Consecutive rows of one stream that no header claims: ``run`` is [first, last, ruling]
    (the ruling their envelopes name)."""
    first, last, ruling = run
    one = first == last
    where = f"version {first} belongs" if one else f"versions {first}..{last} belong"
    why = (
        f"ruling {ruling}'s header does not claim {'it' if one else 'them'}"
        if ruling in numbers
        else f"{'it says' if one else 'they say'} ruling {ruling}, which has no header"
    )
    return Finding("orphan", f"{where} to no ruling: {why}", stream, first, _int(ruling))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _link_at(found: Sequence[StoredEvent], version: int) -> str:
    """The link of a stream's stored row at ``version`` ("" when there is none)."""
    at = version - 1
    if not 0 <= at < len(found) or found[at].originator_version != version:
        at = bisect_left([r.originator_version for r in found], version)  # rows are missing
        if at >= len(found) or found[at].originator_version != version:
            return ""
    return stored_link(found[at].state)


def _rewritten(
    rows: Mapping[UUID, Sequence[StoredEvent]],
    ledger: _Ledger,
    breaks: Sequence[Break],
    extra: Mapping[UUID, Sequence[tuple[int, str, str]]],
) -> list[Finding]:
    """A stream whose chain holds but whose links are no longer those a seal (or a snapshot)
    recorded was rewritten and chained again: between the last recorded link that still holds
    and the first that does not. (A recorded link that fails below one that holds is that
    record's fault, not the stream's: a chain rewritten at a version changes every link after.)"""
    broken = {b.stream for b in breaks}
    ends = {s: found[-1].originator_version if found else 0 for s, found in rows.items()}
    recorded: dict[UUID, list[tuple[int, str, str]]] = {  # a snapshot past the end: its finding
        s: [a for a in listed if a[0] <= ends.get(s, 0)] for s, listed in extra.items()
    }
    for _, event in ledger.sealed:
        for head in event.get("heads") or []:
            try:
                stream, version = UUID(str(head["stream"])), int(head["version"])
            except (KeyError, TypeError, ValueError):
                continue
            source = f"session {event.get('number')}'s seal"
            recorded.setdefault(stream, []).append((version, str(head.get("chain")), source))
    findings = []
    for stream, listed in recorded.items():
        if stream in broken or stream not in rows:
            continue
        found = rows[stream]
        checked = [(v, _link_at(found, v) == chain, source) for v, chain, source in sorted(listed)]
        held = max((v for v, ok, _ in checked if ok), default=0)
        failed = next(((v, source) for v, ok, source in checked if not ok and v > held), None)
        if failed is None:
            continue
        version, source = failed
        owner = ledger.owner(stream)
        first, last = owner(held + 1), owner(version)
        named = (
            ""
            if first is None
            else f" (ruling {first})"
            if first == last or last is None
            else f" (rulings {first}..{last})"
        )
        problem = (
            f"versions {held + 1}..{version}{named} were rewritten or removed and the chain "
            f"computed again: version {version} no longer has the link {source} recorded"
        )
        findings.append(Finding("rewritten", problem, stream, held + 1, first))
    return findings


def _ordered(findings: Sequence[Finding]) -> tuple[Finding, ...]:
    return tuple(
        sorted(
            findings,
            key=lambda f: (f.ruling or 0, f.session or 0, str(f.stream or ""), f.version or 0),
        )
    )


def _roster(campaign_rows: Sequence[StoredEvent]) -> list[UUID]:
    """The characters the campaign stream says joined (their streams are the campaign's even
    when no header claims them any more)."""
    found = []
    for row in campaign_rows:
        if row.topic == JOINED:
            try:
                found.append(UUID(str((_body(row) or {})["event"]["character_id"])))
            except (KeyError, TypeError, ValueError):
                continue
    return found


# --- Replay: every stream folded with the rules, every stored snapshot compared ---------------

_Stored = tuple[int, str, Snapshot | None]  # a stored snapshot: version, how it reads, snapshot


def _stored_snapshots(store: CampaignStore, stream: UUID) -> list[_Stored]:
    """The stream's stored snapshots, each as ``read_snapshot`` reads it (or why it does not)."""
    if store.snapshots is None:
        return []
    found: list[_Stored] = []
    for row in store.snapshots.recorder.select_events(stream):
        try:
            status, snapshot = read_snapshot(row)
        except Exception as error:  # any damage to a stored snapshot is a finding, not a crash
            found.append((row.originator_version, f"does not read ({_why(error)})", None))
            continue
        found.append((row.originator_version, status, snapshot))
    return found


def _snapshot_anchors(found: Sequence[_Stored]) -> list[tuple[int, str, str]]:
    return [
        (version, snapshot.chain, f"the snapshot at version {version}")
        for version, _, snapshot in found
        if snapshot is not None and snapshot.chain
    ]


def _why(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 160 else text[:157] + "..."


def _strict(evolve: Evolve) -> Evolve:
    """``evolve``, where any failure to apply an event is a misfit fold names with its record."""

    def apply(event: Event, state: Any) -> Any:
        try:
            return evolve(event, state)
        except (DomainError, ReplayMismatch):
            raise
        except Exception as error:  # a forged event of a kind this stream never holds, say
            raise ReplayMismatch(_why(error)) from error

    return apply


def _states(
    records: Sequence[Recorded], evolve: Evolve, wanted: Sequence[int]
) -> Iterator[tuple[int, Any]]:
    """The state at each version in ``wanted`` (ascending) as recorded up to it: the events
    folded (``engine.streams.fold``) with the corrections recorded up to that version. Each is
    folded on from the state at an earlier wanted version that no correction since changes:
    the latest one before every version those corrections void, and before the place where an
    amended or undone ruling's replacement events stand (before the first later ruling)."""
    versions = [r.originator_version for r in records]
    rulings = [r.ruling for r in records]
    points: list[int] = [0]
    states: list[Any] = [None]
    for target in wanted:
        end = bisect_right(versions, target)
        at = len(points) - 1
        while True:
            chunk = records[bisect_right(versions, points[at]) : end]
            reach = _reach(chunk, versions, rulings)
            if at == 0 or reach is None or reach > points[at]:
                break
            at = max(0, bisect_left(points, reach) - 1)
        state = fold(chunk, evolve, states[at], corrections(chunk))
        points.append(target)
        states.append(state)
        yield target, state


def _reach(
    chunk: Sequence[Recorded], versions: Sequence[int], rulings: Sequence[int]
) -> int | None:
    """The earliest version the corrections among ``chunk`` change (None: there are none)."""
    earliest: int | None = None
    for record in chunk:
        event = record.event
        if isinstance(event, RulingRetracted | RulingAmended):
            if event.versions:
                here = min(event.versions)
            else:  # its replacements stand before the first record of a later ruling
                after = bisect_right(rulings, event.ruling)
                here = versions[after] if after < len(versions) else record.originator_version
            earliest = here if earliest is None else min(earliest, here)
    return earliest


def _difference(stored: Any, replayed: Any) -> str:
    """What differs between a stored snapshot and the replayed state, field by field."""
    if type(stored) is not type(replayed) or not attrs.has(type(stored)):
        return f"a {type(stored).__name__}, the replay gives a {type(replayed).__name__}"
    fields = [f.name for f in attrs.fields(type(stored))]
    differ = [n for n in fields if getattr(stored, n) != getattr(replayed, n)]
    shown = []
    for name in differ[:3]:
        mine, theirs = repr(getattr(stored, name)), repr(getattr(replayed, name))
        if len(mine) + len(theirs) <= 80:
            shown.append(f"{name} {mine}, replayed {theirs}")
        else:
            shown.append(name)
    more = f" and {len(differ) - 3} more" if len(differ) > 3 else ""
    return "; ".join(shown) + more


class _Replay:
    """Folds each stream of a campaign with its rules and compares the stored snapshots."""

    def __init__(self, store: CampaignStore, ledger: _Ledger) -> None:
        self.store = store
        self.ledger = ledger
        self.replayed = 0
        self.compared = 0
        self.directory: Any = None  # the directory as replayed
        self.registered: dict[UUID, int] = {}  # campaign id: directory version of its entry

    def _evolve(self, stream: UUID) -> Evolve | str:
        if stream == DIRECTORY:
            return evolve_directory
        if stream == self.ledger.campaign_id:
            return evolve_campaign
        from domain.rulesets import ruleset_named

        system = (self.ledger.created or {}).get("system")
        try:
            return ruleset_named(str(system)).evolve_character
        except Exception as error:
            return f"the campaign's system {system!r} has no rules here ({_why(error)})"

    def stream(
        self, stream: UUID, rows: Sequence[StoredEvent], stored: Sequence[_Stored]
    ) -> list[Finding]:
        findings: list[Finding] = []
        directory = stream == DIRECTORY
        owner = self.ledger.owner(stream) if not directory else (lambda _: None)
        decode = self.store.mapper.to_domain_event
        records: list[Recorded] = []
        for row in rows:
            try:
                records.append(cast("Recorded", decode(row)))
            except Exception as error:  # a damaged row is a finding, not a crash
                version = row.originator_version
                problem = f"version {version} does not decode ({_why(error)}); replayed up to it"
                findings.append(Finding("replay", problem, stream, version, owner(version)))
                break
        if directory:
            self._registered(records)
        else:
            findings += self._envelopes(stream, records, owner)
        evolve = self._evolve(stream)
        if isinstance(evolve, str):
            findings.append(Finding("replay", evolve, stream))
            return findings
        self.replayed += 1
        last = records[-1].originator_version if records else 0
        wanted = {version for version, _, _ in stored if 0 < version <= last}
        wanted |= set(range(CHECKPOINT, last, CHECKPOINT)) | {last}
        states: dict[int, Any] = {}
        try:
            for version, state in _states(records, _strict(evolve), sorted(wanted)):
                states[version] = state
        except HistoryConflict as conflict:
            findings.append(self._conflict(stream, conflict))
        if directory:
            self.directory = states.get(last)
        end = rows[-1].originator_version if rows else 0
        findings += self._snapshots(stream, stored, states, rows, end, owner)
        return findings

    def _conflict(self, stream: UUID, conflict: HistoryConflict) -> Finding:
        where = conflict.event
        ruling = getattr(where, "ruling", None)
        version = getattr(where, "originator_version", None)
        kind = type(getattr(where, "event", None)).__name__
        problem = conflict.problem
        reason = problem.reason if isinstance(problem, DomainError) else str(problem)
        at = f" (version {version})" if version is not None else " (its amended events)"
        text = f"the history does not replay: ruling {ruling}'s {kind}{at} does not apply: {reason}"
        return Finding("replay", text, stream, version, ruling)

    def _envelopes(
        self, stream: UUID, records: Sequence[Recorded], owner: Callable[[int], int | None]
    ) -> Iterator[Finding]:
        """Each row's envelope names the ruling whose header claims it."""
        campaign = stream == self.ledger.campaign_id
        for record in records:
            version = record.originator_version
            claimed = owner(version)
            if claimed is None or record.ruling == claimed:
                continue
            if campaign and record.event.__class__.__name__ == "RulingMade":
                continue  # a header inside a claimed range: named by the ledger
            problem = (
                f"version {version} says it was recorded by ruling {record.ruling}, but ruling "
                f"{claimed}'s header claims it"
            )
            yield Finding("orphan", problem, stream, version, claimed)

    def _registered(self, records: Sequence[Recorded]) -> None:
        for record in records:
            campaign_id = getattr(record.event, "campaign_id", None)
            if isinstance(campaign_id, UUID):
                self.registered.setdefault(campaign_id, record.originator_version)

    def _snapshots(
        self,
        stream: UUID,
        stored: Sequence[_Stored],
        states: Mapping[int, Any],
        rows: Sequence[StoredEvent],
        end: int,
        owner: Callable[[int], int | None],
    ) -> Iterator[Finding]:
        for version, status, snapshot in stored:
            here = owner(version)
            name = f"the snapshot at version {version}"
            if snapshot is None:
                yield Finding("snapshot", f"{name} {status}", stream, version, here)
                continue
            if status == EDITED:
                problem = f"{name} was edited: its own link does not hold"
                yield Finding("snapshot", problem, stream, version, here)
                continue
            if not 0 < version <= end:
                problem = f"{name} is past the stream's last version ({end})"
                yield Finding("snapshot", problem, stream, version, here)
                continue
            if status != UNLINKED and snapshot.chain and snapshot.chain != _link_at(rows, version):
                problem = (
                    f"{name} was not taken from the stored history: the link it names is not "
                    f"that of the event at version {version}"
                )
                yield Finding("snapshot", problem, stream, version, here)
            if snapshot.state is None or version not in states:
                continue  # another shape of the state class (never loaded), or not replayed
            self.compared += 1
            if snapshot.state != states[version]:
                differs = _difference(snapshot.state, states[version])
                problem = f"{name} does not match the replay: {differs}"
                yield Finding("snapshot", problem, stream, version, here)


def _directory_findings(replay: _Replay, ledger: _Ledger) -> list[Finding]:
    """The store's directory lists the campaign once, under the name and system it was created
    with."""
    created = ledger.created
    if created is None:
        problem = "the campaign stream holds no CampaignCreated: the campaign was not created"
        return [Finding("directory", problem, ledger.campaign_id, 1)]
    listed = getattr(replay.directory, "campaigns", ())
    entries = [e for e in listed if e.campaign_id == ledger.campaign_id]
    version = replay.registered.get(ledger.campaign_id)
    if not entries:
        return [Finding("directory", "the store's directory does not list the campaign", DIRECTORY)]
    found = []
    if len(entries) > 1:
        problem = f"the store's directory lists the campaign {len(entries)} times"
        found.append(Finding("directory", problem, DIRECTORY, version))
    name, system = created.get("name"), created.get("system")
    for entry in entries:
        if (entry.name, entry.system) != (name, system):
            problem = (
                f"the store's directory lists the campaign as {entry.name!r} ({entry.system}); "
                f"it was created as {name!r} ({system})"
            )
            found.append(Finding("directory", problem, DIRECTORY, version, 1))
    return found
