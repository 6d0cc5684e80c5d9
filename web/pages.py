"""The table's pages, rendered on the server (Jinja2, autoescaped) for the signed-in member:
``/campaigns/{campaign}`` the table (the log as they may read it, a dispute button under each
ruling, their characters, the open disputes, the forms of the verbs they may issue; the GM's
undo, amend, resolve, session and scene controls), a character's sheet, the session recap, The
Code's Exposure timeline and the dice statistics (the projections' pages). ``table.js`` posts
the forms to the JSON API and keeps the page live (``web.live``). A visitor who is not signed
in, or is signed in elsewhere, gets a page saying how to sign in. Every page's
Content-Security-Policy is ``web.csp``'s: every asset is the app's own, and a name that
smuggled markup in could run nothing anyway."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment
from litestar import MediaType, Request, Response, Router, get
from litestar.exceptions import HTTPException, NotAuthorizedException
from litestar.params import FromPath, FromQuery
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Template

from domain.campaign import CampaignState
from domain.errors import DomainError
from engine import one_line
from projections.describe import system_title
from projections.dice_chart import page as dice_page
from projections.presentation import presentation_of, presentations
from projections.render_html import recap_html
from projections.stylesheet import STYLESHEET, e
from web.auth import seat
from web.commands import engine_of
from web.errors import SignedInElsewhere, status_of
from web.forms import forms_for
from web.render import event_lines, reader_of, ruling_view
from web.signin import page_of

Req = Request[Any, Any, Any]
SHOWN = 300  # rulings on the table page (the latest); the recap and the API have the rest


STATIC = Path(__file__).with_name("static")


def _script(name: str) -> Response[bytes]:
    return Response(
        (STATIC / name).read_bytes(),
        media_type="text/javascript",
        headers={"cache-control": "no-cache"},
    )


@get("/static/table.js", exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
def script() -> Response[bytes]:
    """The table page's script (ours: no library, nothing from another site)."""
    return _script("table.js")


@get("/static/follow.js", exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
def follow() -> Response[bytes]:
    """The script that keeps a projection's page (recap, timeline, dice) live."""
    return _script("follow.js")


@get("/favicon.ico", exclude_from_auth=True, include_in_schema=False, sync_to_thread=False)
def favicon() -> Response[None]:
    """No icon (a browser asks every page for one)."""
    return Response(None, status_code=204, headers={"cache-control": "max-age=86400"})


def template_globals(engine: JinjaTemplateEngine) -> None:
    """What every template may use: the one stylesheet, the systems' names."""
    env: Environment = engine.engine
    env.globals.update(stylesheet=STYLESHEET, system_title=system_title, quote=quote)


def _nav(campaign: str, system: str, here: str) -> list[dict[str, Any]]:
    base = page_of(campaign)
    links = [("table", "Table", base), ("recap", "Recap", base + "/recap")]
    links += [(p.key, p.label, base + p.path) for p in presentation_of(system).pages]
    links.append(("dice", "Dice", base + "/dice"))
    links.append(("dice-check", "Check the dice", base + "/dice-check"))
    return [{"key": k, "label": label, "href": href, "here": k == here} for k, label, href in links]


def _table(request: Req, campaign: str) -> dict[str, Any]:
    member = seat(request, campaign)
    engine = engine_of(request)
    state = engine.campaign(campaign)
    reader = reader_of(state, member)
    first = max(1, state.rulings - SHOWN + 1)
    logged = engine.log(campaign, rulings=range(first, state.rulings + 1), reader=member)
    sheets = presentation_of(state.system)
    known_now = engine.characters(campaign, reader=member)
    characters = [
        {
            "name": entry.name,
            "player": entry.player,
            "status": "" if known is None else sheets.status(known),
            "href": f"{page_of(campaign)}/characters/{quote(entry.name, safe='')}",
            "yours": entry.name in reader.characters,
        }
        for entry, known in zip(state.roster, known_now, strict=True)
    ]
    return {
        "campaign": campaign,
        "system": state.system,
        "reader": reader,
        "page": page_of(campaign),
        "api": f"/api{page_of(campaign)}",
        "after": state.rulings,
        "session": state.session,
        "scene": state.scene,
        "stage": state.stage,
        "rulings": [ruling_view(r, state) for r in logged],
        "earlier": first > 1,
        "characters": characters,
        "disputes": [
            {
                "number": d.number,
                "ruling": d.ruling,
                "by": d.by,
                "reason": d.reason,
            }
            for d in state.open_disputes()
        ],
        "forms": forms_for(reader, state),
        "nav": _nav(campaign, state.system, "table"),
    }


@get("/campaigns/{campaign:str}", sync_to_thread=True)
def table(request: Req, campaign: FromPath[str]) -> Template:
    """The table: the log, the characters, the open disputes and the reader's forms."""
    return Template("table.html", context=_table(request, campaign))


@get("/campaigns/{campaign:str}/characters/{name:str}", sync_to_thread=True)
def sheet(request: Req, campaign: FromPath[str], name: FromPath[str]) -> Template:
    """A character's sheet as the member may know it, and the rulings that changed it."""
    member = seat(request, campaign)
    engine = engine_of(request)
    state = engine.campaign(campaign)
    entry = state.find(name)
    known = engine.character(campaign, entry.name, reader=member)
    sheets = presentation_of(state.system)
    history = engine.history(campaign, entry.name, reader=member)
    return Template(
        "sheet.html",
        context={
            "campaign": campaign,
            "page": page_of(campaign),
            "api": f"/api{page_of(campaign)}",
            "after": state.rulings,
            "reader": reader_of(state, member),
            "name": entry.name,
            "player": entry.player,
            "status": "" if known is None else sheets.status(known),
            "text": "" if known is None else sheets.sheet_text(known, state),
            "history": [
                ruling_view(c.logged, state) | {"lines": _lines(c, state)} for c in history
            ],
            "nav": _nav(campaign, state.system, ""),
        },
    )


def _lines(change: Any, state: Any) -> list[str]:
    return event_lines(change.events, state)


def _wrapped(
    request: Req, campaign: str, state: CampaignState, here: str, html: str
) -> Response[str]:
    """A projection's own page with the table's links on top, following the campaign's event
    stream from the ruling ``state`` (read before the page was) stood at: a ruling recorded
    while the page loads is not missed."""
    links = " · ".join(
        f'<a href="{e(n["href"])}"{" aria-current=page" if n["here"] else ""}>{e(n["label"])}</a>'
        for n in _nav(campaign, state.system, here)
    )
    bar = f'<nav class="bar"><strong>{e(campaign)}</strong> · {links}</nav>'
    events = e(f"{page_of(campaign)}/events?after={state.rulings}")
    follow = f'<script src="/static/follow.js" data-events="{events}" defer></script>'
    html = html.replace("<body>\n", f"<body>\n{bar}\n", 1).replace("</body>", f"{follow}\n</body>")
    return Response(html, media_type=MediaType.HTML)


@get("/campaigns/{campaign:str}/recap", sync_to_thread=True)
def recap(
    request: Req, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> Response[str]:
    """A session's recap (default: the latest) as the member reads it; the GM's with notes."""
    member = seat(request, campaign)
    engine = engine_of(request)
    state = engine.campaign(campaign)
    gm = reader_of(state, member).gm
    html = recap_html(engine.recap(campaign, session, gm=gm, reader=member))
    return _wrapped(request, campaign, state, "recap", html)


def _system_page(path: str) -> Any:
    """The route of the systems' own pages at ``path`` (``projections.presentation.Page``, such
    as The Code's Exposure timeline): the campaign's system's page, or, on a campaign of a
    system without one, the first owner's, whose read the engine refuses there."""
    owners = {s: p for s, shown in presentations().items() for p in shown.pages if p.path == path}
    first = next(iter(owners.values()))

    def handler(request: Req, campaign: FromPath[str]) -> Response[str]:
        member = seat(request, campaign)
        engine = engine_of(request)
        state = engine.campaign(campaign)
        page = owners.get(state.system, first)
        html = page.html(engine, campaign, member)
        return _wrapped(request, campaign, state, page.key, html)

    handler.__doc__ = first.html.__doc__
    return get(f"/campaigns/{{campaign:str}}{path}", sync_to_thread=True)(handler)


def _system_pages() -> list[Any]:
    paths = dict.fromkeys(p.path for shown in presentations().values() for p in shown.pages)
    return [_system_page(path) for path in paths]


@get("/campaigns/{campaign:str}/dice", sync_to_thread=True)
def dice(
    request: Req, campaign: FromPath[str], session: FromQuery[int | None] = None
) -> Response[str]:
    """Face counts per die with the chi-square test, of the rulings the member reads."""
    member = seat(request, campaign)
    engine = engine_of(request)
    state = engine.campaign(campaign)
    rows = engine.dice_stats(campaign, session=session, reader=member)
    html = dice_page(f"{campaign}: dice", rows)
    return _wrapped(request, campaign, state, "dice", html)


def _page_error(request: Req, error: Exception) -> Response[Any]:
    signed_out = isinstance(error, NotAuthorizedException)
    elsewhere = isinstance(error, SignedInElsewhere)
    if isinstance(error, DomainError):
        status, message = status_of(error), one_line(error)
    elif isinstance(error, HTTPException):
        status, message = error.status_code, str(error.detail)
    else:
        raise error
    engine: Any = request.app.template_engine
    html = engine.get_template("signin.html" if signed_out or elsewhere else "refused.html").render(
        message=message, signed_out=signed_out, elsewhere=elsewhere
    )
    return Response(
        html,
        status_code=401 if signed_out else status,
        media_type=MediaType.HTML,
    )


def routes() -> list[Any]:
    return [
        script,
        follow,
        favicon,
        Router(
            "/",
            route_handlers=[table, sheet, recap, dice, *_system_pages()],
            exception_handlers={HTTPException: _page_error, DomainError: _page_error},
            include_in_schema=False,
        ),
    ]
