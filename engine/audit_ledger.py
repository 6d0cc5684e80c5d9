"""What a campaign stream's rows say, as ``verify`` reads them: each ruling's header and the
versions it claims on each stream, the sessions started, ended and sealed, the dice committed
and revealed, the characters that joined; and what does not hold in the rulings' headers (their
numbers) and in the versions they claim (every row is one ruling's)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any
from uuid import UUID

from attrs import frozen
from eventsourcing.persistence import StoredEvent

from domain.plain import Plain
from engine.audit_chain import COMMITTED, MADE, REVEALED, SEALED, as_int, stored_body
from engine.audit_dice import dice_findings
from engine.audit_report import Finding
from engine.audit_seals import missing_seals, seal_chain
from engine.records import DIRECTORY_ID as DIRECTORY

STARTED = "domain.events:SessionStarted"
ENDED = "domain.events:SessionEnded"
CREATED = "domain.events:CampaignCreated"
JOINED = "domain.events:CharacterJoined"
REGISTERED = "domain.events:CampaignRegistered"


@frozen
class _Header(Plain):
    version: int
    number: Any  # an int unless the row was forged
    envelope: Any  # the ruling its envelope names
    session: Any
    event: dict[str, Any]


class RulingLedger:
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
                        Finding("ruling", problem, self.campaign_id, version, as_int(number))
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
            *seal_chain(self),
            *missing_seals(self),
            *dice_findings(self),
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
                says = (stored_body(row) or {}).get("ruling")
                if run and run[1] == version - 1 and run[2] == says:
                    run[1] = version
                    continue
                if run:
                    yield _orphans(stream, run, numbers)
                run = [version, version, says]
            if run:
                yield _orphans(stream, run, numbers)


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
    return Finding("orphan", f"{where} to no ruling: {why}", stream, first, as_int(ruling))


def roster(campaign_rows: Sequence[StoredEvent]) -> list[UUID]:
    """The characters the campaign stream says joined (their streams are the campaign's even
    when no header claims them any more)."""
    found = []
    for row in campaign_rows:
        if row.topic == JOINED:
            try:
                found.append(UUID(str((stored_body(row) or {})["event"]["character_id"])))
            except (KeyError, TypeError, ValueError):
                continue
    return found
