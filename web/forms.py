"""The forms of the table page, made from the command registry: one small form per verb the
reader may issue (``domain.policy``: a player's verbs for their own characters, the GM's every
verb), a field per parameter by its type (text, a whole number, a checkbox, a select for an
enum or for the player's own characters, comma-separated lists), the dice typed in or left to
be rolled. ``table.js`` posts each one to the JSON API (``data-path``)."""

from __future__ import annotations

import enum
import re
import types
from typing import Any, Union, get_args, get_origin, get_type_hints

from domain.campaign import CampaignState
from domain.policy import players_may
from domain.registry import Verb, verbs
from web.render import Reader

# The GM's table controls, shown first; "resolve" (upholding) is the disputes panel's.
CONTROLS = ("session start", "session end", "scene start", "scene end")
NOT_A_FORM = frozenset({"resolve", "dispute"})  # each ruling's own buttons and the panel
# Fields that name characters: a list of the roster's names to pick from.
NAMES = frozenset(
    {
        "character",
        "hero",
        "helper",
        "attacker",
        "healer",
        "patient",
        "target",
        "targets",
        "opponent",
        "victim",
        "helpers",
        "combatants",
        "characters",
        "provider",
    }
)


def _options(tp: Any) -> tuple[Any, ...]:
    return get_args(tp) if get_origin(tp) in (Union, types.UnionType) else (tp,)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def field_of(
    form: str, name: str, tp: Any, required: bool, default: Any, own: tuple[str, ...] | None
) -> dict[str, Any]:
    """One parameter's field: ``kind`` says how ``table.js`` reads it into JSON."""
    options = [o for o in _options(tp) if o is not type(None)]
    optional = len(options) < len(_options(tp))
    kind_of = options[0] if options else str
    field: dict[str, Any] = {
        "id": f"f-{form}-{_slug(name)}",
        "name": name,
        "label": name.replace("_", " "),
        "required": required and not optional,
        "input": "text",
        "kind": "str",
        "value": "" if default is None or isinstance(default, tuple) else default,
        "choices": [],
        "list": "names" if name in NAMES else "",
        "null": required and optional,  # to be given, as null when left empty
    }
    if own is not None:  # a player's acting character: one of theirs
        field.update(input="select", choices=[(n, n) for n in own], list="")
    elif isinstance(kind_of, type) and issubclass(kind_of, enum.Enum):
        choices = [(str(m.value), str(m.value)) for m in kind_of]
        if optional or not required:
            choices.insert(0, ("", "(default)" if default is not None else "(none)"))
        value = "" if default is None else str(getattr(default, "value", default))
        field.update(input="select", choices=choices, value=value)
    elif kind_of is bool:
        field.update(input="checkbox", kind="bool", value=bool(default))
    elif kind_of is int:
        field.update(input="number", kind="int")
    elif get_origin(kind_of) is tuple:
        item = get_args(kind_of)[0]
        field.update(kind="list-int" if item is int else "list-str", placeholder="a, b, c")
    return field


def form_of(verb: Verb, reader: Reader, campaign: CampaignState) -> dict[str, Any] | None:
    """The form of one verb for ``reader`` (None when the policy leaves it to the GM)."""
    key = _slug(verb.name)
    hints = get_type_hints(verb.command)
    may = None
    if not reader.gm:
        may = players_may(campaign.system).get(verb.command.name)
        if may is None or reader.role != "player":
            return None
    fields = []
    for p in verb.parameters:
        if may is not None and p.name in may.gm_calls:
            continue  # the GM's call: left at its default
        if p.name == "by" or (may is not None and p.name == may.as_player):
            fields.append(
                {
                    "id": f"f-{key}-{p.name}",
                    "name": p.name,
                    "input": "hidden",
                    "kind": "str",
                    "value": reader.name,
                    "choices": [],
                    "list": "",
                }
            )
            continue
        own = reader.characters if may is not None and p.name in may.acting else None
        fields.append(field_of(key, p.name, hints[p.name], p.required, p.default, own))
    return {
        "key": key,
        "verb": verb.name,
        "help": verb.help,
        "path": "commands/" + verb.name.replace(" ", "/"),
        "fields": fields,
        "hidden": reader.gm,
    }


def forms_for(reader: Reader, campaign: CampaignState) -> dict[str, list[dict[str, Any]]]:
    """The reader's forms: the GM's table ``controls`` and every other ``verb``'s form."""
    found = verbs(campaign.system)
    controls = [form_of(found[name], reader, campaign) for name in CONTROLS] if reader.gm else []
    rest = [
        form_of(verb, reader, campaign)
        for name, verb in found.items()
        if name not in CONTROLS and name not in NOT_A_FORM
    ]
    return {
        "controls": [f for f in controls if f is not None],
        "verbs": [f for f in rest if f is not None],
    }
