"""The results of the reads and commands, one type per use, as every front end gives them: what
a command recorded (``RulingView``), a ruling of the log (``LogEntry``), a dispute, a member, a
character with its sheet's extras, a change of a character's history, a field that differs, a
row of the dice report and the verify report.

Each is a frozen attrs value built once here from what the engine read. ``converter.unstructure``
of one is the JSON of `campaign --json …` and the HTTP API gives the same keys and values (the
server encodes the same classes, and reads their fields for its OpenAPI schema); the text, page
and Markdown renderers take the same values. (The recap and the Exposure timelines are the
projections' views, ``projections.views``: plain data already, given as they are built.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from attrs import frozen

from domain.campaign import CampaignState, Dispute
from domain.events import RulingMade
from engine.results.log_lines import names
from engine.store.mapper import converter
from engine.store.records import Recorded
from projections.describe import describe

if TYPE_CHECKING:
    from engine.audit.report import Report
    from engine.corrections.undo import LoggedRuling
    from engine.reads.timeline import Change
    from engine.write.assembly import RulingResult
    from projections.dice_stats import FaceCounts


# --- What a command recorded, and the log --------------------------------------------------------


@frozen(kw_only=True)
class DieView:
    sides: int
    face: int


@frozen(kw_only=True)
class EventView:
    """One recorded event: its type, where it is (stream, version), the character it is about
    (None: the campaign), its fields and its line of the log (None: it has none)."""

    type: str
    stream: str
    version: int
    character: str | None
    data: dict[str, Any]
    text: str | None


def event_view(record: Recorded, who: dict[UUID, str]) -> EventView:
    return EventView(
        type=type(record.event).__name__,
        stream=str(record.originator_id),
        version=record.originator_version,
        character=who.get(record.originator_id),
        data=converter.unstructure(record.event),
        text=describe(record.event),
    )


@frozen(kw_only=True)
class RulingView:
    """What one command recorded."""

    ruling: int
    command: str
    actor: str
    at: str
    session: int | None
    scene: int | None
    dice: list[DieView]
    provenance: str | None
    events: list[EventView]


def ruling_view(result: RulingResult) -> RulingView:
    header = result.header
    who = names(result.campaign)
    return RulingView(
        ruling=result.number,
        command=result.command,
        actor=header.actor,
        at=header.timestamp.isoformat(),
        session=header.session,
        scene=header.scene,
        dice=[DieView(sides=d.sides, face=d.face) for d in result.dice],
        provenance=None if result.provenance is None else str(result.provenance),
        events=[event_view(r, who) for r in result.records if not isinstance(r.event, RulingMade)],
    )


@frozen(kw_only=True)
class DisputeView:
    """A member's objection to a ruling, and how the GM resolved it (``outcome`` None while
    open)."""

    dispute: int
    ruling: int
    by: str
    reason: str
    outcome: str | None
    resolution: str


def dispute_view(d: Dispute) -> DisputeView:
    return DisputeView(
        dispute=d.number,
        ruling=d.ruling,
        by=d.by,
        reason=d.reason,
        outcome=None if d.outcome is None else str(d.outcome),
        resolution=d.resolution,
    )


def dispute_views(campaign: CampaignState, ruling: int | None = None) -> list[DisputeView]:
    """The campaign's disputes (those of ``ruling`` when given), in order."""
    return [dispute_view(d) for d in campaign.disputes if ruling is None or d.ruling == ruling]


@frozen(kw_only=True)
class UndoneView:
    by: int
    actor: str
    reason: str


@frozen(kw_only=True)
class AmendedView:
    """A correction of a ruling (``kind``: ``amended`` or ``re-decided``) and what now stands;
    ``say``: the narration it gave the ruling (null: it left the narration as it was)."""

    by: int
    kind: str
    actor: str
    reason: str
    events: list[EventView]
    say: str | None = None


@frozen(kw_only=True)
class LogEntry:
    """One ruling of the log, as its reader may read it: its header, parameters and dice, the
    events it recorded, its undo and amendments, and its disputes."""

    ruling: int
    command: str
    params: dict[str, Any]
    actor: str
    at: str
    session: int | None
    scene: int | None
    dice: list[DieView]
    provenance: str | None
    seed: int | None
    undone: UndoneView | None
    amended: list[AmendedView]
    events: list[EventView]
    disputes: list[DisputeView]


def log_entry(logged: LoggedRuling, campaign: CampaignState) -> LogEntry:
    made, header, who = logged.ruling, logged.header, names(campaign)
    r = logged.retraction
    return LogEntry(
        ruling=made.number,
        command=made.command,
        params=json.loads(made.params),
        actor=header.actor,
        at=header.timestamp.isoformat(),
        session=header.session,
        scene=header.scene,
        dice=[DieView(sides=d.sides, face=d.face) for d in made.dice],
        provenance=None if made.provenance is None else str(made.provenance),
        seed=made.seed,
        undone=None if r is None else UndoneView(by=r.by, actor=r.actor, reason=r.reason),
        amended=[
            AmendedView(
                by=a.by,
                kind=a.kind,
                actor=a.actor,
                reason=a.reason,
                events=[event_view(e, who) for e in a.events],
                say=a.say,
            )
            for a in logged.amendments
        ],
        events=[event_view(e, who) for e in logged.events],
        disputes=dispute_views(campaign, made.number),
    )


# --- The table and its characters ---------------------------------------------------------------


@frozen(kw_only=True)
class MemberView:
    """A member of the table: their role and the characters they play (by name, sorted)."""

    name: str
    role: str
    characters: list[str]


def member_views(campaign: CampaignState) -> list[MemberView]:
    who = names(campaign)
    return [
        MemberView(
            name=m.name,
            role=str(m.role),
            characters=sorted(who[c] for c in campaign.own_characters(m) if c in who),
        )
        for m in campaign.seats
    ]


@frozen(kw_only=True)
class CharacterView:
    """A character as its sheet shows it: its state, and the extras its system's sheet adds
    (what it is waiting for, its encumbrance, ...). Its JSON is one object: the state's fields
    and the extras beside them."""

    state: Any
    extras: dict[str, Any]


def character_view(system: str, state: Any) -> CharacterView:
    from projections.presentation import presentation_of

    return CharacterView(state=state, extras=presentation_of(system).sheet_extras(state))


def _sheet(view: CharacterView) -> dict[str, Any]:
    data: dict[str, Any] = converter.unstructure(view.state)
    return data | view.extras


converter.register_unstructure_hook(CharacterView, _sheet)


@frozen(kw_only=True)
class HistoryEntry:
    """A ruling that changed a character: its header, how it stands (``status``: undone,
    amended, re-decided; None: as recorded), the events it recorded for the character and the
    ruling's disputes."""

    ruling: int
    command: str
    actor: str
    at: str
    undone: bool
    amended: bool
    status: str | None
    events: list[dict[str, Any]]
    disputes: list[DisputeView]


def history_entries(changes: Iterable[Change], campaign: CampaignState) -> list[HistoryEntry]:
    return [
        HistoryEntry(
            ruling=c.logged.ruling.number,
            command=c.logged.ruling.command,
            actor=c.logged.header.actor,
            at=c.logged.header.timestamp.isoformat(),
            undone=c.logged.retraction is not None,
            amended=bool(c.logged.amendments),
            status=c.logged.status or None,
            events=[converter.unstructure(r.event) for r in c.events],
            disputes=dispute_views(campaign, c.logged.ruling.number),
        )
        for c in changes
    ]


@frozen(kw_only=True)
class FieldChange:
    """A field that differs between two states: its path, and its value before and after."""

    field: str
    before: Any
    after: Any


def field_changes(changes: Iterable[tuple[str, Any, Any]]) -> list[FieldChange]:
    return [
        FieldChange(field=f, before=converter.unstructure(b), after=converter.unstructure(a))
        for f, b, a in changes
    ]


# --- The dice report and the verify report -------------------------------------------------------


@frozen(kw_only=True)
class DiceRow:
    """The faces one die size showed from one source, with a chi-square test against a fair
    die (``enough_rolls``: five rolls a face or more, for the test to say much)."""

    sides: int
    source: str | None
    rolls: int
    counts: list[int]
    chi_square: float
    p_value: float
    enough_rolls: bool


def dice_rows(rows: Iterable[FaceCounts]) -> list[DiceRow]:
    return [
        DiceRow(
            sides=r.sides,
            source=None if r.source is None else str(r.source),
            rolls=r.rolls,
            counts=list(r.counts),
            chi_square=round(r.chi_square, 4),
            p_value=round(r.p_value, 6),
            enough_rolls=r.enough,
        )
        for r in rows
    ]


@frozen(kw_only=True)
class SealView:
    session: int
    digest: str
    intact: bool
    problem: str


@frozen(kw_only=True)
class DiceCheckView:
    session: int
    rulings: int
    revealed: bool
    problems: list[str]
    warnings: list[str]


@frozen(kw_only=True)
class BreakView:
    stream: str
    version: int
    ruling: int | None
    problem: str


@frozen(kw_only=True)
class FindingView:
    kind: str
    stream: str | None
    version: int | None
    ruling: int | None
    session: int | None
    problem: str


@frozen(kw_only=True)
class VerifyReport:
    """`campaign verify`: whether the log holds, its digest, what was checked (streams,
    events, streams replayed, snapshots and read models compared), each session's seal and
    committed dice, and every break and finding by its place."""

    intact: bool
    digest: str
    streams: int
    events: int
    replayed: int
    snapshots: int
    models: list[str]
    seals: list[SealView]
    dice: list[DiceCheckView]
    breaks: list[BreakView]
    findings: list[FindingView]


def verify_report(report: Report) -> VerifyReport:
    return VerifyReport(
        intact=report.intact,
        digest=report.digest,
        streams=report.streams,
        events=report.events,
        replayed=report.replayed,
        snapshots=report.snapshots,
        models=list(report.models),
        seals=[
            SealView(session=s.session, digest=s.digest, intact=s.intact, problem=s.problem)
            for s in report.seals
        ],
        dice=[
            DiceCheckView(
                session=d.session,
                rulings=d.rulings,
                revealed=d.revealed,
                problems=list(d.problems),
                warnings=list(d.warnings),
            )
            for d in report.dice
        ],
        breaks=[
            BreakView(stream=str(b.stream), version=b.version, ruling=b.ruling, problem=b.problem)
            for b in report.breaks
        ],
        findings=[
            FindingView(
                kind=f.kind,
                stream=None if f.stream is None else str(f.stream),
                version=f.version,
                ruling=f.ruling,
                session=f.session,
                problem=f.problem,
            )
            for f in report.findings
        ],
    )
