"""The dice check that does not trust the server: a session's page where the player's browser
checks every committed roll (``web/static/dice_check.js``, WebCrypto), as ``campaign verify``
does (``engine.audit.dice``, the protocol ``engine.dice.committed`` writes), and where a player
makes their own signing key and signs the entropy they add.

The server sends only public facts, in log order: each commitment (protocol, the seed's hash,
the hidden rolls' root), each entropy with its signature, the seats' keys as the log registered
them, each committed roll the member may read (who, lane or leaf, counters, dice, undone by
whom, the types of the events it wrote; of an amendment that drew dice its ruling never rolled,
the ruling it amends, who made that one, and how many of its dice it drew), each hidden roll's
key and proof once revealed, the reveal; of what the member may not read, only that it
exists: a hidden committed roll not yet revealed (its ruling, who, its leaf, the ruling it
amends), a ruling whose dice are not committed (who, where they came from; no faces). It
computes nothing: what the page marks verified, the browser computed."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery
from litestar.response import Template

from domain.audience import GMS, Member
from domain.dice import Provenance
from domain.events import (
    ChannelLinked,
    ChannelUnlinked,
    DiceCommitted,
    DiceRevealed,
    EntropyAdded,
    HiddenDiceRevealed,
    MemberAdded,
    MemberKeyRegistered,
    MemberLinked,
    MemberRemoved,
    Role,
    RulingMade,
    SessionEnded,
)
from domain.links import DISCORD
from domain.visibility import hidden_from
from engine import redrawn_ruling
from web.dependencies import TheEngine, You
from web.pages import nav
from web.render import reader_of
from web.witness import DICE_PAGE
from web.witness import shown as witnessed

if TYPE_CHECKING:
    from domain.campaign import CampaignState
    from engine import Engine, LoggedRuling

Req = Request[Any, Any, Any]
SCRIPT = Path(__file__).with_name("static") / "dice_check.js"
SCRIPT_ROUTE = "/static/dice_check.js"
CHAIN_SCRIPT = Path(__file__).with_name("static") / "chain_check.js"
CHAIN_SCRIPT_ROUTE = "/static/chain_check.js"
# The rulings outside a session whose events its check needs: the seats and their keys (before
# it), its hidden rolls' keys (revealed later).
SEATS = ("init", "member add", "member remove", "member key")
# and, of a session with rolls sealed through Discord, the channels' keys and accounts' links
LINKS = ("discord link", "discord unlink", "member link")
REVEAL = "reveal"


def steps(
    logged: Iterable[LoggedRuling],
    campaign: CampaignState,
    reader: str,
    session: int,
    around: Iterable[LoggedRuling] = (),
    rollers: Mapping[int, str] | None = None,
) -> list[dict[str, Any]]:
    """The public facts of session ``session``'s committed dice, in the order the log recorded
    them: ``logged`` is the session's log as the GM reads it (every ruling; only what ``reader``
    may read of them is sent), ``around`` rulings outside it (seats, keys, later reveals),
    ``rollers`` who made the rulings outside it that its amendments re-drew the dice of."""
    unread = hidden_from(campaign, Member(reader))
    logged = list(logged)
    made_by = {**(rollers or {}), **{e.ruling.number: e.header.actor for e in logged}}
    found: list[tuple[int, dict[str, Any]]] = []
    for entry in logged:
        number = entry.ruling.number
        made = entry.ruling
        version = entry.header.originator_version
        if number in unread:
            step = _unread(entry, campaign)
        elif made.counter is not None:  # a ruling that drew committed dice (its header says so)
            step = _roll(entry, campaign)
        elif made.dice and made.provenance is not Provenance.COMMITTED:
            step = _uncommitted(entry, shown=True)
        else:
            step = None
        if step is not None:
            found.append((version, {**step, **_redraw(made, made_by, number not in unread)}))
        if number not in unread:
            found += _events(entry, session)
    for entry in around:
        if entry.ruling.number not in unread:
            found += _events(entry, session)
    return [step for _, step in sorted(found, key=lambda pair: pair[0])]


def _redraw(made: RulingMade, made_by: Mapping[int, str], read: bool) -> dict[str, Any]:
    """Of an amendment that drew dice its ruling never rolled: the ruling it amends and who
    made it (whose lane its committed dice come from), and, to a reader who may read it, how
    many of its dice (its last) it drew anew (``engine.corrections.redraws``); nothing of any
    other ruling."""
    ruling = redrawn_ruling(made)
    if ruling is None:
        return {}
    amends = {"amends": {"ruling": ruling, "by": made_by.get(ruling)}}
    return {**amends, "fresh": json.loads(made.params)["new_dice"]} if read else amends


def _undone(entry: LoggedRuling) -> dict[str, Any] | None:
    undone = entry.retraction
    return None if undone is None else {"by": undone.actor, "ruling": undone.by}


def _roll(entry: LoggedRuling, campaign: CampaignState) -> dict[str, Any]:
    made = entry.ruling
    return {
        "step": "roll",
        "ruling": made.number,
        "by": entry.header.actor,
        "lane": made.lane,
        "leaf": made.leaf,
        "counter": made.counter,
        "draws": made.draws,
        "dice": [{"sides": d.sides, "face": d.face} for d in made.dice],
        "undone": _undone(entry),
        # a GM reads their hidden rolls before they are revealed: still listed as not revealed
        "hidden": made.number in campaign.hidden,
        "shown": made.number in campaign.revealed,
        # what it wrote, by type: a free roll's record alone changed nothing
        "wrote": [type(record.event).__name__ for record in entry.events],
        **_sealed(made),
    }


def _sealed(made: RulingMade) -> dict[str, Any]:
    """Of a roll its roller sealed (protocol 3): the seal, which of their sealed rolls it is,
    and what it seals (the command and its arguments as recorded); nothing of any other."""
    if made.sealed is None:
        return {}
    args = json.loads(made.params)["args"]
    found = {"sealed": made.sealed, "seal": made.seal, "command": made.command, "args": args}
    return {**found, "interaction": made.interaction} if made.interaction else found


def _uncommitted(entry: LoggedRuling, *, shown: bool) -> dict[str, Any]:
    """A ruling of a session whose dice did not come from the commitment: its faces and command
    only when the reader may read it."""
    made = entry.ruling
    provenance = made.provenance.value if made.provenance is not None else None
    step: dict[str, Any] = {
        "step": "uncommitted",
        "ruling": made.number,
        "by": entry.header.actor,
        "provenance": provenance,
        "hidden": not shown,
        "undone": _undone(entry),
    }
    if shown:
        step["command"] = made.command
        step["dice"] = [{"sides": d.sides, "face": d.face} for d in made.dice]
    return step


def _unread(entry: LoggedRuling, campaign: CampaignState) -> dict[str, Any] | None:
    """What the reader learns of a ruling they may not read: that it drew committed dice (who,
    and the hidden leaf it took: nothing its faces could be computed from), or that its dice
    are not committed ones (who, where from)."""
    made = entry.ruling
    if made.counter is None:
        if made.dice and made.provenance is not Provenance.COMMITTED:
            return _uncommitted(entry, shown=False)
        return None
    hidden = made.number in campaign.hidden
    return {
        "step": "unread",
        "ruling": made.number,
        "by": entry.header.actor,
        "hidden": hidden,
        "leaf": made.leaf,
        # a hidden roll's first counter (0) says nothing without its key; protocol 1's would
        "counter": made.counter if made.leaf is not None else None,
        # a private ruling's lane is its roller (public); its counters would give its faces away
        "lane": made.lane if not hidden else None,
        "undone": _undone(entry),
        # a sealed roll takes its member's next sealed roll, and none of their lane's counters
        **({} if made.sealed is None else {"sealed": made.sealed}),
    }


def _events(entry: LoggedRuling, session: int) -> list[tuple[int, dict[str, Any]]]:
    found = []
    number = entry.ruling.number
    for record in entry.events:
        if record.originator_id != entry.header.originator_id:
            continue  # the dice's facts are all on the campaign's stream
        step = _step(number, record.event, session)
        if step is not None:
            if step["step"] == "key":  # who put the key on the seat: the member, or another
                step["by"] = entry.header.actor
            elif step["step"] == "committed":  # no interaction sent before it seals a roll
                step["at"] = record.timestamp.isoformat()
            found.append((record.originator_version, step))
    return found


def _step(number: int, event: Any, session: int) -> dict[str, Any] | None:
    if isinstance(event, DiceCommitted):
        return {
            "step": "committed",
            "ruling": number,
            "seed_hash": event.seed_hash,
            "entropy": event.entropy,
            "protocol": event.protocol,
            "hidden_root": event.hidden_root,
        }
    if isinstance(event, EntropyAdded):
        return {
            "step": "entropy",
            "ruling": number,
            "by": event.by,
            "words": event.words,
            "signature": event.signature,
        }
    if isinstance(event, MemberKeyRegistered):
        return {
            "step": "key",
            "ruling": number,
            "name": event.name,
            "key": event.key,
            "signed_in": event.signed_in,  # put there from the member's own signed-in client
        }
    if isinstance(event, ChannelLinked | ChannelUnlinked) and event.platform == DISCORD:
        key = event.key if isinstance(event, ChannelLinked) else ""
        return {"step": "channel", "ruling": number, "channel": event.channel, "key": key}
    if isinstance(event, MemberLinked) and event.platform == DISCORD:
        return {"step": "account", "ruling": number, "name": event.name, "account": event.user}
    if isinstance(event, MemberAdded):
        return {"step": "seated", "ruling": number, "name": event.name}
    if isinstance(event, MemberRemoved):
        return {"step": "unseated", "ruling": number, "name": event.name}
    if isinstance(event, HiddenDiceRevealed) and event.session == session:
        return {
            "step": "hidden key",
            "ruling": event.ruling,
            "revealed_in": number,
            "leaf": event.leaf,
            "leaf_key": event.leaf_key,
            "proof": list(event.proof),
        }
    if isinstance(event, DiceRevealed):
        return {
            "step": "revealed",
            "ruling": number,
            "seed": event.seed,
            "counters": event.counters,
            "lanes": [[who, used] for who, used in event.lanes],
            "hidden": event.hidden,
            "sealed": [[who, count] for who, count in event.sealed],
        }
    if isinstance(event, SessionEnded) and event.number == session:
        return {"step": "ended", "ruling": number}
    return None


def _needs(logged: Collection[LoggedRuling]) -> tuple[tuple[str, ...], bool]:
    """What a session's check needs from outside it: the commands before it whose rulings say
    whose key is on a seat (for signed entropy) and which channels and accounts are linked (for
    rolls sealed through Discord); and whether it needs the hidden rolls' reveals after it."""
    signed = any(
        isinstance(r.event, EntropyAdded) and r.event.signature for e in logged for r in e.events
    )
    through = any(e.ruling.interaction for e in logged)
    before: tuple[str, ...] = (*SEATS, *LINKS) if through else SEATS if signed else ()
    return before, any(e.ruling.leaf is not None for e in logged)


def around(engine: Engine, campaign: str, logged: Collection[LoggedRuling]) -> list[LoggedRuling]:
    """The rulings outside the session its check needs: the seats' keys registered before it
    (when it holds signed entropy) and the hidden rolls' keys revealed after it (when it drew
    hidden committed dice), read from the campaign's headers, then those rulings alone."""
    inside = {entry.ruling.number for entry in logged}
    before, hidden = _needs(logged)
    if not inside or not (before or hidden):
        return []
    first, last = min(inside), max(inside)
    wanted = [
        h.ruling
        for h in engine.headers(campaign, audience=GMS)  # only public facts are sent of them
        if h.ruling not in inside
        and isinstance(made := h.event, RulingMade)
        and (
            (h.ruling < last and made.command in before)
            or (hidden and h.ruling > first and made.command == REVEAL)
        )
    ]
    return engine.log(campaign, rulings=wanted, audience=GMS) if wanted else []


def facts(engine: Engine, campaign: str, session: int, member: str) -> dict[str, Any]:
    """The page's data: the session's facts, who reads it, and whether they may add entropy."""
    state = engine.campaign(campaign)
    logged = engine.log(campaign, session=session, audience=GMS) if session else []
    seated = state.member(member)
    role = seated.role if seated is not None else None
    window = (
        role is Role.PLAYER
        and state.session == session
        and bool(state.commitment)
        and state.first_committed_roll is None
        and state.dice_protocol >= 2
    )
    outside = {r for e in logged if (r := redrawn_ruling(e.ruling)) is not None} - {
        e.ruling.number for e in logged
    }
    rollers = {
        h.ruling: h.actor
        for h in (engine.headers(campaign, audience=GMS) if outside else ())
        if h.ruling in outside
    }
    found = steps(logged, state, member, session, around(engine, campaign, logged), rollers)
    return {
        "session": session,
        "steps": found,
        "me": {
            "name": member,
            "role": role.value if role is not None else None,
            "key": seated.key if seated is not None else "",
            # the seat's key was put there at the GM's keyboard, not from the member's client
            "key_at_keyboard": seated is not None and bool(seated.key) and not seated.key_signed_in,
        },
        "campaign": campaign,
        "api": f"/api/campaigns/{quote(campaign, safe='')}",
        "entropy_open": window,
    }


@get("/campaigns/{campaign:str}/dice-check", include_in_schema=False, sync_to_thread=True)
def dice_check_page(
    engine: TheEngine, you: You, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> Template:
    """A session's committed dice (default: the latest session), checked in the browser."""
    state = engine.campaign(campaign)
    sessions = state.sessions
    shown = session if session is not None else sessions
    page = f"/campaigns/{quote(campaign, safe='')}"
    return Template(
        "dice_check.html",
        context={
            "campaign": campaign,
            "nav": nav(campaign, state.system, "dice-check"),
            "reader": reader_of(state, you),
            "campaign_page": page,
            "session": shown,
            "sessions": [(n, f"{page}/dice-check?session={n}") for n in range(1, sessions + 1)],
            "data": facts(engine, campaign, shown, you),
            "script": SCRIPT_ROUTE,
            "chain_script": CHAIN_SCRIPT_ROUTE,
            "witness": witnessed(engine, campaign, you, DICE_PAGE),
            "copy_url": f"/api/campaigns/{quote(campaign, safe='')}/copy",
        },
    )  # its Content-Security-Policy is every page's (web/csp.py)


@get(SCRIPT_ROUTE, exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
def dice_check_script() -> Response[bytes]:
    """The page's script: public code, the same for everyone."""
    return Response(
        SCRIPT.read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


@get(CHAIN_SCRIPT_ROUTE, exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
def chain_check_script() -> Response[bytes]:
    """The script that checks the member's own copy's links and seals: public code."""
    return Response(
        CHAIN_SCRIPT.read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


def routes() -> list[Any]:
    return [dice_check_page, dice_check_script, chain_check_script]
