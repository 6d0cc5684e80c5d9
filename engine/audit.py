"""`campaign verify`: walk every chain and seal of a campaign in the store's raw rows.

Works on the stored bytes, never on decoded events, so a row that no longer decodes is reported
rather than crashing the check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import StoredEvent

from domain.plain import Plain
from engine.chain import genesis, link, seal
from engine.committed_dice import commitment, key, replay
from engine.mapper import canonical_json, loads, split_chain
from engine.records import DIRECTORY_ID as DIRECTORY

if TYPE_CHECKING:
    from engine.service import Engine

MADE = "domain.events:RulingMade"
SEALED = "domain.events:SessionSealed"
COMMITTED = "domain.events:DiceCommitted"
REVEALED = "domain.events:DiceRevealed"


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


@frozen
class DiceCheck(Plain):
    """A session's committed dice: how many rulings rolled them and whether they check out."""

    session: int
    rulings: int
    revealed: bool
    problems: tuple[str, ...]


@frozen
class Report(Plain):
    streams: int
    events: int
    seals: tuple[Seal, ...]
    breaks: tuple[Break, ...]
    dice: tuple[DiceCheck, ...] = ()
    digest: str = ""  # over every stream's head: a log and its copy give the same digest

    @property
    def intact(self) -> bool:
        return (
            not self.breaks
            and all(s.intact for s in self.seals)
            and all(not d.problems for d in self.dice)
        )


def _rows(engine: Engine, stream: UUID) -> Sequence[StoredEvent]:
    return engine.store.recorder.select_events(stream)


def _body(row: StoredEvent) -> dict[str, Any] | None:
    try:
        body: dict[str, Any] = loads(row.state)
    except (ValueError, UnicodeDecodeError):
        return None
    return body


def check_stream(stream: UUID, rows: Sequence[StoredEvent]) -> Break | None:
    """Walk one stream's chain from its genesis; the first row that does not link is reported.

    A row written chain first is checked over its own bytes; any other is parsed, its link
    taken out and its body encoded canonically again (older stores wrote the link among the
    sorted keys)."""
    previous = genesis(stream)
    name = str(stream)
    for expected, row in enumerate(rows, start=1):
        if row.originator_version != expected:
            return Break(stream, expected, None, f"version {expected} is missing")
        fast = split_chain(row.state)
        if fast is not None and link(previous, name, expected, row.topic, fast[1]) == fast[0]:
            previous = fast[0]
            continue
        body = _body(row)
        if body is None:
            return Break(stream, expected, None, "the stored event is not readable")
        ruling = body.get("ruling")
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


def verify(engine: Engine, campaign_name: str) -> Report:
    """Check every stream the campaign's rulings wrote to, every ruling's ranges, every seal."""
    campaign_id = engine.find_campaign(campaign_name).campaign_id
    campaign_rows = _rows(engine, campaign_id)
    rows = {s: _rows(engine, s) for s in campaign_streams(campaign_id, campaign_rows)}
    return verify_rows(campaign_id, rows)


def verify_rows(campaign_id: UUID, rows: Mapping[UUID, Sequence[StoredEvent]]) -> Report:
    """Check the rows of a campaign's streams (from a store, or from an export being imported)."""
    ranges: list[tuple[int, UUID, int]] = []
    sealed: list[dict[str, Any]] = []
    dice = _Dice()
    for row in rows.get(campaign_id, ()):
        body = _body(row) or {}
        event = body.get("event", {})
        dice.read(row.topic, body)
        if row.topic == MADE:
            for span in event.get("touched", []):
                stream = UUID(span["stream"])
                if stream != DIRECTORY:
                    ranges.append((event.get("number", 0), stream, span["last"]))
        elif row.topic == SEALED:
            sealed.append(event)
    breaks = [b for stream, found in rows.items() if (b := check_stream(stream, found))]
    for number, stream, last in ranges:
        found = rows.get(stream, ())
        if len(found) < last and not any(b.stream == stream for b in breaks):
            problem = f"ruling {number} wrote up to version {last}; the stream ends before it"
            breaks.append(Break(stream, len(found) + 1, number, problem))
    seals = tuple(_check_seal(event, rows) for event in sealed)
    events = sum(len(found) for found in rows.values())
    ordered = tuple(sorted(breaks, key=lambda b: (b.ruling or 0, str(b.stream))))
    return Report(
        streams=len(rows),
        events=events,
        seals=seals,
        breaks=ordered,
        dice=dice.checks(),
        digest=heads_digest(rows),
    )


def heads_digest(rows: Mapping[UUID, Sequence[StoredEvent]]) -> str:
    """One digest over every stream's last version and link: equal for equal logs."""
    heads = {}
    for stream, found in rows.items():
        if found:
            last = _body(found[-1]) or {}
            heads[stream] = (found[-1].originator_version, str(last.get("chain", "")))
    return seal(heads)


class _Dice:
    """Collects each session's commitment, reveal and committed rolls, then recomputes them."""

    def __init__(self) -> None:
        self.committed: dict[int, tuple[str, str]] = {}
        self.revealed: dict[int, str] = {}
        self.rolls: dict[int, list[dict[str, Any]]] = {}

    def read(self, topic: str, body: dict[str, Any]) -> None:
        event = body.get("event", {})
        if topic == COMMITTED:
            self.committed[event["session"]] = (event["seed_hash"], event["entropy"])
        elif topic == REVEALED:
            self.revealed[event["session"]] = event["seed"]
        elif topic == MADE and event.get("counter") is not None:
            self.rolls.setdefault(body.get("session") or 0, []).append(event)

    def checks(self) -> tuple[DiceCheck, ...]:
        return tuple(self._check(session) for session in sorted(self.committed))

    def _check(self, session: int) -> DiceCheck:
        seed_hash, entropy = self.committed[session]
        rolls = self.rolls.get(session, [])
        if session not in self.revealed:
            return DiceCheck(session, len(rolls), False, ())
        secret = bytes.fromhex(self.revealed[session])
        if commitment(secret) != seed_hash:
            return DiceCheck(
                session, len(rolls), True, ("the revealed seed is not the one committed",)
            )
        problems = []
        for made in rolls:
            sides = tuple(d["sides"] for d in made["dice"])
            faces, draws = replay(key(secret, entropy), made["counter"], sides)
            if faces != tuple(d["face"] for d in made["dice"]) or draws != made["draws"]:
                problems.append(f"ruling {made['number']}: the dice do not follow from the seed")
        return DiceCheck(session, len(rolls), True, tuple(problems))


def _check_seal(event: dict[str, Any], rows: Mapping[UUID, Sequence[StoredEvent]]) -> Seal:
    heads: dict[UUID, tuple[int, str]] = {}
    intact = True
    for head in event.get("heads", []):
        stream, version, chain = UUID(head["stream"]), head["version"], head["chain"]
        heads[stream] = (version, chain)
        found = rows.get(stream, ())
        stored = _body(found[version - 1]) if 0 < version <= len(found) else None
        intact = intact and stored is not None and stored.get("chain") == chain
    digest = event.get("digest", "")
    return Seal(event.get("number", 0), digest, intact and seal(heads) == digest)
