"""A player's roll sealed through Discord (protocol 3): the interaction Discord sent for the
slash command plays the part a player's own seal plays elsewhere (``engine.dice.seals``).

Discord signs every interaction it sends the application: Ed25519 over the
``X-Signature-Timestamp`` header followed by the raw body, by a key only Discord holds, whose
public half is the application's public key. The campaign records that public key when the
GM links the channel (``domain.links.LinkChannel``). A roll a player asks for with a slash
command is then recorded with Discord's signature as its ``seal`` and what it signed as its
``interaction`` (``domain.interactions``); its dice come from the committed seed and that
signature, exactly as a player's sealed roll's do (``engine.dice.committed.sealed_key``). The
GM's machine cannot make such a signature, so it cannot foresee the roll.

The checks (here, when the roll is recorded, and in ``verify``, ``verify-dice`` and the dice
page): the signature holds by the key recorded at the link of the channel the body names; the
body's user is the Discord account linked to the member who rolled; its command and options,
read through the same mapping the interaction handler uses (``command_sent``), give the command
and arguments the ruling records; its id seals no other roll of the session; and it was sent
after the session's commitment was recorded (and, when the roll is recorded, within ``MAX_AGE``
of the engine's clock), so the GM cannot pick among interactions he kept from before.

The mapping of a slash command's options to a verb's command lives here so the handler, the
engine and the audit read a body one way: its words (a subcommand's name after the command's)
spell the verb, each option its parameter (a list written comma-separated), ``faces`` and
``hidden`` the dice rolled at the table and the GM's hidden roll, and the author's ``by`` is the
member the account is linked to, never an option (``author_of``)."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

from domain.campaign import CampaignState
from domain.errors import DomainError, InvalidParameter, UnknownParameter
from domain.events import Role
from domain.interactions import interaction_body, signed_parts
from domain.kinds import ListOf
from domain.links import DISCORD
from domain.policy import OBSERVERS, players_may
from domain.registry import Verb, verbs
from domain.signatures import signature_holds, signature_text_problem
from engine.dice.committed import SEALED
from engine.dice.seals import args_text, sealing
from engine.store.mapper import canonical_json, converter

MAX_AGE = 300  # seconds an interaction may be from the engine's clock when its roll is recorded
APPLICATION_COMMAND = 2  # Discord's interaction type of a slash command
SUBCOMMANDS = (1, 2)  # Discord's option types of a subcommand and of a subcommand group
FACES, HIDDEN = "faces", "hidden"  # options every verb's slash command has besides its own
AUTHOR = "by"  # the field naming who makes the ruling, where a player's policy says so


class DiscordSealNotSigned(DomainError):
    template = (
        "the interaction is not signed by the Discord application linked with channel "
        "{channel}: {problem}"
    )


class DiscordSealNotTheRoll(DomainError):
    template = "the interaction Discord signed is not this roll: {problem}"


class DiscordSealUsedAgain(DomainError):
    template = (
        "interaction {interaction} sealed a roll of session {session} already: an interaction "
        "seals one roll"
    )


class DiscordSealStale(DomainError):
    template = (
        "interaction {interaction} was sent at {sent} (Unix seconds), {problem}: an old "
        "interaction seals nothing"
    )


# --- the mapping of a slash command to a verb's command ---------------------------------------


def author_of(system: str, verb: Verb) -> str | None:
    """The field of ``verb`` naming its ruling's author, filled from the linked member: the
    field a player's or an observer's policy says must name themself (``PlayerMay.as_player``)
    when it is the author's ``by``. A field naming another member, the GM's to choose (a new
    character's ``player``, the ``member`` a key is put on), stays an option."""
    may = players_may(system).get(verb.name) or OBSERVERS.get(verb.name)
    field = None if may is None else may.as_player
    return field if field == AUTHOR else None


def chat_params(
    verb: Verb, values: Mapping[str, Any]
) -> tuple[dict[str, Any], tuple[int, ...] | None, bool]:
    """The verb's parameters from the options' values (a list parameter is written
    comma-separated), the dice rolled at the table (``faces``, comma-separated) and whether it
    is hidden."""
    lists = {p.name: p.kind for p in verb.parameters if isinstance(p.kind, ListOf)}
    params: dict[str, Any] = {}
    faces: tuple[int, ...] | None = None
    hidden = False
    for name, value in values.items():
        if name == FACES and isinstance(value, str):
            faces = _faces(value)
        elif name == HIDDEN:
            hidden = value is True
        else:
            listed = lists.get(name)
            params[name] = listed.parse(name, value) if listed and isinstance(value, str) else value
    return params, faces, hidden


def _faces(value: str) -> tuple[int, ...]:
    try:
        return tuple(int(part.strip()) for part in value.split(",") if part.strip())
    except ValueError:
        raise InvalidParameter(key=FACES, value=value, expected="faces like 3,5") from None


def built(verb: Verb, params: Mapping[str, Any], member: str) -> Any:
    """The verb's command from JSON values, each checked against its parameter's kind
    (``domain.kinds``). A ``by`` left out is ``member``. The converter's own ``ValueError``,
    ``TypeError`` or ``KeyError`` is the caller's to name."""
    known = [p.name for p in verb.parameters]
    for key in params:
        if key not in known:
            raise UnknownParameter(command=verb.name, key=key, known=", ".join(known) or "none")
    args: dict[str, Any] = {}
    for parameter in verb.parameters:
        if parameter.name in params:
            value = params[parameter.name]
            try:
                args[parameter.name] = parameter.check(value)
            except InvalidParameter:
                raise InvalidParameter(
                    key=parameter.name, value=value, expected=parameter.expected()
                ) from None
        elif parameter.name == AUTHOR and parameter.required:
            args[AUTHOR] = member
        elif parameter.required:
            raise InvalidParameter(key=parameter.name, value=None, expected="required")
    return converter.structure(args, verb.command)


def values_sent(data: Mapping[str, Any]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """A slash command's words (its name, then its subcommands') and its options' values by
    name, as Discord sent them."""
    words = [str(data.get("name"))]
    options = data.get("options") or []
    while (
        isinstance(options, list)
        and len(options) == 1
        and isinstance(options[0], dict)
        and options[0].get("type") in SUBCOMMANDS
    ):
        words.append(str(options[0].get("name")))
        options = options[0].get("options") or []
    if not isinstance(options, list):
        return tuple(words), {}
    values = {str(o.get("name")): o.get("value") for o in options if isinstance(o, dict)}
    return tuple(words), values


def command_sent(
    system: str, data: Mapping[str, Any], member: str
) -> tuple[Any, tuple[int, ...] | None, bool]:
    """The command a slash command's ``data`` asks for as ``member``, the faces it gives and
    whether it is hidden (``DiscordSealNotTheRoll`` when it names no verb)."""
    words, values = values_sent(data)
    verb = verbs(system).get(" ".join(words))
    if verb is None:
        raise DiscordSealNotTheRoll(problem=f"/{' '.join(words)[:60]} is no verb of {system}")
    params, faces, hidden = chat_params(verb, values)
    author = author_of(system, verb)
    if author is not None:
        params[author] = member
    try:
        return built(verb, params, member), faces, hidden
    except (ValueError, TypeError, KeyError) as error:
        raise DiscordSealNotTheRoll(problem=f"`{verb.name}`: {error}") from None


# --- the checks -------------------------------------------------------------------------------


def _user(body: Mapping[str, Any]) -> str:
    member = body.get("member")
    user = member.get("user") if isinstance(member, dict) else body.get("user")
    found = user.get("id") if isinstance(user, dict) else None
    return found if isinstance(found, str) else ""


def _signed_by_discord(
    signed: str, seal: str, keys: Mapping[str, str]
) -> tuple[str, Mapping[str, Any]]:
    """The interaction's timestamp and body, refused unless ``seal`` is the signature, by the
    key recorded when its channel was linked, of what Discord sent."""
    timestamp, text = signed_parts(signed)
    body = interaction_body(signed)
    channel = body.get("channel_id")
    channel = channel if isinstance(channel, str) else ""
    key = keys.get(channel, "")
    problem = signature_text_problem(seal)
    if not key:
        problem = f"no key was recorded when channel {channel or '(none)'} was linked"
    elif problem is None and not signature_holds(key, signed.encode(), seal):
        problem = "the signature does not hold over its timestamp and body"
    if problem is not None or not timestamp or not text.startswith("{"):
        raise DiscordSealNotSigned(channel=channel or "(none)", problem=problem or "no timestamp")
    return timestamp, body


def _sent_by(body: Mapping[str, Any], account: str | None, member: str) -> None:
    """Refuse an interaction not sent by the Discord account linked to ``member``."""
    user = _user(body)
    if account is None or user != account:
        linked = f"account {account}" if account else "no Discord account"
        raise DiscordSealNotTheRoll(
            problem=f"it was sent by Discord account {user or '(none)'}, and {member} has {linked}"
        )


def _asks_for(system: str, data: Mapping[str, Any], member: str, command: str, args: str) -> None:
    """Refuse an interaction whose slash command is not ``command`` with ``args``, rolled."""
    asked, faces, hidden = command_sent(system, data, member)
    asked_args = canonical_json(converter.unstructure(asked)).decode()
    if asked.name != command or asked_args != args or faces is not None or hidden:
        raise DiscordSealNotTheRoll(
            problem=f"it asks for `{asked.name}` with other arguments or dice than `{command}`"
        )


def check_interaction(
    signed: str,
    seal: str,
    *,
    keys: Mapping[str, str],
    account: str | None,
    system: str,
    member: str,
    command: str,
    args: str,
    used: Collection[str],
    session: Any,
    not_before: float | None,
) -> str:
    """Refuse an interaction that does not seal ``member``'s roll of ``command`` with ``args``
    (canonical JSON): see the module docstring. ``keys``: each linked channel's application key
    at the time; ``account``: the Discord account linked to ``member``; ``used``: the ids of the
    interactions that sealed the session's rolls before; ``not_before``: when the session's
    commitment was recorded (Unix seconds). Its id."""
    timestamp, body = _signed_by_discord(signed, seal, keys)
    interaction = body.get("id") if isinstance(body.get("id"), str) else ""
    data = body.get("data")
    if body.get("type") != APPLICATION_COMMAND or not interaction or not isinstance(data, dict):
        raise DiscordSealNotTheRoll(problem="it is not a slash command with an id")
    _sent_by(body, account, member)
    _asks_for(system, data, member, command, args)
    if interaction in used:
        raise DiscordSealUsedAgain(interaction=interaction, session=session)
    if not_before is not None and int(timestamp) < math.floor(not_before):
        raise DiscordSealStale(
            interaction=interaction,
            sent=timestamp,
            problem=f"before session {session}'s commitment was recorded",
        )
    return interaction


def check_interaction_seal(
    campaign: CampaignState,
    member: str,
    command: Any,
    seal: str,
    signed: str,
    now: float,
    committed: float | None,
) -> int:
    """Refuse a roll's interaction seal when it is recorded (``check_interaction``, with the
    running session's commitment recorded at ``committed``, and sent within ``MAX_AGE`` of
    ``now``); which sealed roll of ``member`` it is."""
    sealed = sealing(campaign, member)
    channels = {c for p, c in campaign.channels if p == DISCORD}
    keys = {c: k for c, k in campaign.channel_keys if c in channels}
    interaction = check_interaction(
        signed,
        seal,
        keys=keys,
        account=campaign.account_of(DISCORD, member),
        system=campaign.system,
        member=member,
        command=command.name,
        args=args_text(command),
        used=campaign.interactions,
        session=campaign.session,
        not_before=committed,
    )
    sent = int(signed_parts(signed)[0])
    if abs(now - sent) > MAX_AGE:
        raise DiscordSealStale(
            interaction=interaction,
            sent=sent,
            problem=f"{abs(now - sent):.0f} s from now (at most {MAX_AGE})",
        )
    return sealed


def seals_through(campaign: CampaignState, member: str, channel: str) -> bool:
    """Whether a roll ``member`` asks for in ``channel`` is sealed by its interaction: a
    player's, in a running session of protocol 3 or later, in a channel linked with the
    application's key. The GM's own rolls are not (his server could drop his interactions
    until one suits him)."""
    seat = campaign.member(member)
    return (
        seat is not None
        and seat.role is Role.PLAYER
        and campaign.commitment is not None
        and campaign.dice_protocol >= SEALED
        and (DISCORD, channel) in campaign.channels
        and bool(campaign.channel_key(channel))
    )
