"""The table's pages, rendered on the server (Jinja2, autoescaped) for the signed-in member:
``/campaigns/{campaign}`` the table, a session's thread as they may read it
(``projections.thread``: each post under its speaker, each ruling a compact card with its dice,
corrections and disputes folded under what they corrected; ``?session=N`` an earlier session),
their characters and the open disputes, and at the bottom the composer (a post as one of their
characters, out of character, to a member) beside the actions the policy gives them (the GM's
grouped); a character's sheet, the session recap, The Code's Exposure timeline and the dice
statistics (the projections' pages). Every form is a plain HTML form posted to
``/campaigns/{campaign}/act`` (CSRF token in a hidden field) and answered by a redirect back
(Post/Redirect/Get), so the table plays without JavaScript; ``table.js`` posts the same forms to
the JSON API instead and keeps the page live (``web.live``). A visitor who is not signed in, or
is signed in elsewhere, gets a page saying how to sign in. Every page's
Content-Security-Policy is ``web.csp``'s: every asset is the app's own, and a name that
smuggled markup in could run nothing anyway."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import attrs
from jinja2 import Environment
from litestar import MediaType, Request, Response, Router, get, post
from litestar.concurrency import sync_to_thread
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import FromPath, FromQuery
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Redirect, Template

from domain.audience import Member
from domain.campaign import CampaignState
from domain.errors import CodedError
from domain.events import Outcome
from domain.registry import verbs
from engine import (
    NOT_UNDOABLE,
    DiceSpec,
    Engine,
    LogEntry,
    LoggedRuling,
    NoSuchPoint,
    can_seal,
    event_lines,
    log_entry,
    new_to,
    one_line,
)
from projections.describe import system_title
from projections.dice_chart import page as dice_page
from projections.post_text import markdown_html
from projections.presentation import presentation_of, presentations
from projections.render_html import recap_html
from projections.render_thread import marks, speaker
from projections.stylesheet import STYLESHEET, e
from projections.thread import Entry, build_thread
from web.commands import SESSION_END, build, dice_spec
from web.dependencies import TheEngine, You
from web.errors import (
    InvalidRequest,
    UnknownVerb,
    status_of,
)
from web.forms import changes_of, composer, form_of, forms_for, read_dice, read_form, read_speaker
from web.not_found import as_page
from web.render import FILTERS, Reader, reader_of
from web.signin import page_of
from web.witness import TABLE_PAGE
from web.witness import shown as witnessed

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
    env.filters.update(FILTERS)


def nav(campaign: str, system: str, here: str) -> list[dict[str, Any]]:
    """The links on top of every page of a campaign (``here``: the page's own key); the table's
    opens at what is new to the member (``#new``)."""
    base = page_of(campaign)
    links = [("table", "Table", base + "#new"), ("recap", "Recap", base + "/recap")]
    links += [(p.key, p.label, base + p.path) for p in presentation_of(system).pages]
    links.append(("dice", "Dice", base + "/dice"))
    links.append(("dice-check", "Check the dice", base + "/dice-check"))
    links.append(("notices", "Notices", base + "/notices"))  # web.notify.pages
    return [{"key": k, "label": label, "href": href, "here": k == here} for k, label, href in links]


# Rulings a dispute does not apply to: what cannot be undone, and the table's own bookkeeping.
UNDISPUTED = frozenset(NOT_UNDOABLE) | {
    "session start",
    "scene start",
    "scene end",
    "member add",
    "member remove",
    "member link",
    "discord link",
    "discord unlink",
    "note",
}
FOLDED = frozenset({"dispute", "resolve"})  # shown under the ruling they are about


def _session_rulings(
    engine: Any, campaign: str, state: CampaignState, member: str, session: int | None
) -> tuple[int | None, list[LoggedRuling]]:
    """The session shown (default: the latest) and its rulings as the member reads them; before
    the first session, the latest rulings."""
    try:
        logged = engine.session_rulings(campaign, session, audience=Member(member))
    except NoSuchPoint:
        if session is not None:
            raise
        first = max(1, state.rulings - SHOWN + 1)
        return None, engine.log(
            campaign, rulings=range(first, state.rulings + 1), audience=Member(member)
        )
    shown = session or max((r.header.session or 0 for r in logged), default=0) or None
    return shown, logged


def _target(logged: LoggedRuling, state: CampaignState) -> int | None:
    """The ruling a dispute or a resolution is about."""
    try:
        recorded = json.loads(logged.ruling.params)
    except ValueError:
        return None
    params = recorded.get("args", recorded) if isinstance(recorded, dict) else {}
    if logged.ruling.command == "dispute":
        found = params.get("ruling")
        return found if isinstance(found, int) else None
    number = params.get("dispute")
    return next((d.ruling for d in state.disputes if d.number == number), None)


def _entry(entry: Entry, view: LogEntry, gm: str, reader: str, new: bool) -> dict[str, Any]:
    """One thread entry for ``_entry.html``: the thread's entry, its ruling's view (dice,
    corrections, disputes), the post's or narration's Markdown rendered (safely), whether it is
    new to the reader, whether they may edit it (their own post, standing), whether it shows
    what it recorded beside what stands now (amended, and not only in its narration)."""
    post = entry.post
    return {
        "x": entry,
        "new": new,
        "editable": post is not None
        and view.command == "post"
        and post.author == reader
        and view.undone is None,
        "was_now": any(a.lines != view.lines for a in view.amended),
        "v": view,
        "who": "" if post is None else speaker(post, gm),
        "voice": "card" if post is None else str(post.voice),
        "html": (
            markdown_html(post.text, post.rolls)
            if post is not None
            else (markdown_html(entry.say) if entry.say else "")
        ),
        "marks": marks(entry, gm),
        "disputable": view.command not in UNDISPUTED
        and (post is None or bool(post.rolls))
        and view.undone is None,
        "folds": [],
    }


def _thread_entries(
    state: CampaignState, logged: list[LoggedRuling], member: str, read: int
) -> tuple[list[dict[str, Any]], list[int]]:
    """The thread's entries for the page, what corrected or disputed an entry folded under it,
    and the rulings new to ``member``, who was shown the thread up to ruling ``read``."""
    thread = build_thread(state, logged)
    views = {one.ruling.number: log_entry(one, state) for one in logged}
    new = new_to(member, read, thread.entries)
    shown = [_entry(x, views[x.ruling], state.gm, member, x.ruling in new) for x in thread.entries]
    by_number = {item["x"].ruling: item for item in shown}
    targets = {
        one.ruling.number: _target(one, state) for one in logged if one.ruling.command in FOLDED
    }
    kept = []
    for item in shown:
        target = targets.get(item["x"].ruling)
        if target is not None and target in by_number:
            by_number[target]["folds"].append(item)
        else:
            kept.append(item)
    return kept, new


def _table(
    engine: Engine,
    member: str,
    campaign: str,
    session: int | None = None,
    refusal: dict[str, Any] | None = None,
    character: str | None = None,
    since: int | None = None,
    away: bool = False,
) -> dict[str, Any]:
    """The table page's context, the member's read position of the session shown moved to its
    last ruling (unless ``away``: the page is not being looked at); what is new is marked from
    ``since`` (default: their position before this page)."""
    state = engine.campaign(campaign)
    actions = engine.actions(campaign, reader=member, character=character or None)
    reader = reader_of(state, member)
    shown, logged = _session_rulings(engine, campaign, state, member, session)
    read = since if since is not None else engine.read_position(campaign, shown, member=member)
    entries, new = _thread_entries(state, logged, member, read)
    if logged and not away:
        engine.mark_read(campaign, shown, logged[-1].ruling.number, member=member)
    sheets = presentation_of(state.system)
    known_now = engine.characters(campaign, audience=Member(member))
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
    latest = max(state.sessions, shown or 0)
    if refusal is not None:
        refusal["shown"] = _offered(refusal, entries, reader, state)
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
        "shown": shown,
        "sessions": [
            {"number": n, "href": f"{page_of(campaign)}?session={n}", "here": n == shown}
            for n in range(1, latest + 1)
        ],
        "older": shown is not None and shown < latest,
        "entries": entries,
        "since": read,
        "unread": len(new),
        # where the page opens (``#new``): the first entry new to the member, else the last
        "anchor": new[0] if new else (entries[-1]["x"].ruling if entries else None),
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
        "forms": forms_for(reader, state, actions),
        "composer": composer(reader, state),
        "refusal": refusal,
        "turns": sheets.turns([known for known in known_now if known is not None], state),
        "nav": nav(campaign, state.system, "table"),
        "witness": witnessed(engine, campaign, member, TABLE_PAGE),
        "sealing": sealing_of(state, campaign, member),
    }


def sealing_of(state: CampaignState, campaign: str, member: str) -> dict[str, str]:
    """What table.js needs to seal the member's rolls with the key their browser holds (the
    key on their seat, to find it in the browser): nothing when no roll of theirs can be sealed
    now (``engine.can_seal``)."""
    if not can_seal(state, member):
        return {}
    seated = state.member(member)
    assert seated is not None  # can_seal holds only for a member on a seat
    return {"campaign": campaign, "member": member, "key": seated.key}


def _offered(
    refusal: dict[str, Any], entries: list[dict[str, Any]], reader: Reader, state: CampaignState
) -> bool:
    """Whether the form of a ruling or a dispute that was refused is on the page again (its
    line then stands at it; else above the composer)."""
    form = refusal["form"]
    if form == "resolve":
        open_now = (str(d.number) for d in state.open_disputes())
        return reader.gm and refusal["dispute"] in open_now
    for item in entries:
        view = item["v"]
        if str(view.ruling) == refusal["ruling"]:
            offers = {
                "dispute": reader.disputes and item["disputable"],
                "undo": reader.gm and view.correctable,
                "amend": reader.gm and view.correctable,
                "reveal": reader.gm and view.hidden,
                "edit": item["editable"],
            }
            return bool(offers.get(form, False))
    return False


@get("/campaigns/{campaign:str}", sync_to_thread=True)
def table(
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    session: FromQuery[int | None] = None,
    character: FromQuery[str | None] = None,
    since: FromQuery[int | None] = None,
    away: FromQuery[bool] = False,
) -> Template:
    """The table: the turn panel, a session's thread (what is new to the reader marked, the
    first of it the page's ``#new``), the composer after it, the actions the rules allow the
    reader now (``character``: for that one of theirs), the characters and the open disputes.
    Showing it moves the reader's read position to its last ruling, unless ``away`` (the live
    page fetching itself while not looked at); ``since``: mark what is new from that position
    (the live page's own, kept from when it opened)."""
    context = _table(engine, you, campaign, session, None, character, since, away)
    return Template("table.html", context=context)


def _flag(data: dict[str, str]) -> dict[str, bool]:
    then = data.get("then", "")
    return {"with_dependents": then == "with_dependents", "redecide": then == "redecide"}


def _ruling_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidRequest(problem=f"not a ruling's number: {text[:40]!r}") from None


# The forms _act runs apart from the loop (``Engines.write``'s ``whole_history``): the
# corrections (each replays what followed the ruling it corrects) and a session's end.
WHOLE_HISTORY = frozenset({"undo", "amend", "edit", "resolve", SESSION_END})


def _act(engine: Engine, member: str, campaign: str, data: dict[str, str]) -> int:
    """Run one posted form as ``member``; the number of the ruling it recorded."""
    state = engine.campaign(campaign)
    reader = reader_of(state, member)
    do = data.get("_do", "")
    faces = read_dice(data.get("dice", ""))
    if do == "undo":
        result = engine.undo(
            campaign,
            _ruling_number(data.get("ruling", "")),
            reason=data.get("reason", ""),
            actor=member,
            **_flag(data),
        )
    elif do == "amend":
        result = engine.amend(
            campaign,
            _ruling_number(data.get("ruling", "")),
            changes_of(data.get("changes", "")),
            reason=data.get("reason", ""),
            actor=member,
            dice=dice_spec(faces, None),
            **_flag(data),
        )
    elif do == "edit":  # an author's edit of their post: its text amended, rolls kept
        result = engine.amend(
            campaign,
            _ruling_number(data.get("ruling", "")),
            {"text": data.get("text", "")},
            reason=data.get("reason", ""),
            actor=member,
        )
    elif do == "resolve":
        try:
            outcome = Outcome(data.get("outcome", ""))
        except ValueError:
            raise InvalidRequest(problem="an outcome: upheld, undone or amended") from None
        result = engine.resolve(
            campaign,
            _ruling_number(data.get("dispute", "")),
            outcome,
            reason=data.get("reason", ""),
            changes=changes_of(data.get("changes", "")),
            actor=member,
            dice=dice_spec(faces, None),
            **_flag(data),
        )
    else:
        result = _issue(engine, campaign, state, reader, do, data)
    return int(result.number)


def _issue(
    engine: Any, campaign: str, state: CampaignState, reader: Reader, do: str, data: dict[str, str]
) -> Any:
    verb = verbs(state.system).get(do)
    if verb is None:
        raise UnknownVerb(verb=do[:40], where=state.system)
    hidden = False
    faces = read_dice(data.get("dice", ""))
    if do == "post":
        params: dict[str, Any] = read_speaker(data)
        hidden = bool(data.get("hidden"))  # the GM's (the engine refuses anyone else's)
    elif do == "dispute":
        params = {
            "ruling": _ruling_number(data.get("ruling", "")),
            "reason": data.get("reason", ""),
        }
    else:
        form = form_of(verb, reader, state)
        if form is None:  # not the member's to issue: the engine's policy says why
            form = form_of(verb, Reader(name=reader.name, role="gm", characters=()), state)
        assert form is not None
        params, faces, hidden = read_form(form, data)
    command = build(verb, params, reader.name)
    return engine.execute(
        campaign,
        command,
        actor=reader.name,
        dice=DiceSpec(faces=tuple(faces) if faces else None),
        hidden=hidden,
        say=data.get("say", ""),
        signed_in=True,  # the member signed in on this page
    )


@post("/campaigns/{campaign:str}/act", status_code=303)
async def act(
    request: Req, engine: TheEngine, you: You, campaign: FromPath[str]
) -> Redirect | Template:
    """A form of the table posted without JavaScript: the action runs as the signed-in member
    and the browser is sent back to the table at the ruling it recorded; a refusal is the
    table again with its one line in place (nothing recorded)."""
    form = await request.form()
    data = {str(k): str(v) for k, v in form.items()}
    try:
        number = await request.app.state.engines.write(
            partial(_act, engine, you, campaign, data),
            whole_history=data.get("_do", "") in WHOLE_HISTORY,
        )
    except CodedError as error:
        # the form refused (which ruling's or dispute's), its line, and what was typed in it
        refusal: dict[str, Any] = {
            "form": data.get("_form", data.get("_do", "")),
            "message": one_line(error),
            "text": data.get("text", ""),
            "data": data,
            "ruling": data.get("ruling", ""),
            "dispute": data.get("dispute", ""),
        }
        chosen = data.get("_as") or None
        table = partial(_table, engine, you, campaign, None, refusal, chosen)
        context = await sync_to_thread(table)
        return Template("table.html", context=context, status_code=status_of(error))
    return Redirect(f"{page_of(campaign)}{_chosen(data)}#r-{number}", status_code=303)


def _chosen(data: dict[str, str]) -> str:
    """The query that keeps the character the actions were shown for (none: the default)."""
    chosen = data.get("_as", "")
    return f"?character={quote(chosen, safe='')}" if chosen else ""


@get("/campaigns/{campaign:str}/characters/{name:str}", sync_to_thread=True)
def sheet(engine: TheEngine, you: You, campaign: FromPath[str], name: FromPath[str]) -> Template:
    """A character's sheet as the member may know it, drawn (its system's ``sheet_drawing``)
    with its text form folded under it, the turn panel, and the rulings that changed it."""
    state = engine.campaign(campaign)
    entry = state.find(name)
    known = engine.character(campaign, entry.name, audience=Member(you))
    sheets = presentation_of(state.system)
    history = engine.history(campaign, entry.name, audience=Member(you))
    return Template(
        "sheet.html",
        context={
            "campaign": campaign,
            "page": page_of(campaign),
            "api": f"/api{page_of(campaign)}",
            "after": state.rulings,
            "sealing": sealing_of(state, campaign, you),
            "reader": reader_of(state, you),
            "name": entry.name,
            "player": entry.player,
            "status": "" if known is None else sheets.status(known),
            "text": "" if known is None else sheets.sheet_text(known, state),
            "sheet": None if known is None else sheets.sheet_drawing(known, state),
            "turns": sheets.turns(_known(engine, campaign, you), state),
            "history": [
                attrs.evolve(log_entry(c.logged, state), lines=event_lines(c.events, state))
                for c in history
            ],
            "nav": nav(campaign, state.system, ""),
        },
    )


def _known(engine: Any, campaign: str, member: str) -> list[Any]:
    """The campaign's characters as the member may know them (those they know of)."""
    return [
        known for known in engine.characters(campaign, audience=Member(member)) if known is not None
    ]


def _wrapped(
    request: Req, campaign: str, state: CampaignState, here: str, html: str
) -> Response[str]:
    """A projection's own page with the table's links on top, following the campaign's event
    stream from the ruling ``state`` (read before the page was) stood at: a ruling recorded
    while the page loads is not missed."""
    links = " · ".join(
        f'<a href="{e(n["href"])}"{" aria-current=page" if n["here"] else ""}>{e(n["label"])}</a>'
        for n in nav(campaign, state.system, here)
    )
    bar = f'<nav class="bar"><strong>{e(campaign)}</strong> · {links}</nav>'
    events = e(f"{page_of(campaign)}/events?after={state.rulings}")
    follow = f'<script src="/static/follow.js" data-events="{events}" defer></script>'
    html = html.replace("<body>\n", f"<body>\n{bar}\n", 1).replace("</body>", f"{follow}\n</body>")
    return Response(html, media_type=MediaType.HTML)


@get("/campaigns/{campaign:str}/recap", sync_to_thread=True)
def recap(
    request: Req,
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    session: FromQuery[int | None] = None,
) -> Response[str]:
    """A session's recap (default: the latest) as the member reads it; the GM's with notes."""
    state = engine.campaign(campaign)
    gm = reader_of(state, you).gm
    html = recap_html(engine.recap(campaign, session, gm=gm, audience=Member(you)))
    return _wrapped(request, campaign, state, "recap", html)


def _system_page(path: str) -> Any:
    """The route of the systems' own pages at ``path`` (``projections.presentation.Page``, such
    as The Code's Exposure timeline): the campaign's system's page, or, on a campaign of a
    system without one, a page saying so (404) with a way back to the table."""
    owners = {s: p for s, shown in presentations().items() for p in shown.pages if p.path == path}
    first = next(iter(owners.values()))

    def handler(
        request: Req, engine: TheEngine, you: You, campaign: FromPath[str]
    ) -> Response[str]:
        state = engine.campaign(campaign)
        page = owners.get(state.system)
        if page is None:  # not linked from this campaign's pages: say so, with a way back
            title = system_title(state.system)
            what = path.strip("/")
            raise NotFoundException(detail=f"{campaign} is a {title} campaign: no {what} page")
        html = page.html(engine, campaign, Member(you))
        return _wrapped(request, campaign, state, page.key, html)

    handler.__doc__ = first.html.__doc__
    return get(f"/campaigns/{{campaign:str}}{path}", sync_to_thread=True)(handler)


def _system_pages() -> list[Any]:
    paths = dict.fromkeys(p.path for shown in presentations().values() for p in shown.pages)
    return [_system_page(path) for path in paths]


@get("/campaigns/{campaign:str}/dice", sync_to_thread=True)
def dice(
    request: Req,
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    session: FromQuery[int | None] = None,
) -> Response[str]:
    """Face counts per die with the chi-square test, of the rulings the member reads."""
    state = engine.campaign(campaign)
    rows = engine.dice_stats(campaign, session=session, audience=Member(you))
    html = dice_page(f"{campaign}: dice", rows)
    return _wrapped(request, campaign, state, "dice", html)


def _page_error(request: Req, error: Exception) -> Response[Any]:
    """A page's refusal, as a page whoever asked (``web.not_found``)."""
    return as_page(request, error)


def routes() -> list[Any]:
    return [
        script,
        follow,
        favicon,
        Router(
            "/",
            route_handlers=[table, act, sheet, recap, dice, *_system_pages()],
            exception_handlers={HTTPException: _page_error, CodedError: _page_error},
            include_in_schema=False,
        ),
    ]
