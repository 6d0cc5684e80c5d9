"""The slash commands of a system's campaign, generated from the command registry
(``domain.registry.verbs``) inside Discord's limits, as the JSON its bulk overwrite takes
(``PUT /applications/{app}/commands`` or ``…/guilds/{guild}/commands``).

A verb of one word is a command (``/dice``); a verb of two is a subcommand of its first word
(``/member add``, ``/session start``): no system has more than 36 first words (Discord allows 100
chat commands a scope) nor 25 verbs under one. Each parameter is an option: text (3), whole number
(4) or true/false (5); a list is text written comma-separated; an optional parameter (with a
default, or ``| None``) is not required, and the required come first, as Discord asks. Every
verb's command also takes ``faces`` (dice rolled at the table, comma-separated) and ``hidden``
(the GM's hidden roll). Names are the verbs' and fields' own: lowercase, 1 to 32 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from domain.registry import Parameter, Verb, verbs

CHAT_INPUT = 1
SUB_COMMAND, STRING, INTEGER, BOOLEAN = 1, 3, 4, 5
MAX_COMMANDS, MAX_OPTIONS, MAX_CHOICES = 100, 25, 25
MAX_NAME, MAX_DESCRIPTION = 32, 100
NAME = re.compile(r"^[-_'\w]{1,32}$")  # Discord's: letters and digits of any script, - _ '
EXTRA = (
    {"type": STRING, "name": "faces", "description": "Dice rolled at the table, e.g. 3,5"},
    {"type": BOOLEAN, "name": "hidden", "description": "The GM's hidden roll"},
)


class TooManyForDiscord(Exception):
    """The registry holds what Discord's limits cannot (a check of this module, not a refusal)."""


def described(text: str, fallback: str) -> str:
    """A description of 1 to 100 characters: the first sentence of ``text`` (or ``fallback``)."""
    first = re.split(r"(?<=\.)\s", text.strip(), maxsplit=1)[0].rstrip(".") or fallback
    return first if len(first) <= MAX_DESCRIPTION else first[: MAX_DESCRIPTION - 1] + "…"


def option_of(parameter: Parameter) -> dict[str, Any]:
    """One parameter as an option (see the module docstring)."""
    written = parameter.type
    optional = not parameter.required or written.endswith("| None")
    base = written.removesuffix(" | None")
    kind = {"int": INTEGER, "bool": BOOLEAN}.get(base, STRING)
    what = {
        INTEGER: "a whole number",
        BOOLEAN: "true or false",
    }.get(kind, "comma-separated" if base.startswith("tuple") else "text")
    return {
        "type": kind,
        "name": _name(parameter.name),
        "description": f"{parameter.name.replace('_', ' ')} ({what})"[:MAX_DESCRIPTION],
        "required": not optional,
    }


def options_of(verb: Verb) -> list[dict[str, Any]]:
    own = [option_of(p) for p in verb.parameters]
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
    found = [_command(first, group) for first, group in sorted(grouped.items())]
    if len(found) > MAX_COMMANDS:
        raise TooManyForDiscord(f"{system} has {len(found)} commands (at most {MAX_COMMANDS})")
    return found


def _command(first: str, group: list[Verb]) -> dict[str, Any]:
    if len(group) == 1 and " " not in group[0].name:
        (verb,) = group
        return _chat(first, verb.help, options_of(verb))
    if any(" " not in v.name for v in group) or len(group) > MAX_OPTIONS:
        raise TooManyForDiscord(f"/{first} is a verb and a group, or holds over 25 verbs")
    subcommands = [
        {
            "type": SUB_COMMAND,
            "name": _name(verb.name.split(" ", 1)[1]),
            "description": described(verb.help, verb.name),
            "options": options_of(verb),
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
