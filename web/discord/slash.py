"""The slash commands of a system's campaign, generated from the command registry
(``domain.registry.verbs``) inside Discord's limits, as the JSON its bulk overwrite takes
(``PUT /applications/{app}/commands`` or ``…/guilds/{guild}/commands``).

A verb of one word is a command (``/dice``); a verb of two is a subcommand of its first word
(``/member add``, ``/session start``): no system has more than 36 first words (Discord allows 100
chat commands a scope) nor 25 verbs under one. Each parameter is an option, from its kind
(``domain.kinds``): a flag is true/false (5); a whole number an integer (4) with its bounds; a
text a string (3) with its longest length (Discord's at most 6,000); a choice a string with its
values as Discord's choices (up to 25; a choice the rule reads more loosely, or a longer one, is
offered by autocomplete instead, so other values still reach the rule); a list a string written
comma-separated; a character, NPC or member a string offered by autocomplete, a ruling an
integer offered so. An optional parameter (with a default, or nullable) is not required, and the
required come first, as Discord asks. Every verb's command also takes ``faces`` (dice rolled at
the table, comma-separated) and ``hidden`` (the GM's hidden roll). Names are the verbs' and
fields' own: lowercase, 1 to 32 characters. The corrections and reads that are not verbs
(``/undo``, ``/amend``, ``/recap``, ``/sheet``, ``/log``, ``/verify-dice``) come from
``web.discord.tools``.

The field naming the author of a ruling (``by``: who posts, disputes, adds entropy) is no
option: in Discord the author is the member the account is linked to (``author_of``). A command
none of whose verbs a player may issue (``domain.policy.players_may``) is registered with
``default_member_permissions`` ``"0"``: only the server's administrators see it until one grants
it to a role (Server Settings, Integrations); the policy still decides who may run it. A
description longer than Discord's 100 characters is cut at a word, ending in "…".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from domain.kinds import Choice, Flag, Integer, ListOf, Reference, Refers, Text
from domain.policy import players_may
from domain.registry import Parameter, Verb, verbs
from engine import author_of
from web.discord.tools import GM_TOOLS, JOIN, TOOLS
from web.discord.tools import slash_commands as tool_commands

CHAT_INPUT = 1
SUB_COMMAND, STRING, INTEGER, BOOLEAN = 1, 3, 4, 5
MAX_COMMANDS, MAX_OPTIONS, MAX_CHOICES = 100, 25, 25
MAX_NAME, MAX_DESCRIPTION, MAX_LENGTH = 32, 100, 6000
GM_ONLY = "0"  # default_member_permissions: no permission suffices; administrators see it
NAME = re.compile(r"^[-_'\w]{1,32}$")  # Discord's: letters and digits of any script, - _ '
EXTRA = (
    {"type": STRING, "name": "faces", "description": "Dice rolled at the table, e.g. 3,5"},
    {"type": BOOLEAN, "name": "hidden", "description": "The GM's hidden roll"},
)


class TooManyForDiscord(Exception):
    """The registry holds what Discord's limits cannot (a check of this module, not a refusal)."""


def described(text: str, fallback: str) -> str:
    """A description of 1 to 100 characters: the first sentence of ``text`` (or ``fallback``),
    cut at a word when longer (``shortened``)."""
    first = re.split(r"(?<=\.)\s", text.strip(), maxsplit=1)[0].rstrip(".") or fallback
    return shortened(first, MAX_DESCRIPTION)


def shortened(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: as it is when it fits, else cut after the last
    whole word that fits with an ellipsis (a first word longer than that is cut within)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    room = text[: limit - 1]
    cut = room if text[limit - 1] == " " else room.rpartition(" ")[0]
    return (cut or room).rstrip(" ,;:-(") + "…"


def players_issue(system: str, names: Iterable[str]) -> bool:
    """Whether a player may issue one of the verbs ``names`` (their command stays visible)."""
    may = players_may(system)
    return any(name in may for name in names)


def option_of(parameter: Parameter) -> dict[str, Any]:
    """One parameter as an option (see the module docstring)."""
    kind = parameter.kind
    option: dict[str, Any] = {"type": STRING, "name": _name(parameter.name)}
    what = "text"
    if isinstance(kind, Flag):
        option["type"], what = BOOLEAN, "true or false"
    elif isinstance(kind, Integer):
        option["type"], what = INTEGER, "a whole number"
        option.update(_bounds(kind))
    elif isinstance(kind, Text):
        option["max_length"] = min(kind.max_length, MAX_LENGTH)
    elif isinstance(kind, Choice):
        what = "one of " + ", ".join(kind.values)
        if kind.reads_more or len(kind.values) > MAX_CHOICES:
            option["autocomplete"] = True
        else:
            option["choices"] = [
                {"name": shortened(v, MAX_DESCRIPTION), "value": v} for v in kind.values
            ]
    elif isinstance(kind, ListOf):
        what = "comma-separated"
    elif isinstance(kind, Reference):
        option["autocomplete"] = True
        what = "a ruling's number" if kind.refers is Refers.RULING else f"a {kind.refers.value}"
        if kind.refers is Refers.RULING:
            option.update(type=INTEGER, min_value=1)
    option["description"] = described(f"{parameter.name.replace('_', ' ')} ({what})", "value")
    option["required"] = parameter.required and not parameter.nullable
    return option


def _bounds(kind: Integer) -> dict[str, int]:
    found = {"min_value": kind.minimum, "max_value": kind.maximum}
    return {k: v for k, v in found.items() if v is not None}


def options_of(verb: Verb, system: str) -> list[dict[str, Any]]:
    """The options of ``verb``'s command: its parameters but its author's, and the extras."""
    author = author_of(system, verb)
    own = [option_of(p) for p in verb.parameters if p.name != author]
    taken = {o["name"] for o in own} & {e["name"] for e in EXTRA}
    if taken:
        raise TooManyForDiscord(f"`{verb.name}` has a parameter named {sorted(taken)}")
    found = sorted(own, key=lambda o: not o["required"]) + [dict(e) for e in EXTRA]
    if len(found) > MAX_OPTIONS:
        raise TooManyForDiscord(f"`{verb.name}` has {len(found)} options (at most {MAX_OPTIONS})")
    return found


def commands(system: str) -> list[dict[str, Any]]:
    """Every verb of ``system`` as slash commands (see the module docstring)."""
    grouped: dict[str, list[Verb]] = {}
    for verb in verbs(system).values():
        grouped.setdefault(verb.name.split(" ")[0], []).append(verb)
    found = [_command(system, first, group) for first, group in sorted(grouped.items())]
    taken = {c["name"] for c in found} & {*TOOLS, JOIN}
    if taken:
        raise TooManyForDiscord(f"{system} has verbs named as the tools: {sorted(taken)}")
    found += [_gm_only(c) if c["name"] in GM_TOOLS else c for c in tool_commands()]
    if len(found) > MAX_COMMANDS:
        raise TooManyForDiscord(f"{system} has {len(found)} commands (at most {MAX_COMMANDS})")
    return found


def _command(system: str, first: str, group: list[Verb]) -> dict[str, Any]:
    found = _spelled(system, first, group)
    return found if players_issue(system, (v.name for v in group)) else _gm_only(found)


def _gm_only(command: dict[str, Any]) -> dict[str, Any]:
    return {**command, "default_member_permissions": GM_ONLY}


def _spelled(system: str, first: str, group: list[Verb]) -> dict[str, Any]:
    if len(group) == 1 and " " not in group[0].name:
        (verb,) = group
        return _chat(first, verb.help, options_of(verb, system))
    if any(" " not in v.name for v in group) or len(group) > MAX_OPTIONS:
        raise TooManyForDiscord(f"/{first} is a verb and a group, or holds over 25 verbs")
    subcommands = [
        {
            "type": SUB_COMMAND,
            "name": _name(verb.name.split(" ", 1)[1]),
            "description": described(verb.help, verb.name),
            "options": options_of(verb, system),
        }
        for verb in sorted(group, key=lambda v: v.name)
    ]
    names = ", ".join(str(s["name"]) for s in subcommands)
    return _chat(first, f"{first}: {names}", subcommands)


def _chat(name: str, help: str, options: Iterable[dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": CHAT_INPUT,
        "name": _name(name),
        "description": described(help, name),
        "options": list(options),
    }


def _name(text: str) -> str:
    name = text.lower()
    if NAME.match(name) is None or len(name) > MAX_NAME:
        raise TooManyForDiscord(f"{text!r} cannot be a Discord name")
    return name
