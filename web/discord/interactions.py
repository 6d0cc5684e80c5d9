"""``POST /discord/interactions``: the Interactions Endpoint of the campaign's Discord
application, on when `campaign serve` has the application's public key.

Each request: its signature checked over the raw body before anything is parsed (401 when it
fails), then by interaction type: 1 PING is answered with a PONG; 2 APPLICATION_COMMAND runs the
verb its name and subcommands spell (``/member add`` is ``member add``) as the member the
Discord account is linked to, in the campaign the channel plays, through the one application
API (the policy, the limits, the dice and visibility as anywhere); 4 AUTOCOMPLETE offers no
choices yet; 3 MESSAGE_COMPONENT and 5 MODAL_SUBMIT are answered with a line saying they are not
handled yet. A refusal is an ephemeral line with its code; nothing is recorded.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from litestar import Request, Response, post
from litestar.params import RawBody

from domain.errors import DomainError, InvalidParameter
from domain.registry import Verb, verbs
from engine import DiceSpec, Engine
from web.commands import build, engine_of
from web.discord import answers
from web.discord.signature import BadDiscordSignature, Verifier
from web.discord.tables import seat_of

PATH = "/discord/interactions"
PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL = 1, 2, 3, 4, 5
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
# Options every verb's slash command has besides its parameters (no verb has a parameter of
# either name: web.discord.slash checks).
FACES, HIDDEN = "faces", "hidden"

clock: Callable[[], float] = time.time  # the one clock seam: tests set the moment


class UnknownSlashCommand(DomainError):
    template = (
        "/{name} is not a command of a {system} campaign (`campaign discord commands` lists them)"
    )


class UnsupportedInteraction(DomainError):
    template = "this kind of interaction ({kind}) is not handled yet"


class MalformedInteraction(DomainError):
    template = "the interaction is not one Discord sends: {problem}"


@post(PATH, exclude_from_auth=True, include_in_schema=False, sync_to_thread=True, status_code=200)
def interactions(request: Request[Any, Any, Any], body: RawBody) -> Response[Any]:
    verifier: Verifier | None = request.app.state.get("discord")
    if verifier is None:
        return Response({"error": "Discord is not set up on this server"}, status_code=404)
    try:
        verifier.check(
            request.headers.get("X-Signature-Ed25519"),
            request.headers.get("X-Signature-Timestamp"),
            body,
            clock(),
        )
    except BadDiscordSignature as error:
        return Response({"error": error.reason}, status_code=401)
    try:
        interaction = json.loads(body)
        if not isinstance(interaction, dict):
            raise MalformedInteraction(problem="not a JSON object")
        answer = answered(engine_of(request), interaction)
    except DomainError as error:
        answer = answers.refused(error)
    except ValueError as error:
        answer = answers.refused(MalformedInteraction(problem=str(error)))
    return Response(answer, status_code=200)


def answered(engine: Engine, interaction: dict[str, Any]) -> dict[str, Any]:
    """The answer to a signed interaction (see the module docstring)."""
    kind = interaction.get("type")
    if kind == PING:
        return {"type": answers.PONG}
    if kind == AUTOCOMPLETE:
        return {"type": answers.AUTOCOMPLETE_RESULT, "data": {"choices": []}}
    if kind != COMMAND:
        what = {COMPONENT: "a button", MODAL: "a form"}
        raise UnsupportedInteraction(kind=what.get(kind, kind) if isinstance(kind, int) else kind)
    channel, account = _where(interaction)
    seat = seat_of(engine, channel, account)
    data = interaction.get("data")
    if not isinstance(data, dict):
        raise MalformedInteraction(problem="an application command without data")
    words, options = _spelled(data)
    system = seat.campaign.system
    verb = verbs(system).get(" ".join(words))
    if verb is None:
        raise UnknownSlashCommand(name=" ".join(words), system=system)
    params, dice, hidden = _params(verb, options)
    command = build(verb, params, seat.member)
    result = engine.execute(
        seat.campaign.name, command, actor=seat.member, dice=dice, hidden=hidden
    )
    return answers.ruling(result, seat.member)


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


def _spelled(data: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The verb's words (the command, its group and subcommand) and the options given to it."""
    words = [str(data.get("name", ""))]
    options = data.get("options") or []
    while len(options) == 1 and options[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        words.append(str(options[0].get("name", "")))
        options = options[0].get("options") or []
    return words, list(options)


def _params(verb: Verb, options: list[dict[str, Any]]) -> tuple[dict[str, Any], DiceSpec, bool]:
    """The verb's parameters from the options (a list parameter is written comma-separated),
    the dice rolled at the table (``faces``, comma-separated) and whether it is hidden."""
    lists = {p.name for p in verb.parameters if p.type.startswith("tuple")}
    params: dict[str, Any] = {}
    faces: tuple[int, ...] | None = None
    hidden = False
    for option in options:
        name, value = option.get("name"), option.get("value")
        if name == FACES and isinstance(value, str):
            faces = _faces(value)
        elif name == HIDDEN:
            hidden = value is True
        elif isinstance(name, str):
            params[name] = _split(value) if name in lists and isinstance(value, str) else value
    return params, DiceSpec(faces=faces), hidden


def _split(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _faces(value: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in _split(value))
    except ValueError:
        raise InvalidParameter(key=FACES, value=value, expected="faces like 3,5") from None


def routes() -> list[Any]:
    return [interactions]
