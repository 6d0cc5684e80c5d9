"""The reads, each as the signed-in member may read it (the engine's reader-aware methods with
the member as reader): the campaign, its verbs, the actions the rules allow now, the log,
characters now and at a point (time travel), a character's history, diffs, recaps and Exposure
timelines (JSON, and every format registered: ``web.formats``), dice statistics, verify, and
the export (the GM's)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery

from domain.audience import TABLE, Audience, Member
from domain.errors import NotYetCreated
from domain.policy import check_gm
from domain.registry import verbs
from engine import (
    ActionsView,
    DiceRow,
    DisputeView,
    Engine,
    FieldChange,
    HistoryEntry,
    LogEntry,
    VerifyReport,
    character_view,
    converter,
    dice_rows,
    differences,
    dispute_views,
    field_changes,
    history_entries,
    log_entry,
    member_views,
    verify_report,
)
from projections.views import CampaignTimeline, HeroTimeline, Recap
from web.auth import ON_ITS_THREAD, holder
from web.commands import BASE, route_of
from web.dependencies import TheEngine, You
from web.errors import RESPONSES
from web.formats import routes as format_routes
from web.shapes import CampaignOut, MeOut, ParameterOut, SeatOut, VerbOut

Req = Request[Any, Any, Any]
# A character's sheet or the campaign's state: its fields as plain data, each system its own.
Sheet = dict[str, Any]
READ: dict[str, Any] = {"tags": ["reads"], "sync_to_thread": True, "responses": RESPONSES}


@get(
    "/api/me", tags=["sign-in"], sync_to_thread=True, responses=RESPONSES, opt={ON_ITS_THREAD: True}
)
def me(request: Req, engine: TheEngine) -> MeOut:
    """Who the credential signs in, to which campaign, with which role (a browser's newest
    sign-in), and every campaign it signs in to."""
    with engine.checked_once():  # the sign-in's seat checks and these read each campaign once
        signed = holder(request)
        seats = []
        for held in signed.held:
            member = engine.campaign(held.signed.campaign).member(held.signed.member)
            role = str(member.role) if member is not None else ""
            seat = SeatOut(campaign=held.signed.campaign, member=held.signed.member, role=role)
            seats.append(seat)
    newest = seats[0]
    via = signed.held[0].signed.kind
    return MeOut(
        campaign=newest.campaign, member=newest.member, role=newest.role, via=via, campaigns=seats
    )


@get(BASE, **READ)
def campaign_view(engine: TheEngine, you: You, campaign: FromPath[str]) -> CampaignOut:
    """The campaign: system, running session and scene, members, characters, disputes."""
    state = engine.campaign(campaign)
    seat_of = state.member(you)
    return CampaignOut(
        name=state.name,
        system=state.system,
        gm=state.gm,
        you=you,
        role=str(seat_of.role) if seat_of else "",
        session=state.session,
        scene=state.scene,
        rulings=state.rulings,
        members=member_views(state),
        characters=[e.name for e in state.roster],
        disputes=dispute_views(state),
    )


@get(f"{BASE}/verbs", **READ)
def campaign_verbs(engine: TheEngine, you: You, campaign: FromPath[str]) -> list[VerbOut]:
    """The verbs of the campaign's system, with their parameters (POST them to ``path``)."""
    system = engine.find_campaign(campaign).system
    return [
        VerbOut(
            verb=name,
            path=f"commands/{route_of(name)}",
            help=verb.help,
            parameters=[
                ParameterOut(
                    name=p.name,
                    type=p.type,
                    required=p.required,
                    default=converter.unstructure(p.default),
                )
                for p in verb.parameters
            ],
        )
        for name, verb in verbs(system).items()
    ]


@get(f"{BASE}/actions", **READ)
def actions(
    engine: TheEngine, you: You, campaign: FromPath[str], character: FromQuery[str | None] = None
) -> ActionsView:
    """The actions the rules allow the member now: the verbs the policy lets them issue that
    the state does not refuse for ``character`` (default: a player's one character, else any
    they may act as), the expected ones first. A convenience: a verb posted anyway is decided
    as ever."""
    return engine.actions(campaign, reader=you, character=character)


@get(f"{BASE}/log", **READ)
def log(
    engine: TheEngine, you: You, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> list[LogEntry]:
    """Every ruling (one session's), undone and amended ones marked, as the member reads it."""
    state = engine.campaign(campaign)
    return [
        log_entry(r, state) for r in engine.log(campaign, session=session, audience=Member(you))
    ]


@get(f"{BASE}/disputes", **READ)
def disputes(
    engine: TheEngine, you: You, campaign: FromPath[str], every: FromQuery[bool] = False
) -> list[DisputeView]:
    """The open disputes (``every``: resolved ones too)."""
    found = dispute_views(engine.campaign(campaign))
    return [d for d in found if every or d.outcome is None]


@get(f"{BASE}/characters", **READ)
def characters(engine: TheEngine, you: You, campaign: FromPath[str]) -> list[Sheet]:
    """Every character now, as the member may know them: each one's sheet (``characters/{ref}``'s,
    `campaign --json character list`'s)."""
    system = engine.campaign(campaign).system
    states = engine.characters(campaign, audience=Member(you))
    return [_sheet(system, s) for s in states]


def _point(
    engine: Engine, campaign: str, at: int | None, session: int | None, time: datetime | None
) -> int | None:
    if at is None and session is None and time is None:
        return None
    return engine.ruling_at(campaign, ruling=at, session=session, time=time)


def _state(
    engine: Engine,
    member: str,
    campaign: str,
    who: str | None,
    ruling: int | None,
    corrected: bool,
) -> Any:
    if who is None:
        if ruling is None:
            return engine.campaign(campaign)
        return engine.campaign_at(campaign, ruling=ruling, corrected=corrected)
    if ruling is None:
        return engine.character(campaign, who, audience=Member(member))
    return engine.character_at(
        campaign, who, ruling=ruling, corrected=corrected, audience=Member(member)
    )


@get(f"{BASE}/characters/{{ref:str}}", **READ)
def character(
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    ref: FromPath[str],
    at: FromQuery[int | None] = None,
    session: FromQuery[int | None] = None,
    time: FromQuery[datetime | None] = None,
    corrected: FromQuery[bool] = False,
) -> Sheet:
    """A character's sheet (its state and its system's extras, as `campaign --json show NAME`
    prints it) now, or as it stood after ruling ``at``, at the end of ``session`` or at
    ``time`` (``corrected``: with the undos and amendments made since). Refused
    ``NOT_YET_CREATED`` before the character was created."""
    ruling = _point(engine, campaign, at, session, time)
    state = _state(engine, you, campaign, ref, ruling, corrected)
    if state is None:
        raise NotYetCreated(who=ref, ruling=ruling)
    system = engine.find_campaign(campaign).system
    return _sheet(system, state)


@get(f"{BASE}/show", **READ)
def show_campaign(
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    at: FromQuery[int | None] = None,
    session: FromQuery[int | None] = None,
    time: FromQuery[datetime | None] = None,
    corrected: FromQuery[bool] = False,
) -> Sheet:
    """The campaign's state (roster, session, scene) now or at a point, as ``characters/{ref}``
    (`campaign --json show`)."""
    ruling = _point(engine, campaign, at, session, time)
    state: Sheet = converter.unstructure(_state(engine, you, campaign, None, ruling, corrected))
    return state


@get(f"{BASE}/characters/{{ref:str}}/history", **READ)
def history(
    engine: TheEngine, you: You, campaign: FromPath[str], ref: FromPath[str]
) -> list[HistoryEntry]:
    """Every change to a character with the ruling behind it, as the member reads the log."""
    state = engine.campaign(campaign)
    return history_entries(engine.history(campaign, ref, audience=Member(you)), state)


@get(f"{BASE}/diff", **READ)
def diff(
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    first: FromQuery[int],
    second: FromQuery[int | None] = None,
    who: FromQuery[str | None] = None,
    views: FromQuery[bool] = False,
) -> list[FieldChange]:
    """What changed for a character (``who``; else the campaign) between rulings ``first`` and
    ``second`` (default: the latest); ``views``: what later corrections changed about the past
    at ``first``."""
    if views:
        before = _state(engine, you, campaign, who, first, False)
        after = _state(engine, you, campaign, who, first, True)
    else:
        last = engine.ruling_at(campaign)
        before = _state(engine, you, campaign, who, first, True)
        after = _state(engine, you, campaign, who, second if second is not None else last, True)
    return field_changes(differences(before, after))


def _recap(
    engine: Engine,
    you: str,
    campaign: str,
    session: int | None,
    gm: bool,
    member: str | None,
    *,
    table: bool = False,
) -> Recap:
    """The recap as the member reads it (``member``: that member's, for the GMs or themself;
    ``table``: what the whole table reads, unless ``gm`` or ``member`` asks for another copy)."""
    reader = you
    if member is not None and member != reader:  # a member's private recap: theirs, the GMs'
        check_gm(engine.campaign(campaign), reader, f"read {member}'s private recap")
        reader = member
    audience: Audience = TABLE if table and not gm and member is None else Member(reader)
    return engine.recap(campaign, session, gm=gm, audience=audience)


@get(f"{BASE}/recap", **READ)
def recap(
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    session: FromQuery[int | None] = None,
    gm: FromQuery[bool] = False,
    member: FromQuery[str | None] = None,
) -> Recap:
    """A session's recap (default: the latest) as JSON; ``gm``: with GM-only notes (a GM's);
    ``member``: that member's private recap (the GM's, or the member's own)."""
    return _recap(engine, you, campaign, session, gm, member)


def _timeline(
    engine: Engine, you: str, campaign: str, hero: str | None, *, table: bool = False
) -> HeroTimeline | CampaignTimeline:
    """A hero's timeline (every hero's without ``hero``) as the member reads it (``table``: as
    the whole table does)."""
    audience: Audience = TABLE if table else Member(you)
    if hero is None:
        return engine.campaign_timelines(campaign, audience=audience)
    return engine.hero_timeline(campaign, hero, audience=audience)


@get(f"{BASE}/timeline", **READ)
def timeline(
    engine: TheEngine, you: You, campaign: FromPath[str], hero: FromQuery[str | None] = None
) -> HeroTimeline | CampaignTimeline:
    """The Code: a hero's Exposure timeline (every hero's without ``hero``), as JSON."""
    return _timeline(engine, you, campaign, hero)


@get(f"{BASE}/dice-stats", **READ)
def dice_stats(
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    session: FromQuery[int | None] = None,
    character: FromQuery[str | None] = None,
) -> list[DiceRow]:
    """Face counts per die size and source with a chi-square test, of the rulings the member
    reads."""
    rows = engine.dice_stats(campaign, session=session, character=character, audience=Member(you))
    return dice_rows(rows)


@get(f"{BASE}/verify", **READ)
def verify(engine: TheEngine, you: You, campaign: FromPath[str]) -> VerifyReport:
    """Check the stored log: chains, rulings, seals, committed dice, replay (``campaign
    verify``). What it reports names places, never what a hidden ruling holds."""
    return verify_report(engine.verify(campaign))


@get(f"{BASE}/export", media_type="application/x-ndjson", **READ)
def export(engine: TheEngine, you: You, campaign: FromPath[str]) -> Response[str]:
    """The whole campaign as JSON lines (`campaign export`): the GM's alone, hidden rulings and
    GM-only notes included."""
    lines = engine.export(campaign, audience=Member(you))
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return Response(text, media_type="application/x-ndjson")


@get(f"{BASE}/copy", media_type="application/x-ndjson", **READ)
def own_copy(engine: TheEngine, you: You, campaign: FromPath[str]) -> Response[str]:
    """The signed-in member's own copy of the log (`campaign export --for`): every ruling they
    may read whole, every other row as its body's digest and its link; `campaign verify-dice`
    checks it link by link and seal by seal, with the whole export's digest."""
    lines = engine.member_copy(campaign, you, audience=Member(you))
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    name = f"{campaign}-{you}.jsonl".replace('"', "").replace("/", "-")
    disposition = f"attachment; filename*=UTF-8''{quote(name, safe='')}"
    return Response(
        text, media_type="application/x-ndjson", headers={"Content-Disposition": disposition}
    )


def routes() -> list[Any]:
    return [
        me,
        campaign_view,
        campaign_verbs,
        actions,
        log,
        disputes,
        characters,
        character,
        show_campaign,
        history,
        diff,
        recap,
        *format_routes("recap", _recap),
        timeline,
        *format_routes("timeline", _timeline),
        dice_stats,
        verify,
        export,
        own_copy,
    ]


def _sheet(system: str, state: Any) -> Sheet:
    """A character's sheet as `campaign --json character show` prints it."""
    sheet: Sheet = converter.unstructure(character_view(system, state))
    return sheet
