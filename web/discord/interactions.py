"""``POST /discord/interactions``: the Interactions Endpoint of the campaign's Discord
application, on when `campaign serve` has the application's public key.

Each request: its signature checked over the raw body before anything is parsed (401 when it
fails), then by interaction type: 1 PING is answered with a PONG; 2 APPLICATION_COMMAND runs the
verb its name and subcommands spell (``/member add`` is ``member add``) as the member the
Discord account is linked to, in the campaign the channel plays, through the one application
API (the policy, the limits, the dice and visibility as anywhere); 4 AUTOCOMPLETE offers the
choices of the option being typed (``web.discord.autocomplete``); a post in a character's or an
NPC's voice appears in the channel as that character (``web.discord.voices``); 3
MESSAGE_COMPONENT is a
button under a ruling (Dispute, the GM's Undo), checked against the policy when pressed and
answered with a form asking the reason; 5 MODAL_SUBMIT is that form sent, recorded as the
dispute or the undo. A refusal is an ephemeral line with its code; nothing is recorded.
A command's options are read against the command as registered (``web.discord.options``); the
author of a post, a dispute or entropy is the linked member, no option. A command or a form
is run once: a copy of it (its id) gets the first answer, kept in the store. A player's roll
in a protocol-3 session, in a channel linked with the application's key, is sealed by the
interaction: Discord's signature and what it signed (the timestamp and the raw body) go with
the command (``Engine.execute(seal=..., interaction=...)``, ``engine.dice.interactions``).

Discord waits three seconds for the first answer: a command or a form still running after
``DEADLINE`` is answered "deferred" (type 5, Discord shows that the app is thinking) and its
answer replaces that message through the interaction's webhook when it is ready
(``web.discord.api.edit_original``).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as NotYet
from functools import cache
from types import MappingProxyType
from typing import Any

from litestar import Request, Response, post
from litestar.background_tasks import BackgroundTask
from litestar.params import RawBody

from domain.errors import CodedError, DomainError, ErrorKind
from domain.policy import check_allowed, check_gm
from domain.registry import Verb, verbs
from domain.table import DisputeRuling
from engine import (
    DiceSpec,
    Engine,
    RulingResult,
    author_of,
    chat_params,
    ruling_view,
    seals_through,
    store_fault,
)
from web.commands import build
from web.discord import answers, api, direct, voices
from web.discord.answers import Answer
from web.discord.autocomplete import suggestions
from web.discord.options import MalformedInteraction, given
from web.discord.signature import BadDiscordSignature, Verifier
from web.discord.slash import commands as slash_commands
from web.discord.tables import Seat, campaign_of, seat_of
from web.discord.tools import JOIN, JOIN_COMMAND, TOOL_KINDS, TOOLS, Asked, join
from web.discord.tools import options_of as tools_options
from web.errors import refusal

PATH = "/discord/interactions"
PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL = 1, 2, 3, 4, 5
# Discord's signature of an interaction (lower-case hex) and what it signed: the
# X-Signature-Timestamp header followed by the raw body, as text.
Signed = tuple[str, str]

clock: Callable[[], float] = time.time  # the one clock seam: tests set the moment
DEADLINE = 2.5  # seconds a command may take before its answer is deferred (Discord waits 3)
WORKERS = ThreadPoolExecutor(max_workers=8, thread_name_prefix="discord")
DISPUTE, UNDO, REASON = "dispute", "undo", "reason"
log = logging.getLogger(__name__)


class DiscordNotSetUp(DomainError):
    kind = ErrorKind.NOT_FOUND
    template = "Discord is not set up on this server (`campaign serve --discord-public-key KEY`)"


class UnknownSlashCommand(DomainError):
    template = (
        "/{name} is not a command of a {system} campaign (`campaign discord commands` lists them)"
    )


class UnsupportedInteraction(DomainError):
    template = "this kind of interaction ({kind}) is not handled yet"


class UnknownButton(DomainError):
    template = "this button ({custom_id!r}) is not one of this program's"


@post(PATH, exclude_from_auth=True, include_in_schema=False, sync_to_thread=True, status_code=200)
def interactions(request: Request[Any, Any, Any], body: RawBody) -> Response[Any]:
    verifier: Verifier | None = request.app.state.get("discord")
    if verifier is None:
        return refusal(DiscordNotSetUp())
    try:
        verifier.check(
            request.headers.get("X-Signature-Ed25519"),
            request.headers.get("X-Signature-Timestamp"),
            body,
            clock(),
        )
    except BadDiscordSignature as error:
        return refusal(error)
    try:
        interaction = json.loads(body)
    except ValueError as error:
        return Response(answers.refused(MalformedInteraction(problem=str(error))))
    if not isinstance(interaction, dict):
        return Response(answers.refused(MalformedInteraction(problem="not a JSON object")))
    engines, page = request.app.state.engines, str(request.base_url).rstrip("/")
    signed = _signed(request, body)
    future = WORKERS.submit(lambda: answer_of(engines.get(), interaction, page, signed))
    try:
        answer = future.result(timeout=DEADLINE if _deferrable(interaction) else None)
    except NotYet:
        future.add_done_callback(lambda done: _follow_up(interaction, done))
        return Response({"type": answers.DEFERRED})
    if not answer.then and answer.speak is None and answer.tell is None:
        return Response(answer.first)
    return Response(answer.first, background=BackgroundTask(_after, interaction, answer))


def _signed(request: Request[Any, Any, Any], body: bytes) -> Signed | None:
    """Discord's signature of the request (checked) and what it signed, as text (None when the
    body is not UTF-8: such a request seals nothing)."""
    signature = request.headers.get("X-Signature-Ed25519", "")
    timestamp = request.headers.get("X-Signature-Timestamp", "")
    try:
        return bytes.fromhex(signature).hex(), timestamp + body.decode("utf-8")
    except ValueError:
        return None


def _deferrable(interaction: dict[str, Any]) -> bool:
    """Whether an interaction may be answered late (a form cannot be opened late)."""
    return interaction.get("type") in (COMMAND, MODAL)


def _follow_up(interaction: dict[str, Any], done: Future[Answer]) -> None:
    """The late answer, in place of the deferred one (nobody to tell when Discord refuses)."""
    try:
        answer = done.result()
        application, token = interaction.get("application_id"), interaction.get("token")
        api.edit_original(str(application), str(token), answer.first.get("data", {}))
    except Exception:
        log.exception("the deferred answer to a Discord interaction could not be sent")
        return
    _after(interaction, answer)


def _after(interaction: dict[str, Any], answer: Answer) -> None:
    """What follows an answer: the post shown as its speaker, a ruling the table may not read
    sent to its other readers, the answer's further parts."""
    if answer.speak is not None:
        voices.speak(*answer.speak)
    if answer.tell is not None:
        result, author = answer.tell
        first = answer.first_told or (lambda member: True)
        direct.send(result, author, answers.ruling(ruling_view(result))["data"], first)
    _then(interaction, answer.then)


def _then(interaction: dict[str, Any], messages: tuple[dict[str, Any], ...]) -> None:
    """The messages that follow an answer, in order (the first refused stops the rest)."""
    application, token = str(interaction.get("application_id")), str(interaction.get("token"))
    try:
        for data in messages:
            api.follow_up(application, token, data)
    except Exception:
        log.exception("a message following a Discord answer could not be sent")


def answer_of(
    engine: Engine, interaction: dict[str, Any], page: str = "", signed: Signed | None = None
) -> Answer:
    """The answer to a signed interaction, a refusal as an ephemeral line. A command or a
    form sent is run once: a replay of it (the same interaction id) is given the first answer
    again, kept in the store (``Engine.answer_once``), and runs nothing: nothing is appended,
    nothing rolled, no post shown again, no part of a recap sent again."""
    if interaction.get("type") not in (COMMAND, MODAL):
        return _answer_now(engine, interaction, page)
    ran: list[Answer] = []

    def first() -> str:
        ran.append(_answer_now(engine, interaction, page, signed))
        return json.dumps(ran[0].first)

    try:
        kept = engine.answer_once(f"discord:{_interaction_id(interaction)}", first)
    except Exception as error:  # a refusal, or a fault of the store: one line all the same
        return _refused(engine, error)
    return ran[0] if ran else Answer(json.loads(kept))


def _interaction_id(interaction: dict[str, Any]) -> str:
    found = interaction.get("id")
    if not isinstance(found, str) or not 1 <= len(found) <= 32:
        raise MalformedInteraction(problem="no id")
    return found


def _answer_now(
    engine: Engine, interaction: dict[str, Any], page: str, signed: Signed | None = None
) -> Answer:
    try:
        found = answered(engine, interaction, page, signed)
    except Exception as error:
        return _refused(engine, error)
    return found if isinstance(found, Answer) else Answer(found)


def _refused(engine: Engine, error: Exception) -> Answer:
    """A refusal, or a fault of the store (a full disk, a server gone), as its ephemeral line:
    Discord takes a 200 answer or none. Anything else is a bug, and raised."""
    problem = error if isinstance(error, CodedError) else store_fault(error, engine.db)
    if problem is None:
        raise error
    return Answer(answers.refused(problem))


def answered(
    engine: Engine, interaction: dict[str, Any], page: str = "", signed: Signed | None = None
) -> dict[str, Any] | Answer:
    """The answer to a signed interaction (see the module docstring); ``signed``: Discord's
    signature and what it signed, which seal a player's roll (``_sealing``)."""
    kind = interaction.get("type")
    if kind == PING:
        return {"type": answers.PONG}
    if kind not in (COMMAND, COMPONENT, MODAL, AUTOCOMPLETE):
        raise UnsupportedInteraction(kind=kind)
    channel, account = _where(interaction)
    data = interaction.get("data")
    if not isinstance(data, dict):
        raise MalformedInteraction(problem="an interaction without data")
    if kind == COMMAND and data.get("name") == JOIN:  # an account not linked yet
        code = given(JOIN_COMMAND, data).values.get("code", "")
        return join(engine, campaign_of(engine, channel), account, str(code))
    seat = seat_of(engine, channel, account)
    if kind == COMPONENT:
        return _pressed(seat, str(data.get("custom_id", "")))
    if kind == MODAL:
        return _submitted(engine, seat, data)
    return _commanded(engine, seat, interaction, data, page, signed)


def _commanded(
    engine: Engine,
    seat: Seat,
    interaction: dict[str, Any],
    data: dict[str, Any],
    page: str,
    signed: Signed | None,
) -> dict[str, Any] | Answer:
    """A slash command, or the choices of the option being typed in one."""
    system = seat.campaign.system
    registered = registered_commands(system).get(str(data.get("name")))
    if registered is None:
        raise UnknownSlashCommand(name=str(data.get("name"))[:40], system=system)
    typing = interaction.get("type") == AUTOCOMPLETE
    sent = given(registered, data, typing=typing)
    name = " ".join(sent.words)
    verb = verbs(system).get(name)
    tool = TOOLS.get(name) if verb is None else None
    if verb is None and tool is None:
        raise UnknownSlashCommand(name=name, system=system)
    if typing:
        kinds = TOOL_KINDS if tool is not None else {p.name: p.kind for p in verb.parameters}  # type: ignore[union-attr]
        choices = suggestions(engine, seat, kinds, list(sent.sent))
        return {"type": answers.AUTOCOMPLETE_RESULT, "data": {"choices": choices}}
    if tool is not None:
        options = [{"name": k, "value": v} for k, v in sent.values.items()]
        return tool.run(Asked(engine, seat, tools_options(tool, options), page))
    assert verb is not None
    return _ran(engine, seat, verb, sent.values, interaction, signed)


def _ran(
    engine: Engine,
    seat: Seat,
    verb: Verb,
    values: dict[str, Any],
    interaction: dict[str, Any],
    signed: Signed | None,
) -> dict[str, Any] | Answer:
    """A verb's command, run as the linked member (a player's roll sealed by the interaction
    where ``_sealing`` says so), and its answer."""
    params, faces, hidden = chat_params(verb, values)
    author = author_of(seat.campaign.system, verb)
    if author is not None:  # not an option: the member the account is linked to
        params[author] = seat.member
    command = build(verb, params, seat.member)
    channel = str(interaction.get("channel_id"))
    seal, what = _sealing(seat, channel, signed) if faces is None and not hidden else ("", "")
    result = engine.execute(  # the member the Discord account is linked to, signed by Discord
        seat.campaign.name,
        command,
        actor=seat.member,
        dice=DiceSpec(faces=faces),
        hidden=hidden,
        seal=seal,
        interaction=what,
        signed_in=True,
    )
    return _shown(engine, seat, channel, result)


def _sealing(seat: Seat, channel: str, signed: Signed | None) -> Signed:
    """Discord's signature and what it signed, as the roll's seal, where the interaction seals
    it (``engine.seals_through``: a player's roll in a protocol-3 session, in a channel linked
    with the application's key); ("", "") where it does not."""
    if signed is None or not seals_through(seat.campaign, seat.member, channel):
        return "", ""
    return signed


def _shown(
    engine: Engine, seat: Seat, channel: str, result: RulingResult
) -> dict[str, Any] | Answer:
    """A ruling's answer: a post shown in its speaker's voice, a ruling the table may not read
    told to its readers, or the ruling."""
    voice = voices.voice_of(result)
    if voice is not None and voices.can_speak():
        speaker, text = voice
        shown = answers.said(f"ruling {result.number}: posted as {speaker} in the channel")
        return Answer(shown, speak=(channel, speaker, text))
    if direct.readers_besides(result, seat.member):  # a private or hidden ruling: its readers'
        number, name = result.number, seat.campaign.name
        return Answer(
            answers.ruling(ruling_view(result)),
            tell=(result, seat.member),
            first_told=lambda member: (
                engine.notice_choices(name, member).discord  # not turned off on Notices
                and engine.told_once(name, number, member, direct.DM)
            ),
        )
    return answers.ruling(ruling_view(result))


def _button(custom_id: str) -> tuple[str, int]:
    """What a button of a ruling does and to which ruling (``dispute:12``, ``undo:12``)."""
    what, _, number = custom_id.partition(":")
    if what not in (DISPUTE, UNDO) or not number.isdigit():
        raise UnknownButton(custom_id=custom_id[:100])
    return what, int(number)


def _pressed(seat: Seat, custom_id: str) -> dict[str, Any]:
    """A ruling's button, checked against the policy now: the form asking the reason."""
    what, number = _button(custom_id)
    if what == UNDO:
        check_gm(seat.campaign, seat.member, "undo a ruling")
    else:
        asked = DisputeRuling(ruling=number, reason="-", by=seat.member)
        check_allowed(seat.campaign, seat.member, asked)
    return answers.reason_form(custom_id, f"{what.capitalize()} ruling {number}")


def _submitted(engine: Engine, seat: Seat, data: dict[str, Any]) -> dict[str, Any]:
    """The reason sent: the dispute or the undo it was asked for, recorded as the member's."""
    what, number = _button(str(data.get("custom_id", "")))
    reason = _reason(data.get("components"))
    name = seat.campaign.name
    if what == UNDO:
        result = engine.undo(name, number, reason=reason, actor=seat.member)
    else:
        dispute = DisputeRuling(ruling=number, reason=reason, by=seat.member)
        result = engine.execute(name, dispute, actor=seat.member)
    return answers.ruling(ruling_view(result))


def _reason(components: Any) -> str:
    """The text typed in the form: its one text input, in a Label (or in an Action Row, as
    older clients send it)."""
    for component in components if isinstance(components, list) else []:
        if not isinstance(component, dict):
            continue
        for field in [component.get("component"), *(component.get("components") or [])]:
            if isinstance(field, dict) and field.get("custom_id") == REASON:
                return str(field.get("value", ""))
    raise MalformedInteraction(problem="a form without its reason")


def _where(interaction: dict[str, Any]) -> tuple[str, str]:
    """The channel and the Discord account of an interaction (``member.user`` in a server,
    ``user`` in a direct message)."""
    member = interaction.get("member")
    user = member.get("user") if isinstance(member, dict) else interaction.get("user")
    channel = interaction.get("channel_id")
    if not isinstance(user, dict) or not isinstance(user.get("id"), str):
        raise MalformedInteraction(problem="no user")
    if not isinstance(channel, str):
        raise MalformedInteraction(problem="no channel_id")
    return channel, user["id"]


@cache
def registered_commands(system: str) -> Mapping[str, Mapping[str, Any]]:
    """The slash commands of ``system`` as registered, by name."""
    return MappingProxyType({c["name"]: c for c in slash_commands(system)})


def routes() -> list[Any]:
    return [interactions]
