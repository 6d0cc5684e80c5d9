"""The replay ``verify`` runs on a store: every stream folded with its rules (the campaign's,
its system's, the store directory's), and every stored snapshot compared with the state at its
version.

A stream is folded as its rows are read (``StreamReplay``): the records since the last state
kept (at most ``CHECKPOINT`` of them), a few states, and the snapshots not compared yet are all
it holds. An undo or amendment reaching back before the states kept folds again from an earlier
one (or from the start), reading the rows again."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

import attrs
from eventsourcing.persistence import StoredEvent

from domain.campaign import evolve_campaign, evolve_directory
from domain.errors import DomainError, HistoryConflict, ReplayMismatch
from domain.events import Event, RulingAmended, RulingRetracted
from engine.audit.chain import why
from engine.audit.report import Finding
from engine.audit.rows import Rows, StoreRows
from engine.store.mapper import EDITED, UNLINKED, read_snapshot
from engine.store.records import DIRECTORY_ID as DIRECTORY
from engine.store.records import Recorded, Snapshot
from engine.store.streams import CORRECTION_TOPICS, Evolve, corrections, fold

if TYPE_CHECKING:
    from engine.audit.ledger import RulingLedger
    from engine.audit.policy import PolicyWalk
    from engine.store.campaign_store import CampaignStore

CHECKPOINT = 1000  # the replay keeps the state every this many versions (see ``Folding``)
KEEP = 8  # the latest states kept to fold on from (and as many older ones, spread out)

Stored = tuple[int, str, Snapshot | None]  # a stored snapshot: version, how it reads, snapshot


def stored_snapshots(store: CampaignStore, stream: UUID) -> Iterator[Stored]:
    """The stream's stored snapshots in version order, read a page at a time, each as
    ``read_snapshot`` reads it (or why it does not)."""
    if store.snapshots is None:
        return
    for page in StoreRows(store.snapshots.recorder).pages(stream):
        for row in page:
            try:
                status, snapshot = read_snapshot(row)
            except Exception as error:  # any damage to a stored snapshot is a finding
                yield row.originator_version, f"does not read ({why(error)})", None
                continue
            yield row.originator_version, status, snapshot


def anchor_of(found: Stored) -> tuple[int, str, str] | None:
    version, _, snapshot = found
    if snapshot is None or not snapshot.chain:
        return None
    return version, snapshot.chain, f"the snapshot at version {version}"


def strict(evolve: Evolve) -> Evolve:
    """``evolve``, where any failure to apply an event is a misfit fold names with its record."""

    def apply(event: Event, state: Any) -> Any:
        try:
            return evolve(event, state)
        except (DomainError, ReplayMismatch):
            raise
        except Exception as error:  # a forged event of a kind this stream never holds, say
            raise ReplayMismatch(why(error)) from error

    return apply


class Folding:
    """The state at each wanted version (ascending) as recorded up to it: the events folded
    (``engine.store.streams.fold``) with the corrections recorded up to that version. Each is folded
    on from the state at an earlier wanted version that no correction since changes: the latest
    one kept before every version those corrections void, and before the place where an amended
    or undone ruling's replacement events stand (before the first later ruling's record).

    The states kept are the latest ``KEEP`` and, before them, at most ``KEEP`` more at least
    ``CHECKPOINT`` versions apart (besides the empty one before the first version): a correction
    reaching far back folds again from near where it reaches. ``place(ruling)``, when given, is
    where the first record of a ruling after ``ruling`` stands (None: not known; the records
    are read to find it)."""

    def __init__(
        self,
        evolve: Evolve,
        stream: UUID,
        rows: Rows,
        decode: Any,
        place: Callable[[int], int | None] | None = None,
    ) -> None:
        self.evolve = evolve
        self.stream = stream
        self.rows = rows
        self.decode = decode
        self.place = place
        self.points: list[int] = [0]
        self.states: list[Any] = [None]
        self.chunk: list[Recorded] = []  # the records after the last point

    def _records(self, gt: int, lte: int) -> Iterator[Recorded]:
        for page in self.rows.pages(self.stream, gt):
            for row in page:
                if row.originator_version > lte:
                    return
                yield cast("Recorded", self.decode(row))

    def _corrections(self, gt: int, lte: int) -> list[Recorded]:
        rows = self.rows.picked(self.stream, CORRECTION_TOPICS, gt, lte)
        return [cast("Recorded", self.decode(row)) for row in rows]

    def _reach(self, found: Sequence[Recorded]) -> int | None:
        """The earliest version the corrections among ``found`` change (None: none)."""
        earliest: int | None = None
        for record in found:
            event = record.event
            if isinstance(event, RulingRetracted | RulingAmended):
                placed = self.place(event.ruling) if self.place is not None else None
                if event.versions:
                    here = min(event.versions)
                elif placed is not None:
                    here = placed
                else:  # its replacements stand before the first record of a later ruling
                    here = next(
                        (
                            r.originator_version
                            for r in self._records(0, record.originator_version)
                            if r.ruling > event.ruling
                        ),
                        record.originator_version,
                    )
                earliest = here if earliest is None else min(earliest, here)
        return earliest

    def close(self, target: int, *, held: bool = True) -> Any:
        """The state at ``target``: the records in hand are those up to it (``held`` false:
        none are, and the records since the last state kept are read again)."""
        points, at = self.points, len(self.points) - 1
        records: Any = self.chunk if held else None
        found = (
            [r for r in self.chunk if isinstance(r.event, RulingRetracted | RulingAmended)]
            if held
            else self._corrections(points[at], target)
        )
        reach = self._reach(found)
        while not (at == 0 or reach is None or reach > points[at]):
            at = max(0, bisect_left(points, reach) - 1)
            found = self._corrections(points[at], target)
            reach = self._reach(found)
            records = None
        if records is None:
            records = self._records(points[at], target)
        self.chunk = []
        state = fold(records, self.evolve, self.states[at], corrections(found))
        points.append(target)
        self.states.append(state)
        self._thin()
        return state

    def _thin(self) -> None:
        """Let go of the state that leaves the latest ``KEEP`` when it stands less than
        ``CHECKPOINT`` versions after the one kept before it, and of the oldest past ``KEEP``
        more (the empty state at 0 stays)."""
        points = self.points
        leaving = len(points) - KEEP - 1
        if leaving >= 2 and points[leaving] - points[leaving - 1] < CHECKPOINT:
            del points[leaving], self.states[leaving]
        if len(points) > 2 * KEEP + 1:
            del points[1], self.states[1]


class Replay:
    """Folds each stream of a campaign with its rules and compares the stored snapshots."""

    def __init__(self, store: CampaignStore, ledger: RulingLedger) -> None:
        self.store = store
        self.ledger = ledger
        self.replayed = 0
        self.compared = 0
        self.directory: Any = None  # the directory as replayed
        self.registered: dict[UUID, int] = {}  # campaign id: directory version of its entry

    def evolve(self, stream: UUID) -> Evolve | str:
        if stream == DIRECTORY:
            return evolve_directory
        if stream == self.ledger.campaign_id:
            return evolve_campaign
        from domain.rulesets import ruleset_named

        system = (self.ledger.created or {}).get("system")
        try:
            return ruleset_named(str(system)).evolve_character
        except Exception as error:
            return f"the campaign's system {system!r} has no rules here ({why(error)})"

    def stream(self, stream: UUID, end: int) -> StreamReplay:
        return StreamReplay(self, stream, end)


class StreamReplay:
    """One stream replayed as its rows are read (``record``), its snapshots handed in version
    order (``snapshot``) with the stored link at their version, compared as the replay reaches
    them; ``done`` gives the findings."""

    def __init__(self, replay: Replay, stream: UUID, end: int) -> None:
        self.replay = replay
        self.end = end  # the stream's last stored version
        self.stream = stream
        self.directory = stream == DIRECTORY
        self.owner = replay.ledger.owner(stream) if not self.directory else (lambda _: None)
        self.campaign = stream == replay.ledger.campaign_id
        self.decode = replay.store.mapper.to_domain_event
        self.decoded: list[Finding] = []
        self.envelopes: list[Finding] = []
        self.conflict: list[Finding] = []
        self.snapshots: list[Finding] = []
        self.pending: list[tuple[Stored, str]] = []  # snapshots handed, not compared yet
        self.last = 0  # the last version decoded
        self.state: Any = None  # the state at the last point
        evolve = replay.evolve(stream)
        self.folding: Folding | None = None
        if isinstance(evolve, str):
            self.conflict.append(Finding("replay", evolve, stream))
        else:
            replay.replayed += 1
            rows = StoreRows(replay.store.recorder)
            self.folding = Folding(strict(evolve), stream, rows, self.decode)
        self.stopped = False  # a row did not decode: the replay ends before it
        self.target: int | None = None  # the next wanted version (None: not known)
        self.policy: PolicyWalk | None = None  # who could make each ruling, on the campaign's
        if self.campaign:
            from engine.audit.policy import PolicyWalk  # it folds with ``Folding``, defined here

            rows = StoreRows(replay.store.recorder)
            self.policy = PolicyWalk(stream, rows, self.decode)

    def snapshot(self, found: Stored, link: str) -> None:
        self.pending.append((found, link))
        self.target = None

    def record(self, row: StoredEvent) -> None:
        if self.stopped:
            return
        try:
            record = cast("Recorded", self.decode(row))
        except Exception as error:  # a damaged row is a finding, not a crash
            version = row.originator_version
            problem = f"version {version} does not decode ({why(error)}); replayed up to it"
            self.decoded.append(
                Finding("replay", problem, self.stream, version, self.owner(version))
            )
            self.stopped = True
            return
        if self.directory:
            campaign_id = getattr(record.event, "campaign_id", None)
            if isinstance(campaign_id, UUID):
                self.replay.registered.setdefault(campaign_id, record.originator_version)
        else:
            self._envelope(record)
        if self.policy is not None:
            self.policy.record(record)
        version = record.originator_version
        if self.folding is not None:
            if self.target is None or self.target < version:
                self._close_before(version)
            if self.folding is not None:
                self.folding.chunk.append(record)
        self.last = version

    def _targets(self, below: int) -> Iterator[int]:
        """The wanted versions before ``below`` not folded to yet: each snapshot's, and every
        ``CHECKPOINT``-th."""
        assert self.folding is not None
        while True:
            point = self.folding.points[-1]
            checkpoint = (point // CHECKPOINT + 1) * CHECKPOINT
            versions = [v for (v, _, _), _ in self.pending if v > point]
            target = min([checkpoint, *versions])
            if target >= below:
                self.target = target
                return
            yield target

    def _close_before(self, below: int) -> None:
        for target in self._targets(below):
            self._close(target)
            if self.folding is None:
                return

    def _close(self, target: int) -> None:
        assert self.folding is not None
        try:
            self.state = self.folding.close(target)
        except HistoryConflict as conflict:
            self.conflict.append(self._conflicted(conflict))
            self.folding = None
            return
        self._compare(target, self.state)

    def _compare(self, target: int | None, state: Any) -> None:
        """The snapshots handed up to ``target`` (all of them: None), the one at it compared
        with ``state``."""
        while self.pending and (target is None or self.pending[0][0][0] <= target):
            (version, status, snapshot), link = self.pending.pop(0)
            at = state if version == target else _NONE
            self.snapshots += self._checked(version, status, snapshot, link, at)

    def done(self) -> list[Finding]:
        """The findings, once every row and snapshot was handed."""
        if self.folding is not None and self.last:
            self._close_before(self.last)
            if self.folding is not None:
                self._close(self.last)
        if self.directory:
            at_end = self.folding is not None and self.folding.points[-1] == self.last
            self.replay.directory = self.state if at_end and self.last else None
        self._compare(None, _NONE)
        policy = self.policy.findings() if self.policy is not None else []
        return [*self.decoded, *self.envelopes, *self.conflict, *self.snapshots, *policy]

    def _conflicted(self, conflict: HistoryConflict) -> Finding:
        where = conflict.event
        ruling = getattr(where, "ruling", None)
        version = getattr(where, "originator_version", None)
        kind = type(getattr(where, "event", None)).__name__
        problem = conflict.problem
        reason = problem.reason if isinstance(problem, DomainError) else str(problem)
        at = f" (version {version})" if version is not None else " (its amended events)"
        text = f"the history does not replay: ruling {ruling}'s {kind}{at} does not apply: {reason}"
        return Finding("replay", text, self.stream, version, ruling)

    def _envelope(self, record: Recorded) -> None:
        """Each row's envelope names the ruling whose header claims it."""
        version = record.originator_version
        claimed = self.owner(version)
        if claimed is None or record.ruling == claimed:
            return
        if self.campaign and record.event.__class__.__name__ == "RulingMade":
            return  # a header inside a claimed range: named by the ledger
        problem = (
            f"version {version} says it was recorded by ruling {record.ruling}, but ruling "
            f"{claimed}'s header claims it"
        )
        self.envelopes.append(Finding("orphan", problem, self.stream, version, claimed))

    def _checked(
        self, version: int, status: str, snapshot: Snapshot | None, link: str, state: Any
    ) -> Iterator[Finding]:
        here = self.owner(version)
        stream = self.stream
        name = f"the snapshot at version {version}"
        if snapshot is None:
            yield Finding("snapshot", f"{name} {status}", stream, version, here)
            return
        if status == EDITED:
            problem = f"{name} was edited: its own link does not hold"
            yield Finding("snapshot", problem, stream, version, here)
            return
        if not 0 < version <= self.end:
            problem = f"{name} is past the stream's last version ({self.end})"
            yield Finding("snapshot", problem, stream, version, here)
            return
        if status != UNLINKED and snapshot.chain and snapshot.chain != link:
            problem = (
                f"{name} was not taken from the stored history: the link it names is not "
                f"that of the event at version {version}"
            )
            yield Finding("snapshot", problem, stream, version, here)
        if snapshot.state is None or state is _NONE:
            return  # another shape of the state class (never loaded), or not replayed
        self.replay.compared += 1
        if snapshot.state != state:
            differs = _difference(snapshot.state, state)
            problem = f"{name} does not match the replay: {differs}"
            yield Finding("snapshot", problem, stream, version, here)


_NONE: Any = object()  # no replayed state at a snapshot's version


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
