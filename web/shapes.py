"""What the API takes and gives, as attrs classes: Litestar reads them for the OpenAPI schema
(``/schema``) and encodes them. The keys are those of the CLI's ``--json`` output."""

from __future__ import annotations

import json
from typing import Any, Literal

from attrs import define, field, frozen

from domain.campaign import CampaignState
from engine import LoggedRuling, Recorded, RulingResult, converter
from projections.describe import describe


@frozen(kw_only=True)
class ErrorBody:
    code: str
    message: str


@frozen(kw_only=True)
class ErrorOut:
    """Every refusal: ``{"error": {"code": CODE, "message": one line}}``."""

    error: ErrorBody


@define(kw_only=True)
class CommandIn:
    """A verb's parameters by name (as `campaign --json log` shows them under ``params``), and
    how its dice come: ``dice`` (faces rolled at the table, in order), ``seed`` (reproducible
    digital dice) or neither (the session's committed dice); ``hidden``: the GM's hidden roll;
    ``say``: the ruling's narration (`--say`)."""

    params: dict[str, Any] = field(factory=dict)
    dice: list[int] | None = None
    seed: int | None = None
    hidden: bool = False
    say: str = ""


@define(kw_only=True)
class UndoIn:
    reason: str
    ruling: int | None = None
    with_dependents: bool = False
    redecide: bool = False


@define(kw_only=True)
class AmendIn:
    ruling: int
    changes: dict[str, str]
    reason: str
    dice: list[int] | None = None
    seed: int | None = None
    with_dependents: bool = False
    redecide: bool = False


@define(kw_only=True)
class ResolveIn:
    dispute: int
    outcome: Literal["upheld", "undone", "amended"]
    reason: str
    changes: dict[str, str] = field(factory=dict)
    dice: list[int] | None = None
    seed: int | None = None
    with_dependents: bool = False
    redecide: bool = False


@frozen(kw_only=True)
class DieOut:
    sides: int
    face: int


@frozen(kw_only=True)
class EventOut:
    type: str
    stream: str
    version: int
    character: str | None
    data: dict[str, Any]
    text: str | None


def event_out(record: Recorded, names: dict[Any, str]) -> EventOut:
    return EventOut(
        type=type(record.event).__name__,
        stream=str(record.originator_id),
        version=record.originator_version,
        character=names.get(record.originator_id),
        data=converter.unstructure(record.event),
        text=describe(record.event),
    )


def names_of(campaign: CampaignState) -> dict[Any, str]:
    return {e.character_id: e.name for e in campaign.roster}


@frozen(kw_only=True)
class RulingOut:
    """What one command recorded."""

    ruling: int
    command: str
    actor: str
    at: str
    session: int | None
    scene: int | None
    dice: list[DieOut]
    provenance: str | None
    events: list[EventOut]


def ruling_out(result: RulingResult) -> RulingOut:
    from domain.events import RulingMade

    header = next(r for r in result.records if isinstance(r.event, RulingMade))
    names = names_of(result.campaign)
    return RulingOut(
        ruling=result.number,
        command=result.command,
        actor=header.actor,
        at=header.timestamp.isoformat(),
        session=header.session,
        scene=header.scene,
        dice=[DieOut(sides=d.sides, face=d.face) for d in result.dice],
        provenance=None if result.provenance is None else str(result.provenance),
        events=[event_out(r, names) for r in result.records if not isinstance(r.event, RulingMade)],
    )


@frozen(kw_only=True)
class UndoneOut:
    by: int
    actor: str
    reason: str


@frozen(kw_only=True)
class AmendedOut:
    by: int
    kind: str
    actor: str
    reason: str
    events: list[EventOut]


@frozen(kw_only=True)
class DisputeOut:
    dispute: int
    ruling: int
    by: str
    reason: str
    outcome: str | None
    resolution: str


def disputes_out(campaign: CampaignState, ruling: int | None = None) -> list[DisputeOut]:
    return [
        DisputeOut(
            dispute=d.number,
            ruling=d.ruling,
            by=d.by,
            reason=d.reason,
            outcome=None if d.outcome is None else str(d.outcome),
            resolution=d.resolution,
        )
        for d in campaign.disputes
        if ruling is None or d.ruling == ruling
    ]


@frozen(kw_only=True)
class LoggedOut:
    """One ruling of the log, as its reader may read it."""

    ruling: int
    command: str
    params: dict[str, Any]
    actor: str
    at: str
    session: int | None
    scene: int | None
    dice: list[DieOut]
    provenance: str | None
    seed: int | None
    undone: UndoneOut | None
    amended: list[AmendedOut]
    events: list[EventOut]
    disputes: list[DisputeOut]


def logged_out(logged: LoggedRuling, campaign: CampaignState) -> LoggedOut:
    made, header, names = logged.ruling, logged.header, names_of(campaign)
    r = logged.retraction
    return LoggedOut(
        ruling=made.number,
        command=made.command,
        params=json.loads(made.params),
        actor=header.actor,
        at=header.timestamp.isoformat(),
        session=header.session,
        scene=header.scene,
        dice=[DieOut(sides=d.sides, face=d.face) for d in made.dice],
        provenance=None if made.provenance is None else str(made.provenance),
        seed=made.seed,
        undone=None if r is None else UndoneOut(by=r.by, actor=r.actor, reason=r.reason),
        amended=[
            AmendedOut(
                by=a.by,
                kind=a.kind,
                actor=a.actor,
                reason=a.reason,
                events=[event_out(e, names) for e in a.events],
            )
            for a in logged.amendments
        ],
        events=[event_out(e, names) for e in logged.events],
        disputes=disputes_out(campaign, made.number),
    )


@frozen(kw_only=True)
class MemberOut:
    name: str
    role: str
    characters: list[str]


@frozen(kw_only=True)
class CampaignOut:
    """The campaign as its signed-in member sees it, and who they are."""

    name: str
    system: str
    gm: str
    you: str
    role: str
    session: int | None
    scene: int | None
    rulings: int
    members: list[MemberOut]
    characters: list[str]
    disputes: list[DisputeOut]


@frozen(kw_only=True)
class ParameterOut:
    name: str
    type: str
    required: bool
    default: Any = None


@frozen(kw_only=True)
class VerbOut:
    """A verb of the campaign's system: POST its parameters to ``commands/<verb, / for
    spaces>``."""

    verb: str
    path: str
    help: str
    parameters: list[ParameterOut]


@frozen(kw_only=True)
class StateOut:
    """A character (or the campaign) as it stood, as plain data (``None``: not created yet)."""

    state: dict[str, Any] | None


@frozen(kw_only=True)
class CharacterOut:
    name: str
    player: str | None
    state: dict[str, Any] | None


@frozen(kw_only=True)
class FieldChange:
    field: str
    before: Any
    after: Any


@frozen(kw_only=True)
class HistoryOut:
    ruling: int
    command: str
    actor: str
    at: str
    undone: bool
    amended: bool
    status: str | None
    events: list[dict[str, Any]]
    disputes: list[DisputeOut]


@frozen(kw_only=True)
class DiceRow:
    sides: int
    source: str
    rolls: int
    counts: list[int]
    chi_square: float
    p_value: float
    enough_rolls: bool


@frozen(kw_only=True)
class SealOut:
    session: int
    digest: str
    intact: bool
    problem: str


@frozen(kw_only=True)
class DiceCheckOut:
    session: int
    rulings: int
    revealed: bool
    problems: list[str]
    warnings: list[str]


@frozen(kw_only=True)
class BreakOut:
    stream: str
    version: int
    ruling: int | None
    problem: str


@frozen(kw_only=True)
class FindingOut:
    kind: str
    stream: str | None
    version: int | None
    ruling: int | None
    session: int | None
    problem: str


@frozen(kw_only=True)
class VerifyOut:
    intact: bool
    digest: str
    streams: int
    events: int
    replayed: int
    snapshots: int
    seals: list[SealOut]
    dice: list[DiceCheckOut]
    breaks: list[BreakOut]
    findings: list[FindingOut]


@frozen(kw_only=True)
class MeOut:
    campaign: str
    member: str
    role: str
    via: str
