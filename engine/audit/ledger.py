"""What a campaign stream's rows say, as ``verify`` reads them one at a time: the versions each
ruling's header claims on each stream, the sessions started, ended and sealed, the dice
committed and revealed, the characters that joined; and what does not hold in the rulings'
headers (their numbers) and in the versions they claim (every row is one ruling's).

Nothing is kept per row; per ruling, a bit of its number and of its header's version, what its
header lists (three whole numbers in arrays, for the walk of the log: ``Listed``), and per stream
it wrote to, its claimed range (three whole numbers in arrays: ``Spans``)."""

from __future__ import annotations

import contextlib
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from engine.audit.chain import COMMITTED, MADE, REVEALED, SEALED, as_int, stored_body
from engine.audit.dice import HeaderDice
from engine.audit.report import Break, Finding
from engine.audit.rows import Numbers, Rows
from engine.audit.rulings import Listed
from engine.audit.seals import missing_seals, seal_chain
from engine.store.records import DIRECTORY_ID as DIRECTORY

STARTED = "domain.events:SessionStarted"
ENDED = "domain.events:SessionEnded"
CREATED = "domain.events:CampaignCreated"
JOINED = "domain.events:CharacterJoined"
REGISTERED = "domain.events:CampaignRegistered"


_LOW, _HIGH = -(1 << 63), (1 << 63) - 1  # what an array of 64-bit whole numbers holds


class Spans:
    """The ranges rulings' headers claim on one stream: (first, last, ruling), kept in three
    arrays of whole numbers, sorted by first version before they are looked up."""

    def __init__(self) -> None:
        self.firsts = array("q")
        self.lasts = array("q")
        self.rulings = array("q")
        self._sorted = True

    def add(self, first: int, last: int, ruling: int) -> None:
        if not (_LOW <= first <= _HIGH and _LOW <= last <= _HIGH and _LOW <= ruling <= _HIGH):
            return  # a forged number past 64 bits claims nothing that is stored
        if self._sorted and self.firsts and (first, last, ruling) < self.at(-1):
            self._sorted = False
        self.firsts.append(first)
        self.lasts.append(last)
        self.rulings.append(ruling)

    def at(self, index: int) -> tuple[int, int, int]:
        return self.firsts[index], self.lasts[index], self.rulings[index]

    def __len__(self) -> int:
        return len(self.firsts)

    def sort(self) -> None:
        if self._sorted:
            return
        ordered = sorted(zip(self.firsts, self.lasts, self.rulings, strict=True))
        self.firsts = array("q", (s[0] for s in ordered))
        self.lasts = array("q", (s[1] for s in ordered))
        self.rulings = array("q", (s[2] for s in ordered))
        self._sorted = True

    def owner(self, version: int) -> int | None:
        at = bisect_right(self.firsts, version) - 1
        if at >= 0 and self.lasts[at] >= version:
            return int(self.rulings[at])
        return None


class RulingLedger:
    """What a campaign stream's rows say (``read`` one row at a time, in version order), and
    what does not hold in its headers; ``done`` once the stream is read."""

    def __init__(self, campaign_id: UUID, rows: Rows | None = None) -> None:
        self.campaign_id = campaign_id
        self.rows = rows  # where the streams' ends are looked up (the tail check)
        self.spans: dict[UUID, Spans] = {}
        self.sealed: list[tuple[int, dict[str, Any]]] = []  # (version, event)
        self.started: list[Any] = []
        self.ended: list[tuple[Any, int]] = []  # (session, version)
        self.committed: dict[Any, int] = {}  # session: version of its latest commitment
        self.revealed: dict[Any, int] = {}  # session: version of its latest reveal
        self.created: dict[str, Any] | None = None
        self.problems: list[Finding] = []
        self.touched: dict[UUID, None] = {}  # every stream a header claims versions of, in order
        self.roster: dict[UUID, None] = {}  # the characters the stream says joined
        self.numbers = Numbers()  # the headers' ruling numbers
        self.headers_at = Numbers()  # the versions of the campaign stream holding a header
        self.listed = Listed()  # what each header lists, for the walk of the log
        self.dice = HeaderDice(campaign_id)
        self.ends: dict[UUID, int] = {}
        self.tails: dict[UUID, Break] = {}  # the first ruling claiming past a stream's end
        self._uuids: dict[str, UUID] = {}
        self._numbering: list[Finding | tuple[int, int]] = []  # (number, version): seen twice
        self._expected = 1

    def read(self, row: StoredEvent, body: dict[str, Any]) -> None:
        given = body.get("event")
        event: dict[str, Any] = given if isinstance(given, dict) else {}
        version, topic = row.originator_version, row.topic
        if topic == MADE:
            number = event.get("number")
            self._header(version, number, body.get("ruling"), body.get("session"), event)
            touched = event.get("touched")
            listed, whole, directory = 0, isinstance(touched, list), False
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
                    whole = False
                    continue
                listed += last - first + 1
                if stream == DIRECTORY:
                    directory = True
                    continue
                self.touched[stream] = None
                if isinstance(number, int):
                    spans = self.spans.get(stream)
                    if spans is None:
                        spans = self.spans[stream] = Spans()
                    spans.add(first, last, number)
                    self._tail(number, stream, last)
            if whole and type(number) is int:
                self.listed.add(version, number, listed, directory)
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
        elif topic == JOINED:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                self.roster[UUID(str(event["character_id"]))] = None

    def _header(self, version: int, number: Any, envelope: Any, session: Any, event: Any) -> None:
        """A header's number checked as it comes: headers are numbered 1, 2, 3... in the
        order recorded, each once, and each header's envelope names its own ruling."""
        self.headers_at.add(version)
        self.dice.read(version, number, session, event)
        campaign = self.campaign_id
        found = self._numbering
        if not isinstance(number, int):
            found.append(Finding("ruling", "a header without a ruling number", campaign, version))
            return
        expected = self._expected
        if number in self.numbers:
            found.append((number, version))  # named once the first header is found again
        elif number > expected:
            missing = (
                f"ruling {expected} has no header"
                if number == expected + 1
                else f"rulings {expected}..{number - 1} have no header"
            )
            problem = f"{missing}: ruling {number}'s follows ruling {expected - 1}'s"
            found.append(Finding("ruling", problem, campaign, version, expected))
        elif number < expected:
            problem = f"ruling {number}'s header comes after ruling {expected - 1}'s"
            found.append(Finding("ruling", problem, campaign, version, number))
        self.numbers.add(number)
        if envelope != number:
            problem = f"ruling {number}'s header says it was recorded by ruling {envelope}"
            found.append(Finding("ruling", problem, campaign, version, number))
        self._expected = max(expected, number + 1)

    def _tail(self, number: int, stream: UUID, last: int) -> None:
        """The first ruling (in the order recorded) claiming versions past the stream's end."""
        if self.tails and stream in self.tails:
            return
        end = self.ends.get(stream)
        if end is None:
            end = self.ends[stream] = self.rows.end(stream) if self.rows is not None else 0
        if end < last:
            problem = f"ruling {number} wrote up to version {last}; the stream ends before it"
            self.tails[stream] = Break(stream, end + 1, number, problem)

    def owner(self, stream: UUID) -> Callable[[int], int | None]:
        """The ruling whose header claims a version of ``stream`` (None: no header does)."""
        spans = self.spans.get(stream)
        if spans is None:
            return lambda _: None
        spans.sort()
        return spans.owner

    def findings(self, rows: Rows) -> list[Finding]:
        """What the headers say that does not hold (their numbers, seals and dice); the
        versions they claim are checked as each stream is walked (``Claims``)."""
        return [*self.problems, *self._numbered(rows)]

    def later_findings(self) -> list[Finding]:
        return [*seal_chain(self), *missing_seals(self), *self.dice.findings(self)]

    def _numbered(self, rows: Rows) -> Iterator[Finding]:
        twice = {entry[0] for entry in self._numbering if isinstance(entry, tuple)}
        first_at: dict[int, int] = {}
        if twice:  # the first header of each number seen twice, found by reading them again
            for row in rows.picked(self.campaign_id, (MADE,)):
                body = stored_body(row)
                if not isinstance(body, dict):
                    continue
                event = body.get("event")
                number = event.get("number") if isinstance(event, dict) else None
                if number in twice:
                    first_at.setdefault(number, row.originator_version)
        for entry in self._numbering:
            if isinstance(entry, Finding):
                yield entry
                continue
            number, version = entry
            both = f"versions {first_at.get(number, version)} and {version}"
            problem = f"ruling {number}'s header appears twice ({both})"
            yield Finding("ruling", problem, self.campaign_id, version, number)


class Claims:
    """Every row of a stream lies in exactly one ruling's claimed versions (a header stands
    outside them, on the campaign stream): a row outside all of them belongs to no ruling.
    Fed the stream's rows in version order."""

    def __init__(self, ledger: RulingLedger, stream: UUID) -> None:
        self.stream = stream
        self.numbers = ledger.numbers
        self.owner = ledger.owner(stream)
        self.headers = ledger.headers_at if stream == ledger.campaign_id else Numbers()
        self.found: list[Finding] = []
        spans = ledger.spans.get(stream)
        for at in range(1, len(spans) if spans is not None else 0):
            assert spans is not None
            (_, last, ruling), (first, later_last, later) = spans.at(at - 1), spans.at(at)
            if first <= last:
                both = f"{first}..{min(last, later_last)}"
                problem = f"rulings {ruling} and {later} both claim versions {both}"
                self.found.append(Finding("ruling", problem, stream, first, later))
        self._run: list[Any] = []  # [first, last, ruling] of consecutive rows of no ruling

    def row(self, row: StoredEvent) -> None:
        version = row.originator_version
        claimed = self.owner(version)
        if version in self.headers:
            if claimed is not None:
                problem = (
                    f"a header stands at version {version}, among the versions ruling "
                    f"{claimed} wrote"
                )
                self.found.append(Finding("ruling", problem, self.stream, version, claimed))
            return
        if claimed is not None:
            return
        says = (stored_body(row) or {}).get("ruling")
        run = self._run
        if run and run[1] == version - 1 and run[2] == says:
            run[1] = version
            return
        if run:
            self.found.append(_orphans(self.stream, run, self.numbers))
        self._run = [version, version, says]

    def done(self) -> list[Finding]:
        if self._run:
            self.found.append(_orphans(self.stream, self._run, self.numbers))
            self._run = []
        return self.found


def _orphans(stream: UUID, run: list[Any], numbers: Numbers) -> Finding:
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
