"""`campaign verify`: walk every chain and seal of a campaign in the store's raw rows.

Works on the stored bytes, never on decoded events, so a row that no longer decodes is reported
rather than crashing the check.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import StoredEvent

from engine.chain import genesis, link, seal
from engine.committed_dice import commitment, key, replay
from engine.mapper import canonical_json

if TYPE_CHECKING:
    from engine.service import Engine

MADE = "domain.events:RulingMade"
SEALED = "domain.events:SessionSealed"
COMMITTED = "domain.events:DiceCommitted"
REVEALED = "domain.events:DiceRevealed"


@frozen
class Break:
    """The first place a stream's chain does not hold."""

    stream: UUID
    version: int
    ruling: int | None
    problem: str


@frozen
class Seal:
    session: int
    digest: str
    intact: bool


@frozen
class DiceCheck:
    """A session's committed dice: how many rulings rolled them and whether they check out."""

    session: int
    rulings: int
    revealed: bool
    problems: tuple[str, ...]


@frozen
class Report:
    streams: int
    events: int
    seals: tuple[Seal, ...]
    breaks: tuple[Break, ...]
    dice: tuple[DiceCheck, ...] = ()

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
        body: dict[str, Any] = json.loads(row.state)
    except (ValueError, UnicodeDecodeError):
        return None
    return body


def check_stream(stream: UUID, rows: Sequence[StoredEvent]) -> Break | None:
    """Walk one stream's chain from its genesis; the first row that does not link is reported."""
    previous = genesis(stream)
    for expected, row in enumerate(rows, start=1):
        if row.originator_version != expected:
            return Break(stream, expected, None, f"version {expected} is missing")
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


def verify(engine: Engine, campaign_name: str) -> Report:
    """Check every stream the campaign's rulings wrote to, every ruling's ranges, every seal."""
    campaign_id = engine.find_campaign(campaign_name).campaign_id
    rows: dict[UUID, Sequence[StoredEvent]] = {campaign_id: _rows(engine, campaign_id)}
    ranges: list[tuple[int, UUID, int]] = []
    sealed: list[dict[str, Any]] = []
    dice = _Dice()
    for row in rows[campaign_id]:
        body = _body(row) or {}
        event = body.get("event", {})
        dice.read(row.topic, body)
        if row.topic == MADE:
            for span in event.get("touched", []):
                ranges.append((event.get("number", 0), UUID(span["stream"]), span["last"]))
        elif row.topic == SEALED:
            sealed.append(event)
    for _, stream, _ in ranges:
        if stream not in rows:
            rows[stream] = _rows(engine, stream)
    breaks = [b for stream, found in rows.items() if (b := check_stream(stream, found))]
    for number, stream, last in ranges:
        if len(rows[stream]) < last and not any(b.stream == stream for b in breaks):
            problem = f"ruling {number} wrote up to version {last}; the stream ends before it"
            breaks.append(Break(stream, len(rows[stream]) + 1, number, problem))
    seals = tuple(_check_seal(event, rows, engine) for event in sealed)
    events = sum(len(found) for found in rows.values())
    ordered = tuple(sorted(breaks, key=lambda b: (b.ruling or 0, str(b.stream))))
    return Report(streams=len(rows), events=events, seals=seals, breaks=ordered, dice=dice.checks())


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


def _check_seal(
    event: dict[str, Any], rows: dict[UUID, Sequence[StoredEvent]], engine: Engine
) -> Seal:
    heads: dict[UUID, tuple[int, str]] = {}
    intact = True
    for head in event.get("heads", []):
        stream, version, chain = UUID(head["stream"]), head["version"], head["chain"]
        heads[stream] = (version, chain)
        found = rows.get(stream) or _rows(engine, stream)
        stored = _body(found[version - 1]) if 0 < version <= len(found) else None
        intact = intact and stored is not None and stored.get("chain") == chain
    digest = event.get("digest", "")
    return Seal(event.get("number", 0), digest, intact and seal(heads) == digest)
