"""`campaign verify`: walk every chain and seal of a campaign in the store's raw rows, check that
every stored row belongs to a ruling and every ruling's rows are there, then replay every stream
with the rules and compare every stored snapshot with the state at its version.

The structural checks (``verify_rows``, also run on an export being imported) work on the stored
bytes, so a row that no longer decodes is reported rather than crashing the check; the replay
(``verify`` on a store) decodes each row and reports the first that does not decode or apply.

Rows are read a page at a time (``engine.audit.rows``), twice for the campaign stream (what its
headers say, then its chain) and once for every other: what is held is a page, each stream's
head, the ranges the rulings claim and what a stream's replay holds (``engine.audit.replay``).

Then ``verify`` walks the store's rows once more in the order recorded, as the read models read
them (``engine.audit.log``): each decoded, taken as whole rulings, and handed to the read models
the store keeps, computed again and compared (``engine.audit.models``).

The checks live by theme: ``engine.audit.chain`` (the rows and each stream's chain),
``engine.audit.ledger`` (the rulings' headers and the versions they claim), ``engine.audit.seals``,
``engine.audit.dice``, ``engine.audit.replay``, ``engine.audit.log`` (with ``engine.audit.rulings``
and ``engine.audit.models``), ``engine.audit.decoding``. The report's types are defined in
``engine.audit.report`` and named here too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING
from uuid import UUID

import attrs
from eventsourcing.persistence import StoredEvent

from engine.audit.chain import ChainWalk, Withheld, head_of, heads_digest, stored_body, why
from engine.audit.decoding import undecoded
from engine.audit.dice import SECRETS, SessionDice
from engine.audit.ledger import Claims, RulingLedger
from engine.audit.log import LogWalk
from engine.audit.models import recompute_of
from engine.audit.replay import Replay, Stored, StreamReplay, anchor_of, stored_snapshots
from engine.audit.report import Break as Break
from engine.audit.report import DiceCheck as DiceCheck
from engine.audit.report import Finding as Finding
from engine.audit.report import Report as Report
from engine.audit.report import Seal as Seal
from engine.audit.rows import HeldRows, Rows, StoreRows
from engine.audit.seals import Anchor, Anchors, check_seal, seal_anchors, sealed_links
from engine.store.chain import stored_link
from engine.store.mapper import split_chain
from engine.store.records import DIRECTORY_ID as DIRECTORY

if TYPE_CHECKING:
    from engine.reads.models import ReadModels
    from engine.store.campaign_store import CampaignStore


def verify(
    store: CampaignStore, campaign_id: UUID, read_models: ReadModels | None = None
) -> Report:
    """Check every stream the campaign's rulings wrote to, every ruling's ranges, every seal,
    the store's directory entry; then replay every stream with the rules and compare every
    stored snapshot with the state at its version; then walk the store's log in the order
    recorded as the read models read it (``engine.audit.log``), computing again each read model
    ``read_models`` keeps and comparing it."""
    rows = StoreRows(store.recorder)
    ledger, dice = _read(campaign_id, rows)
    streams = [campaign_id, *(s for s in ledger.touched if s != campaign_id)]
    streams += [s for s in ledger.roster if s not in streams]
    replay = Replay(store, ledger)
    report = _verify_rows(campaign_id, rows, streams, ledger, dice, replay)
    directory = _Walk(DIRECTORY, rows, ledger, replay=replay.stream(DIRECTORY, rows.end(DIRECTORY)))
    directory.run(stored_snapshots(store, DIRECTORY))
    breaks = [*report.breaks, *([directory.chain.broken] if directory.chain.broken else [])]
    findings = [*report.findings, *directory.replayed, *_directory_findings(replay, ledger)]
    walked = {*streams, DIRECTORY}
    recompute = recompute_of(read_models, campaign_id)
    logged = LogWalk(store, campaign_id, walked, recompute, ledger).run()
    named = {(f.stream, f.version) for f in findings} | {(b.stream, b.version) for b in breaks}
    findings += [f for f in logged.findings if (f.stream, f.version) not in named]
    return attrs.evolve(
        report,
        breaks=tuple(breaks),
        findings=_ordered(findings),
        replayed=replay.replayed,
        snapshots=replay.compared,
        models=logged.models,
    )


def verify_rows(
    campaign_id: UUID, rows: Mapping[UUID, Sequence[StoredEvent]], *, findings: bool = False
) -> Report:
    """Check the rows of a campaign's streams (from an export, in memory): chains, the rulings'
    ranges, seals (and their chain) and dice, and that every row decodes as an import decodes
    it (``undecoded``: always a finding); with ``findings``, also every ruling's header and the
    versions it claims, missing seals, counters (``Finding``)."""
    report = verify_stored(campaign_id, HeldRows(rows), list(rows), findings=findings)
    unreadable = undecoded(campaign_id, rows)
    if not unreadable:
        return report
    return attrs.evolve(report, findings=_ordered([*report.findings, *unreadable]))


def verify_stored(
    campaign_id: UUID, rows: Rows, streams: Sequence[UUID], *, findings: bool = False
) -> Report:
    """``verify_rows`` over ``streams`` of rows read a page at a time (an export being
    imported, held in a scratch store)."""
    ledger, dice = _read(campaign_id, rows)
    report = _verify_rows(campaign_id, rows, streams, ledger, dice)
    return report if findings else attrs.evolve(report, findings=())


def _read(campaign_id: UUID, rows: Rows) -> tuple[RulingLedger, SessionDice]:
    """What the campaign stream's rows say of its rulings and sessions, and of its dice."""
    ledger = RulingLedger(campaign_id, rows)
    dice = SessionDice()
    dice.first(rows.picked(campaign_id, SECRETS))
    for page in rows.pages(campaign_id):
        for row in page:
            if isinstance(row, Withheld):  # a member's copy: a row not theirs to read
                dice.withheld(row.topic)
                continue
            body = stored_body(row)
            if not isinstance(body, dict):
                continue  # not readable: its chain check names it
            try:
                dice.read(row.originator_version, row.topic, body)
                ledger.read(row, body)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                version = row.originator_version
                problem = f"version {version} does not read as a {row.topic} ({why(error)})"
                ledger.problems.append(Finding("ruling", problem, campaign_id, version))
    return ledger, dice


class _Walk:
    """One stream's rows read in pages and handed to every check that reads them: its chain,
    the rulings' claims, the links seals and snapshots recorded, its replay."""

    def __init__(
        self,
        stream: UUID,
        rows: Rows,
        ledger: RulingLedger,
        *,
        claims: bool = False,
        wanted: frozenset[int] = frozenset(),
        anchors: Sequence[Anchor] = (),
        replay: StreamReplay | None = None,
    ) -> None:
        self.stream = stream
        self.rows = rows
        self.chain = ChainWalk(stream, ledger.owner(stream) if claims else None)
        self.claims = Claims(ledger, stream) if claims else None
        self.wanted = wanted
        self.links: dict[tuple[UUID, int], str] = {}  # the stored link at each version wanted
        self.sealed = list(anchors)
        self.anchors = Anchors()
        self.replay = replay
        self.replayed: list[Finding] = []
        self.count = 0
        self.head: tuple[int, str] | None = None

    def run(self, snapshots: Iterator[Stored] | None = None) -> None:
        snapshots = snapshots or iter(())
        ahead = next(snapshots, None)
        last: StoredEvent | None = None
        for page in self.rows.pages(self.stream):
            for row in page:
                version = row.originator_version
                fast = split_chain(row.state)
                link = fast[0] if fast is not None else stored_link(row.state)
                if ahead is not None or self.sealed:  # else nothing is recorded here
                    ahead = self._recorded(version, link, ahead, snapshots)
                self.chain.row(row, fast)
                if self.claims is not None:
                    self.claims.row(row)
                if version in self.wanted:
                    self.links[(self.stream, version)] = link
                if self.replay is not None:
                    self.replay.record(row)
                self.count += 1
            last = page[-1]
        self._recorded(None, "", ahead, snapshots)
        if last is not None:
            self.head = head_of(last)
        if self.replay is not None:
            self.replayed = self.replay.done()

    def _recorded(
        self, version: int | None, link: str, ahead: Stored | None, snapshots: Iterator[Stored]
    ) -> Stored | None:
        """The snapshots and seals' links recorded up to ``version`` (None: all the rest),
        handed to the replay and to the rewritten-chain check with the stored link there."""
        at: dict[int, list[Anchor]] = {}
        while ahead is not None and (version is None or ahead[0] <= version):
            here = link if ahead[0] == version else ""
            if self.replay is not None:
                self.replay.snapshot(ahead, here)
            anchor = anchor_of(ahead)
            if anchor is not None and version is not None:  # none past the stream's end
                at.setdefault(anchor[0], []).append(anchor)
            ahead = next(snapshots, None)
        while self.sealed and (version is None or self.sealed[0][0] <= version):
            anchor = self.sealed.pop(0)
            at.setdefault(anchor[0], []).append(anchor)
        for where in sorted(at):
            self.anchors.feed(where, sorted(at[where]), link if where == version else "")
        return ahead


def _verify_rows(
    campaign_id: UUID,
    rows: Rows,
    streams: Sequence[UUID],
    ledger: RulingLedger,
    dice: SessionDice,
    replay: Replay | None = None,
) -> Report:
    """Walk each of ``streams`` once (and, with ``replay``, replay it and compare its stored
    snapshots), after the campaign stream was read (``ledger``, ``dice``)."""
    wanted = sealed_links(ledger)
    sealed = seal_anchors(ledger)
    breaks: list[Break] = []
    claims: list[Finding] = []
    rewritten: list[Finding] = []
    replayed: list[Finding] = []
    heads: dict[UUID, tuple[int, str]] = {}
    links: dict[tuple[UUID, int], str] = {}
    events = 0
    for stream in streams:
        walk = _Walk(
            stream,
            rows,
            ledger,
            claims=True,
            wanted=frozenset(wanted.get(stream, ())),
            anchors=sealed.get(stream, ()),
            replay=replay.stream(stream, rows.end(stream)) if replay is not None else None,
        )
        walk.run(stored_snapshots(replay.store, stream) if replay is not None else None)
        broken = walk.chain.broken
        if broken is not None:
            breaks.append(broken)
        assert walk.claims is not None
        claims += walk.claims.done()
        found = walk.anchors.finding(stream, ledger) if broken is None else None
        if found is not None:
            rewritten.append(found)
        replayed += walk.replayed
        links.update(walk.links)
        if walk.head is not None:
            heads[stream] = walk.head
        events += walk.count
    chained = {b.stream for b in breaks}
    breaks += [b for stream, b in ledger.tails.items() if stream not in chained]
    seals = tuple(check_seal(event, links) for _, event in ledger.sealed)
    findings = [*ledger.findings(rows), *claims, *ledger.later_findings(), *rewritten]
    return Report(
        streams=len(streams),
        events=events,
        seals=seals,
        breaks=tuple(sorted(breaks, key=lambda b: (b.ruling or 0, str(b.stream)))),
        dice=dice.checks(),
        digest=heads_digest(heads),
        findings=_ordered([*findings, *replayed]),
    )


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
