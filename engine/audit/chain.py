"""The stored rows as ``verify`` reads them: the topics it looks for, each row's body (when it
still reads), its link and the values it holds, and why a row does not read; each stream's chain
walked from its genesis, the streams a campaign's rulings wrote to, and one digest over every
stream's head."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from engine.audit.report import Break
from engine.store.chain import genesis, holds, link_of_digest, seal, stored_link
from engine.store.mapper import canonical_json, loads, split_chain
from engine.store.records import DIRECTORY_ID as DIRECTORY

MADE = "domain.events:RulingMade"
SEALED = "domain.events:SessionSealed"
COMMITTED = "domain.events:DiceCommitted"
REVEALED = "domain.events:DiceRevealed"
ENTROPY = "domain.events:EntropyAdded"
KEY = "domain.events:MemberKeyRegistered"
SEATED = "domain.events:MemberAdded"
UNSEATED = "domain.events:MemberRemoved"
HIDDEN_SHOWN = "domain.events:HiddenDiceRevealed"
RETRACTED = "domain.events:RulingRetracted"
SHOWN = "domain.events:RulingRevealed"
ENDED = "domain.events:SessionEnded"
FREE_ROLL = "domain.events:FreeRollMade"
CREATED = "domain.events:CampaignCreated"
CHANNEL_LINKED = "domain.events:ChannelLinked"
CHANNEL_UNLINKED = "domain.events:ChannelUnlinked"
MEMBER_LINKED = "domain.events:MemberLinked"


@dataclass(frozen=True)
class Withheld(StoredEvent):
    """A row of a member's copy that its member may not read: its body's SHA-256 (``digest``,
    hex) in place of the body, its stored link in ``state`` (``{"chain": ...}``, which every
    check reading a row's link reads). ``given``: linked over the body's bytes (written before
    2026-12-06), so not checked from the digest: taken as given, pinned by the next link.
    ``touched``: of a withheld ruling's header, the spans of the rows recorded with it (what
    its header lists), as the copy's order of lines gives them."""

    digest: str = ""
    given: bool = False
    touched: tuple[tuple[UUID, int, int], ...] = ()


def stored_body(row: StoredEvent) -> dict[str, Any] | None:
    try:
        body: dict[str, Any] = loads(row.state)
    except (ValueError, UnicodeDecodeError):
        return None
    return body


def as_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def why(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 160 else text[:157] + "..."


class ChainWalk:
    """One stream's chain walked from its genesis, fed its rows in version order; the first
    row that does not link is the stream's ``broken``.

    A row written chain first is checked over its own bytes; any other is parsed, its link
    taken out and its body encoded canonically again (older stores wrote the link among the
    sorted keys). Its link may be of either kind (``engine.store.chain.holds``). ``owner`` names
    the ruling whose header claims a version (for a missing row, the only way to name it; for a
    changed one, the ruling it says is its own comes first)."""

    def __init__(self, stream: UUID, owner: Callable[[int], int | None] | None = None) -> None:
        self.stream = stream
        self.owner = owner
        self.broken: Break | None = None
        self._previous = genesis(stream)
        self._name = str(stream)
        self._expected = 1

    def row(self, row: StoredEvent, fast: tuple[str, bytes] | bool | None = True) -> None:
        """The stream's next row; ``fast``: its ``split_chain``, when the caller split it."""
        if self.broken is not None:
            return
        stream, expected, owner = self.stream, self._expected, self.owner
        self._expected += 1
        if row.originator_version != expected:
            ruling = owner(expected) if owner is not None else None
            self.broken = Break(stream, expected, ruling, f"version {expected} is missing")
            return
        if isinstance(row, Withheld):
            self._withheld(row, expected)
            return
        parts = split_chain(row.state) if fast is True else fast
        if isinstance(parts, tuple) and holds(
            parts[0], self._previous, self._name, expected, row.topic, parts[1]
        ):
            self._previous = parts[0]
            return
        body = stored_body(row)
        claimed = owner(expected) if owner is not None else None
        if not isinstance(body, dict):
            self.broken = Break(stream, expected, claimed, "the stored event is not readable")
            return
        ruling = body.get("ruling") if isinstance(body.get("ruling"), int) else claimed
        chain = body.pop("chain", None)
        if not chain:
            self.broken = Break(stream, expected, ruling, "the event has no chain link")
        elif not isinstance(chain, str) or not holds(
            chain, self._previous, stream, expected, row.topic, canonical_json(body)
        ):
            self.broken = Break(stream, expected, ruling, "the event was changed or moved")
        else:
            self._previous = chain

    def _withheld(self, row: Withheld, version: int) -> None:
        """A row its reader may not read, checked from its body's digest (one linked over its
        body is taken as given: the next row's link, over this one's, pins it)."""
        chain = stored_link(row.state)
        if row.given:
            self._previous = chain
            return
        try:
            digest = bytes.fromhex(row.digest)
        except ValueError:
            digest = b""
        if len(digest) == 32 and chain == link_of_digest(
            self._previous, self._name, version, row.topic, digest
        ):
            self._previous = chain
            return
        problem = "the withheld event's digest or link was changed"
        self.broken = Break(self.stream, version, None, problem)


def check_stream(
    stream: UUID, rows: Iterable[StoredEvent], owner: Callable[[int], int | None] | None = None
) -> Break | None:
    """Walk one stream's chain from its genesis (``ChainWalk``); the first row that does not
    link is reported."""
    walk = ChainWalk(stream, owner)
    for row in rows:
        walk.row(row)
        if walk.broken is not None:
            break
    return walk.broken


def campaign_streams(campaign_id: UUID, campaign_rows: Iterable[StoredEvent]) -> list[UUID]:
    """The campaign's stream and every stream its rulings wrote to (not the store's directory,
    which every campaign of the store shares)."""
    streams = [campaign_id]
    for row in campaign_rows:
        if row.topic == MADE:
            for span in (stored_body(row) or {}).get("event", {}).get("touched", []):
                stream = UUID(span["stream"])
                if stream not in streams and stream != DIRECTORY:
                    streams.append(stream)
    return streams


def head_of(row: StoredEvent) -> tuple[int, str]:
    """A stream's head as the digest takes it: its last row's version and link."""
    last = stored_body(row) or {}
    return row.originator_version, str(last.get("chain", ""))


def heads_digest(heads: Mapping[UUID, tuple[int, str]]) -> str:
    """One digest over every stream's last version and link: equal for equal logs."""
    return seal(heads)
