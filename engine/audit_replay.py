"""The replay ``verify`` runs on a store: every stream folded with its rules (the campaign's,
its system's, the store directory's), and every stored snapshot compared with the state at its
version."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

import attrs
from eventsourcing.persistence import StoredEvent

from domain.campaign import evolve_campaign, evolve_directory
from domain.errors import DomainError, HistoryConflict, ReplayMismatch
from domain.events import Event, RulingAmended, RulingRetracted
from engine.audit_chain import link_at, why
from engine.audit_report import Finding
from engine.mapper import EDITED, UNLINKED, read_snapshot
from engine.records import DIRECTORY_ID as DIRECTORY
from engine.records import Recorded, Snapshot
from engine.streams import Evolve, corrections, fold

if TYPE_CHECKING:
    from engine.audit_ledger import RulingLedger
    from engine.store import CampaignStore

CHECKPOINT = 1000  # the replay keeps the state every this many versions (see ``_states``)

_Stored = tuple[int, str, Snapshot | None]  # a stored snapshot: version, how it reads, snapshot


def stored_snapshots(store: CampaignStore, stream: UUID) -> list[_Stored]:
    """The stream's stored snapshots, each as ``read_snapshot`` reads it (or why it does not)."""
    if store.snapshots is None:
        return []
    found: list[_Stored] = []
    for row in store.snapshots.recorder.select_events(stream):
        try:
            status, snapshot = read_snapshot(row)
        except Exception as error:  # any damage to a stored snapshot is a finding, not a crash
            found.append((row.originator_version, f"does not read ({why(error)})", None))
            continue
        found.append((row.originator_version, status, snapshot))
    return found


def snapshot_anchors(found: Sequence[_Stored]) -> list[tuple[int, str, str]]:
    return [
        (version, snapshot.chain, f"the snapshot at version {version}")
        for version, _, snapshot in found
        if snapshot is not None and snapshot.chain
    ]


def _strict(evolve: Evolve) -> Evolve:
    """``evolve``, where any failure to apply an event is a misfit fold names with its record."""

    def apply(event: Event, state: Any) -> Any:
        try:
            return evolve(event, state)
        except (DomainError, ReplayMismatch):
            raise
        except Exception as error:  # a forged event of a kind this stream never holds, say
            raise ReplayMismatch(why(error)) from error

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


class Replay:
    """Folds each stream of a campaign with its rules and compares the stored snapshots."""

    def __init__(self, store: CampaignStore, ledger: RulingLedger) -> None:
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
            return f"the campaign's system {system!r} has no rules here ({why(error)})"

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
                problem = f"version {version} does not decode ({why(error)}); replayed up to it"
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
            if status != UNLINKED and snapshot.chain and snapshot.chain != link_at(rows, version):
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
