"""A ruling as every front end gives it: what a command recorded (``RulingView``) and a ruling of
the log with its corrections and disputes (``LogEntry``). The CLI's text, the pages, the API's
JSON and Discord's embeds render these values and nothing else: none of them reads the raw
events to shape a ruling (the lines of what changed, its narration, who speaks, whether the
table may read it and whether it may still be corrected are found here once).

This module holds only the ruling's values, so that printing the ruling a ``roll`` recorded
costs a few classes, not every result type (``engine.results.views`` holds the rest)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from uuid import UUID

from attrs import Factory, frozen

from domain.campaign import CampaignState, Dispute
from domain.dice import Provenance
from domain.events import PostWritten, Role, RulingMade
from domain.plain import Plain
from domain.said import said
from engine.results.log_lines import event_lines, names
from engine.store.mapper import converter
from engine.store.records import Recorded
from projections.describe import describe

if TYPE_CHECKING:
    from engine.store.log import LoggedRuling
    from engine.write.assembly import RulingResult


@frozen(kw_only=True)
class DieView(Plain):
    sides: int
    face: int


@frozen(kw_only=True)
class EventView(Plain):
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


def _uncorrectable(command: str) -> bool:
    from engine.corrections.undo import NOT_UNDOABLE  # the undo's own list, read when asked

    return command in NOT_UNDOABLE


@frozen(kw_only=True)
class RulingView(Plain):
    """What one command recorded: its header (number, command, who, when, where), the dice and
    where they came from, the events, and how it reads: its narration (``say``: "" for none),
    its lines as the log frames them, who speaks in it (a post's speaker, else the first
    character it changed; None: nobody), who may read it (``visibility``: public, hidden or
    private), the member who sealed its roll (``sealed_by``, protocol 3; None: nobody did,
    and committed dice nobody sealed were foreseeable by the GM's machine), and the player in
    whose name committed dice nobody sealed were entered (``entered_for``: at the GM's keyboard
    with ``--as``, or a player's own roll unsealed; None: the GM's own, an NPC's, a hidden
    one)."""

    ruling: int
    command: str
    actor: str
    at: str
    session: int | None
    scene: int | None
    dice: list[DieView]
    provenance: str | None
    events: list[EventView]
    say: str = ""
    lines: list[str] = Factory(list)
    speaker: str | None = None
    visibility: str = "public"
    sealed_by: str | None = None
    entered_for: str | None = None
    sealed_through: str = ""  # "Discord": sealed by the interaction that asked for it

    @property
    def correctable(self) -> bool:
        """Whether undo may take it back (a ``session end`` or an ``undo`` may not)."""
        return not _uncorrectable(self.command)


def speaker_of(records: tuple[Recorded, ...] | list[Recorded], who: dict[UUID, str]) -> str | None:
    """Who speaks in a ruling: its post's speaker, else the first character it changed."""
    post = next((r.event for r in records if isinstance(r.event, PostWritten)), None)
    if post is not None and post.speaker:
        return post.speaker
    return next((who[r.originator_id] for r in records if r.originator_id in who), None)


def ruling_view(result: RulingResult) -> RulingView:
    header, made = result.header, result.made
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
        say=said(made),
        lines=event_lines(result.records, result.campaign),
        speaker=speaker_of(result.records, who),
        visibility=str(made.visibility),
        sealed_by=sealed_by(made),
        entered_for=entered_for(made, header.actor, result.campaign),
        sealed_through=sealed_through(made),
    )


def sealed_by(made: RulingMade) -> str | None:
    """The member who sealed the ruling's roll (protocol 3), or None."""
    return made.lane if made.sealed is not None else None


def entered_for(made: RulingMade, actor: str, campaign: CampaignState) -> str | None:
    """The member who is not a GM in whose name committed dice nobody sealed were drawn (from
    their own lane: at the GM's keyboard with ``--as``, or their own roll unsealed), or None
    (sealed, not committed, hidden, or the GM's own: his, or an NPC's)."""
    if made.provenance is not Provenance.COMMITTED or made.sealed is not None:
        return None
    if made.lane is None or made.lane != actor:
        return None
    seated = campaign.member(actor)
    return None if seated is not None and seated.role is Role.GM else actor


def sealed_through(made: RulingMade) -> str:
    """Where the seal was made when not on the roller's own client: ``Discord`` (its signature
    of the interaction that asked for the roll), or ""."""
    return "Discord" if made.sealed is not None and made.interaction else ""


@frozen(kw_only=True)
class DisputeView(Plain):
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
class UndoneView(Plain):
    by: int
    actor: str
    reason: str


@frozen(kw_only=True)
class AmendedView(Plain):
    """A correction of a ruling (``kind``: ``amended`` or ``re-decided``) and what now stands
    (its events, and their lines as the log frames them: ``now Alice: ...``); ``say``: the
    narration it gave the ruling (null: it left the narration as it was); ``new_dice``: how
    many dice it drew that the ruling never rolled (each such amendment re-draws its dice)."""

    by: int
    kind: str
    actor: str
    reason: str
    events: list[EventView]
    say: str | None = None
    lines: list[str] = Factory(list)
    new_dice: int = 0


@frozen(kw_only=True)
class LogEntry(Plain):
    """One ruling of the log, as its reader may read it: its header, parameters and dice, the
    events it recorded (and their lines: what it recorded, whatever corrected it since), its
    undo and amendments, its disputes, its narration as recorded (``say``), who speaks in it,
    who may read it, and whether it is hidden from the table now (a hidden ruling not yet
    revealed)."""

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
    say: str = ""
    lines: list[str] = Factory(list)
    speaker: str | None = None
    visibility: str = "public"
    hidden: bool = False
    sealed_by: str | None = None
    entered_for: str | None = None
    sealed_through: str = ""  # "Discord": sealed by the interaction that asked for it

    @property
    def correctable(self) -> bool:
        """Whether it may still be corrected: not undone, and not one undo refuses."""
        return self.undone is None and not _uncorrectable(self.command)

    @property
    def status(self) -> str:
        """``undone``, ``amended`` or ``re-decided`` (its latest correction), or ``""``."""
        if self.undone is not None:
            return "undone"
        return self.amended[-1].kind if self.amended else ""

    @property
    def replaced(self) -> bool:
        """Whether what it recorded no longer stands (undone, or amended since)."""
        return self.undone is not None or bool(self.amended)


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
                lines=event_lines(a.events, campaign),
                new_dice=a.new_dice,
            )
            for a in logged.amendments
        ],
        events=[event_view(e, who) for e in logged.events],
        disputes=dispute_views(campaign, made.number),
        say=said(made),
        lines=event_lines(logged.events, campaign),
        speaker=speaker_of(logged.events, who),
        visibility=str(made.visibility),
        hidden=made.number in campaign.hidden and made.number not in campaign.revealed,
        sealed_by=sealed_by(made),
        entered_for=entered_for(made, header.actor, campaign),
        sealed_through=sealed_through(made),
    )
