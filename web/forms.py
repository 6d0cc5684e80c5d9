"""The forms of the table page, made from the command registry: one small form per verb the
reader may issue (``domain.policy``: a player's verbs for their own characters, the GM's every
verb), a field per parameter by its kind (``domain.kinds``: text, a whole number within its
bounds, a checkbox, a select for a choice or for the player's own characters, a character's
name picked from the roster, comma-separated lists), the dice typed in or left to
be rolled. ``table.js`` posts each one to the JSON API (``data-path``)."""

from __future__ import annotations

import re
from typing import Any

from domain.campaign import CampaignState
from domain.kinds import Choice, Flag, Integer, Kind, ListOf, Reference, Refers, Text
from domain.limits import MAX_TEXT
from domain.policy import players_may
from domain.registry import Parameter, Verb, verbs
from domain.registry import acting as registry_acting
from web.render import Reader

# The GM's table controls, shown first; "resolve" (upholding) is the disputes panel's.
CONTROLS = ("session start", "session end", "scene start", "scene end")
NOT_A_FORM = frozenset({"resolve", "dispute"})  # each ruling's own buttons and the panel
ROSTER = (Refers.CHARACTER, Refers.NPC)  # references picked from the roster's names


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _base(kind: Kind) -> Kind:
    """A reference as what it is written as (a ruling's number, a name's text)."""
    return kind.base if isinstance(kind, Reference) else kind


def field_of(form: str, p: Parameter, own: tuple[str, ...] | None) -> dict[str, Any]:
    """One parameter's field, by its kind (``domain.kinds``): ``kind`` says how ``table.js``
    reads it into JSON; a choice is a select (or, where the rule reads other texts too, a text
    with the values to pick from), a whole number a number input within its bounds, a
    reference to a character a text with the roster's names to pick from."""
    kind, default = p.kind, p.default
    field: dict[str, Any] = {
        "id": f"f-{form}-{_slug(p.name)}",
        "name": p.name,
        "label": p.name.replace("_", " "),
        "required": p.required and not p.nullable,
        "input": "text",
        "kind": "str",
        "value": "" if default is None or isinstance(default, tuple) else default,
        "choices": [],
        "list": "",
        "null": p.required and p.nullable,  # to be given, as null when left empty
    }
    if isinstance(kind, Text):
        field["maxlength"] = kind.max_length
    if own is not None:  # a player's acting character: one of theirs
        field.update(input="select", choices=[(n, n) for n in own])
    elif isinstance(kind, Reference) and kind.refers in ROSTER:
        field.update(list="names", maxlength=MAX_TEXT)
    elif isinstance(bounds := _base(kind), Integer):
        field.update(input="number", kind="int", min=bounds.minimum, max=bounds.maximum)
    elif isinstance(kind, Reference):
        field["maxlength"] = MAX_TEXT
    elif isinstance(kind, Choice):
        value = "" if default is None else str(getattr(default, "value", default))
        if kind.pattern is not None:  # other texts too: typed, the values offered
            field.update(suggest=list(kind.values), value=value, maxlength=MAX_TEXT)
        else:
            choices = [(v, v) for v in kind.values]
            if p.nullable or not p.required:
                choices.insert(0, ("", "(default)" if default is not None else "(none)"))
            field.update(input="select", choices=choices, value=value)
    elif isinstance(kind, Flag):
        field.update(input="checkbox", kind="bool", value=bool(default))
    elif isinstance(kind, ListOf):
        item = kind.item
        ints = isinstance(_base(item), Integer)
        names = isinstance(item, Reference) and item.refers in ROSTER
        field.update(
            kind="list-int" if ints else "list-str",
            placeholder="a, b, c",
            list="names" if names else "",
        )
    return field


def form_of(verb: Verb, reader: Reader, campaign: CampaignState) -> dict[str, Any] | None:
    """The form of one verb for ``reader`` (None when the policy leaves it to the GM)."""
    key = _slug(verb.name)
    acting = registry_acting(verb.command)
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
        own = reader.characters if may is not None and p.name in acting else None
        fields.append(field_of(key, p, own))
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
