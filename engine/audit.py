"""`campaign verify`: walk every chain and seal of a campaign in the store's raw rows, check that
every stored row belongs to a ruling and every ruling's rows are there, then replay every stream
with the rules and compare every stored snapshot with the state at its version.

The structural checks (``verify_rows``, also run on an export being imported) work on the stored
bytes, so a row that no longer decodes is reported rather than crashing the check; the replay
(``verify`` on a store) decodes each row and reports the first that does not decode or apply.

The checks live by theme: ``engine.audit_chain`` (the rows and each stream's chain),
``engine.audit_ledger`` (the rulings' headers and the versions they claim), ``engine.audit_seals``,
``engine.audit_dice``, ``engine.audit_replay``. The report's types are defined in
``engine.audit_report`` and named here too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING
from uuid import UUID

import attrs
from eventsourcing.persistence import StoredEvent

from engine.audit_chain import check_stream, heads_digest, stored_body, why
from engine.audit_dice import SessionDice
from engine.audit_ledger import RulingLedger, roster
from engine.audit_replay import Replay, snapshot_anchors, stored_snapshots
from engine.audit_report import Break as Break
from engine.audit_report import DiceCheck as DiceCheck
from engine.audit_report import Finding as Finding
from engine.audit_report import Report as Report
from engine.audit_report import Seal as Seal
from engine.audit_seals import check_seal, rewritten
from engine.records import DIRECTORY_ID as DIRECTORY

if TYPE_CHECKING:
    from engine.store import CampaignStore


def _rows(store: CampaignStore, stream: UUID) -> Sequence[StoredEvent]:
    return store.recorder.select_events(stream)


def verify(store: CampaignStore, campaign_id: UUID) -> Report:
    """Check every stream the campaign's rulings wrote to, every ruling's ranges, every seal,
    the store's directory entry; then replay every stream with the rules and compare every
    stored snapshot with the state at its version."""
    campaign_rows = _rows(store, campaign_id)
    read = _read(campaign_id, campaign_rows)  # each row of the campaign stream parsed once
    streams = [campaign_id, *(s for s in read[0].touched if s != campaign_id)]
    streams += [s for s in roster(campaign_rows) if s not in streams]
    rows = {campaign_id: campaign_rows, **{s: _rows(store, s) for s in streams[1:]}}
    stored = {s: stored_snapshots(store, s) for s in [*streams, DIRECTORY]}
    anchors = {s: snapshot_anchors(found) for s, found in stored.items() if s != DIRECTORY}
    report, ledger = _verify_rows(campaign_id, rows, anchors, read)
    findings = list(report.findings)
    breaks = list(report.breaks)
    directory_rows = _rows(store, DIRECTORY)
    broken = check_stream(DIRECTORY, directory_rows)
    if broken is not None:
        breaks.append(broken)
    replay = Replay(store, ledger)
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


def _read(
    campaign_id: UUID, campaign_rows: Sequence[StoredEvent]
) -> tuple[RulingLedger, SessionDice]:
    """What the campaign stream's rows say of its rulings and sessions, and of its dice."""
    ledger = RulingLedger(campaign_id)
    dice = SessionDice()
    for row in campaign_rows:
        body = stored_body(row)
        if not isinstance(body, dict):
            continue  # not readable: its chain check names it
        try:
            dice.read(row.topic, body)
            ledger.read(row, body)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            version = row.originator_version
            problem = f"version {version} does not read as a {row.topic} ({why(error)})"
            ledger.problems.append(Finding("ruling", problem, campaign_id, version))
    return ledger, dice


def _verify_rows(
    campaign_id: UUID,
    rows: Mapping[UUID, Sequence[StoredEvent]],
    anchors: Mapping[UUID, Sequence[tuple[int, str, str]]],
    read: tuple[RulingLedger, SessionDice] | None = None,
) -> tuple[Report, RulingLedger]:
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
    seals = tuple(check_seal(event, rows) for _, event in ledger.sealed)
    findings = ledger.findings(rows)
    findings += rewritten(rows, ledger, breaks, anchors)
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


def _ordered(findings: Sequence[Finding]) -> tuple[Finding, ...]:
    return tuple(
        sorted(
            findings,
            key=lambda f: (f.ruling or 0, f.session or 0, str(f.stream or ""), f.version or 0),
        )
    )


def _directory_findings(replay: Replay, ledger: RulingLedger) -> list[Finding]:
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
