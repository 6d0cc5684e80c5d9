"""The pages of notices: ``/campaigns/{campaign}/notices``, where a signed-in member chooses
what they are told about and where (in Discord, by mail to the address they give there), and
``/unsubscribe/{token}``, the link of every mail, which stops that mail without signing in
(a page with one button; a mail program's one-click ``POST`` does the same). Plain forms: no
JavaScript needed."""

from __future__ import annotations

from functools import partial
from typing import Any

from litestar import MediaType, Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery
from litestar.response import Redirect, Template

from domain.errors import CodedError
from domain.links import DISCORD
from engine import NOTICE_KINDS, Engine, NoticeChoices, one_line
from web.dependencies import TheEngine, You
from web.errors import status_of
from web.notify.settings import NoticeSettings
from web.signin import page_of

Req = Request[Any, Any, Any]
KIND_LABELS = {
    "turn": "it is my character's turn, or a roll, a test or an adaptation waits on them",
    "private": "someone writes to me privately",
    "dispute": "a dispute of mine is resolved (a GM: a dispute is filed)",
}


def _settings(request: Req) -> NoticeSettings:
    found = request.app.state.get("notices")
    return found if isinstance(found, NoticeSettings) else NoticeSettings()


def _context(
    request: Req,
    engine: Engine,
    member: str,
    campaign: str,
    refusal: str = "",
    given: NoticeChoices | None = None,
) -> Any:
    """The page's context: ``member``'s choices as kept, or as ``given`` in the form refused
    (``refusal``: its line), to correct."""
    state = engine.campaign(campaign)
    choices = given or engine.notice_choices(campaign, member)
    mail = _settings(request).mail
    return {
        "campaign": campaign,
        "page": page_of(campaign),
        "member": member,
        "kinds": [
            {"value": k, "label": KIND_LABELS[k], "on": k in choices.kinds} for k in NOTICE_KINDS
        ],
        "discord": choices.discord,
        "account": state.account_of(DISCORD, member),
        "channel": any(platform == DISCORD for platform, _ in state.channels),
        "email": choices.email,
        "mail": mail is not None,
        "every": int(mail.every.total_seconds() // 60) if mail is not None else 0,
        "refusal": refusal,
        "saved": False,
    }


# The GETs are async (their store work on a worker thread all the same): Litestar registers the
# first handler of a path again when the second joins it, and wraps a sync_to_thread one twice.


@get("/campaigns/{campaign:str}/notices", include_in_schema=False)
async def notices_page(
    request: Req,
    engine: TheEngine,
    you: You,
    campaign: FromPath[str],
    saved: FromQuery[bool] = False,
) -> Template:
    """The signed-in member's choices of what they are told about, and where."""
    context = await sync_to_thread(partial(_context, request, engine, you, campaign))
    context["saved"] = saved
    return Template("notices.html", context=context)


@post("/campaigns/{campaign:str}/notices", include_in_schema=False)
async def choose(
    request: Req, engine: TheEngine, you: You, campaign: FromPath[str]
) -> Redirect | Template:
    """Keep the member's choices (the form of the Notices page), then show the page again; a
    refused address is the page again with its line at the field."""
    form = await request.form()
    kinds = [str(k) for k in form.getall("kind")] if "kind" in form else []
    email = str(form.get("email", ""))
    discord = form.get("discord") == "on"
    chosen = partial(_choose, request, engine, you, campaign, kinds, discord, email)
    return await sync_to_thread(chosen)


def _choose(
    request: Req,
    engine: Engine,
    member: str,
    campaign: str,
    kinds: list[str],
    discord: bool,
    email: str,
) -> Redirect | Template:
    try:
        engine.choose_notices(campaign, member, kinds=kinds, discord=discord, email=email)
    except CodedError as error:
        typed = NoticeChoices(kinds=tuple(kinds), discord=discord, email=email)
        context = _context(request, engine, member, campaign, one_line(error), typed)
        return Template("notices.html", context=context, status_code=status_of(error))
    return Redirect(f"{page_of(campaign)}/notices?saved=true", status_code=303)


def _refused(request: Req, error: CodedError) -> Response[Any]:
    templates: Any = request.app.template_engine
    html = templates.get_template("refused.html").render(message=error.message, back="")
    return Response(html, status_code=status_of(error), media_type=MediaType.HTML)


@get("/unsubscribe/{token:str}", exclude_from_auth=True, include_in_schema=False)
async def unsubscribe_page(request: Req, engine: TheEngine, token: FromPath[str]) -> Response[Any]:
    """What a mail's link stops, with the one button that stops it (opening it stops
    nothing: a mail program may open a link to look at it)."""
    return await sync_to_thread(partial(_stopping, request, engine, token))


def _stopping(request: Req, engine: Engine, token: str) -> Response[Any]:
    try:
        campaign, member, address = engine.mail_stopped_by(token)
    except CodedError as error:
        return _refused(request, error)
    context = {"campaign": campaign, "member": member, "address": address, "done": False}
    return Template("unsubscribe.html", context=context | {"action": f"/unsubscribe/{token}"})


@post(
    "/unsubscribe/{token:str}",
    exclude_from_auth=True,
    sync_to_thread=True,
    include_in_schema=False,
    status_code=200,
)
def unsubscribe(request: Req, engine: TheEngine, token: FromPath[str]) -> Response[Any]:
    """Stop the mail a link names (the button of its page, or a mail program's one-click)."""
    try:
        campaign, member, address = engine.unsubscribe(token)
    except CodedError as error:
        return _refused(request, error)
    context = {"campaign": campaign, "member": member, "address": address, "done": True}
    return Template("unsubscribe.html", context=context | {"page": page_of(campaign)})


def routes() -> list[Any]:
    return [notices_page, choose, unsubscribe_page, unsubscribe]
