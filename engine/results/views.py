"""The results of the reads and commands, one type per use, as every front end gives them: a
ruling (what a command recorded, a ruling of the log, a dispute: ``engine.results.ruling``),
a member, a character with its sheet's extras, a change of a character's history, a field that
differs, a row of the dice report and the verify report.

Each is a frozen attrs value built once here from what the engine read. ``converter.unstructure``
of one is the JSON of `campaign --json …` and the HTTP API gives the same keys and values (the
server encodes the same classes, and reads their fields for its OpenAPI schema); the text, page
and Markdown renderers take the same values. (The recap and the Exposure timelines are the
projections' views, ``projections.views``: plain data already, given as they are built.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from attrs import Factory, frozen

from domain.campaign import CampaignState
from engine.audit.report import IdleRoll
from engine.results.log_lines import event_lines, names
from engine.results.ruling import DisputeView, dispute_views
from engine.store.mapper import converter

if TYPE_CHECKING:
    from engine.audit.report import Report
    from engine.reads.timeline import Change
    from engine.store.log import LoggedRuling
    from projections.dice_stats import FaceCounts


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
    amended, re-decided; None: as recorded), the events it recorded for the character (and
    their lines, as the log frames them) and the ruling's disputes."""

    ruling: int
    command: str
    actor: str
    at: str
    undone: bool
    amended: bool
    status: str | None
    events: list[dict[str, Any]]
    disputes: list[DisputeView]
    lines: list[str] = Factory(list)


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
            lines=event_lines(c.events, campaign),
        )
        for c in changes
    ]


@frozen(kw_only=True)
class ReplayStep:
    """A ruling as `campaign replay` narrates it: its header, how it stands, its narration as
    it stands, the lines of what stands for it, and each character's state after it (by name,
    as the system's sheet sums it up)."""

    ruling: int
    command: str
    actor: str
    session: int | None
    scene: int | None
    status: str | None
    say: str
    lines: list[str]
    after: dict[str, str]


def replay_step(
    logged: LoggedRuling, campaign: CampaignState, after: Iterable[tuple[str, str]]
) -> ReplayStep:
    header = logged.header
    return ReplayStep(
        ruling=logged.ruling.number,
        command=logged.ruling.command,
        actor=header.actor,
        session=header.session,
        scene=header.scene,
        status=logged.status or None,
        say=logged.say,
        lines=event_lines(logged.standing, campaign),
        after=dict(after),
    )


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
    """A session's committed dice as `verify` reports them; ``changed_nothing``: the committed
    rolls nobody sealed that changed nothing (``engine.audit.idle``), in the order recorded."""

    session: int
    rulings: int
    revealed: bool
    problems: list[str]
    warnings: list[str]
    changed_nothing: list[IdleRoll] = Factory(list)


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
                changed_nothing=list(d.idle),
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
