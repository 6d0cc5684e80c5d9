"""The dice check that does not trust the server: a session's page where the player's browser
recomputes every committed roll from the revealed seed (``web/static/dice_check.js``, WebCrypto),
the protocol README's "Verifiable digital dice" writes and ``engine.committed_dice`` runs.

The server sends only what the log shows the member, in log order: each commitment (the seed's
hash and the entropy given with it), each player's entropy, each committed roll (ruling, first
counter, counters used, dice sizes and recorded faces) and the reveal (seed, counters used). It
computes nothing: what the page marks verified, the browser computed."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery
from litestar.response import Template

from domain.events import DiceCommitted, DiceRevealed, EntropyAdded
from web.auth import seat
from web.commands import engine_of

if TYPE_CHECKING:
    from engine import LoggedRuling

Req = Request[Any, Any, Any]
SCRIPT = Path(__file__).with_name("static") / "dice_check.js"
SCRIPT_ROUTE = "/static/dice_check.js"


def steps(logged: Iterable[LoggedRuling]) -> list[dict[str, Any]]:
    """The public facts of a session's committed dice, in the order the log recorded them."""
    found: list[tuple[int, dict[str, Any]]] = []
    for entry in logged:
        number = entry.ruling.number
        made = entry.ruling
        if made.counter is not None:  # a ruling that drew committed dice (its header says so)
            roll = {
                "step": "roll",
                "ruling": number,
                "counter": made.counter,
                "draws": made.draws,
                "dice": [{"sides": d.sides, "face": d.face} for d in made.dice],
                "undone": entry.retraction is not None,
            }
            found.append((entry.header.originator_version, roll))
        for record in entry.events:
            step = _step(number, record.event)
            if step is not None:
                found.append((record.originator_version, step))
    return [step for _, step in sorted(found, key=lambda pair: pair[0])]


def _step(number: int, event: Any) -> dict[str, Any] | None:
    if isinstance(event, DiceCommitted):
        return {
            "step": "committed",
            "ruling": number,
            "seed_hash": event.seed_hash,
            "entropy": event.entropy,
        }
    if isinstance(event, EntropyAdded):
        return {"step": "entropy", "ruling": number, "by": event.by, "words": event.words}
    if isinstance(event, DiceRevealed):
        return {
            "step": "revealed",
            "ruling": number,
            "seed": event.seed,
            "counters": event.counters,
        }
    return None


@get("/campaigns/{campaign:str}/dice-check", include_in_schema=False, sync_to_thread=True)
def dice_check_page(
    request: Req, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> Template:
    """A session's committed dice (default: the latest session), checked in the browser."""
    member = seat(request, campaign)
    engine = engine_of(request)
    sessions = engine.campaign(campaign).sessions
    shown = session if session is not None else sessions
    logged = engine.log(campaign, session=shown, reader=member) if shown else []
    page = f"/campaigns/{quote(campaign, safe='')}"
    return Template(
        "dice_check.html",
        context={
            "campaign": campaign,
            "campaign_page": page,
            "session": shown,
            "sessions": [(n, f"{page}/dice-check?session={n}") for n in range(1, sessions + 1)],
            "data": {"session": shown, "steps": steps(logged)},
            "script": SCRIPT_ROUTE,
        },
    )


@get(SCRIPT_ROUTE, exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
def dice_check_script() -> Response[bytes]:
    """The page's script: public code, the same for everyone."""
    return Response(
        SCRIPT.read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


def routes() -> list[Any]:
    return [dice_check_page, dice_check_script]
