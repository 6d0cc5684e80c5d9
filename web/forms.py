"""The forms of the table page, made from the command registry: one small form per verb the
reader may issue (``domain.policy``: a player's verbs for their own characters, the GM's every
verb), a field per parameter by its kind (``domain.kinds``: text, a whole number within its
bounds, a checkbox, a select for a choice or for the player's own characters, a character's
name picked from the roster, comma-separated lists), the dice field and the GM's "hidden"
only on verbs that roll. Each form is a plain HTML form (``method=post`` to the page's own
``/act``, answered by a redirect: the table works without JavaScript, ``read_form`` reads it);
``table.js`` posts it to the JSON API instead (``data-path``). Only the actions the rules
allow now are shown (``engine.application.actions``), the expected first; the GM's verbs come
grouped. The composer (``composer``) writes a post as one of the reader's characters, out of
character, as the GM's narration or an NPC, to the table or privately to a member."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from domain.campaign import CampaignState
from domain.kinds import Choice, Flag, Integer, Kind, ListOf, Reference, Refers, Text
from domain.limits import MAX_TEXT
from domain.policy import players_may_in
from domain.registry import Parameter, Verb, verbs
from domain.registry import acting as registry_acting
from engine import ActionsView
from web.render import Reader

# The GM's table controls, shown first; "resolve" (upholding) is the disputes panel's.
CONTROLS = ("session start", "session end", "scene start", "scene end")
NOT_A_FORM = frozenset({"resolve", "dispute", "post"})  # the rulings', the panel's, the composer
# The GM's verbs by what they are for (a system's own verbs are its rulings, listed first).
GROUPS = (
    ("rulings", "Rulings"),
    ("characters", "Characters and NPCs"),
    ("table", "Notes, dice and reveals"),
    ("session", "Session and scene"),
    ("members", "Members"),
)
_GROUP_OF = {
    "session": ("session ", "scene ", "entropy"),
    "members": ("member ", "discord "),
    "characters": ("character ", "npc"),
    "table": ("note", "dice", "reveal"),
}
ROSTER = (Refers.CHARACTER, Refers.NPC)  # references picked from the roster's names


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _base(kind: Kind) -> Kind:
    """A reference as what it is written as (a ruling's number, a name's text)."""
    return kind.base if isinstance(kind, Reference) else kind


def group_of(verb: str) -> str:
    """Which of ``GROUPS`` a GM's verb is listed under."""
    for group, starts in _GROUP_OF.items():
        if any(verb == s.strip() or verb.startswith(s) for s in starts):
            return group
    return "rulings"


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
    else:
        field.update(_by_kind(p))
    return field


def _by_kind(p: Parameter) -> dict[str, Any]:
    """What a parameter's kind adds to its field (``field_of``)."""
    kind, default = p.kind, p.default
    if isinstance(kind, Reference) and kind.refers in ROSTER:
        return {"list": "names", "maxlength": MAX_TEXT}
    if isinstance(bounds := _base(kind), Integer):
        return {"input": "number", "kind": "int", "min": bounds.minimum, "max": bounds.maximum}
    if isinstance(kind, Reference):
        return {"maxlength": MAX_TEXT}
    if isinstance(kind, Choice):
        return _choice_field(p, kind)
    if isinstance(kind, Flag):
        return {"input": "checkbox", "kind": "bool", "value": bool(default)}
    if isinstance(kind, ListOf):
        item = kind.item
        ints = isinstance(_base(item), Integer)
        names = isinstance(item, Reference) and item.refers in ROSTER
        return {
            "kind": "list-int" if ints else "list-str",
            "placeholder": "a, b, c",
            "list": "names" if names else "",
        }
    return {}


def _choice_field(p: Parameter, kind: Choice) -> dict[str, Any]:
    """A choice's field: a select of its values, or, where the rule reads other texts too, a
    text with the values to pick from."""
    default = p.default
    value = "" if default is None else str(getattr(default, "value", default))
    if kind.pattern is not None:  # other texts too: typed, the values offered
        return {"suggest": list(kind.values), "value": value, "maxlength": MAX_TEXT}
    choices = [(v, v) for v in kind.values]
    if p.nullable or not p.required:
        choices.insert(0, ("", "(default)" if default is not None else "(none)"))
    return {"input": "select", "choices": choices, "value": value}


def form_of(
    verb: Verb, reader: Reader, campaign: CampaignState, character: str | None = None
) -> dict[str, Any] | None:
    """The form of one verb for ``reader`` (None when the policy leaves it to the GM), its
    acting character's field set to ``character`` where one is chosen."""
    key = _slug(verb.name)
    acting = registry_acting(verb.command)
    may = None
    if not reader.gm:
        may = players_may_in(campaign).get(verb.name)
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
        field = field_of(key, p, own)
        if character and p.name in acting and not isinstance(p.kind, ListOf):
            field["value"] = character
        fields.append(field)
    dice = verb.rolls
    return {
        "key": key,
        "verb": verb.name,
        "help": verb.help,
        "path": "commands/" + verb.name.replace(" ", "/"),
        "fields": fields,
        "dice": dice,
        "hidden": reader.gm and dice,
        "group": group_of(verb.name),
        "expected": False,
    }


def forms_for(reader: Reader, campaign: CampaignState, actions: ActionsView) -> dict[str, Any]:
    """The reader's forms for the actions the rules allow them now (``engine.application.actions``:
    the policy's verbs the state does not refuse, for the character chosen): the GM's table
    ``controls``, every other ``verb``'s form (the expected first, then the verbs that roll,
    else in order), and the GM's verbs in their ``groups`` (name, label, forms; the rulings
    first)."""
    found = verbs(campaign.system)
    expected = {a.verb for a in actions.actions if a.expected}
    now = [a.verb for a in actions.actions if a.verb not in NOT_A_FORM]
    made = []
    for name in now:
        form = form_of(found[name], reader, campaign, actions.character)
        if form is not None:
            made.append({**form, "expected": name in expected})
    controls = [f for f in made if f["verb"] in CONTROLS] if reader.gm else []
    rest = [f for f in made if f["verb"] not in CONTROLS]
    shown = sorted(rest, key=lambda f: (not f["expected"], not f["dice"]))
    groups = [
        {
            "key": key,
            "label": label,
            "forms": sorted(
                [*(controls if key == "session" else ()), *(f for f in shown if f["group"] == key)],
                key=lambda f: not f["expected"],
            ),
        }
        for key, label in GROUPS
    ]
    return {
        "controls": controls,
        "verbs": shown,
        "groups": [
            {**g, "expected": any(f["expected"] for f in g["forms"])} for g in groups if g["forms"]
        ],
        "character": actions.character,
        "characters": actions.characters,
        "shown": [f["verb"] for f in made],
    }


def composer(reader: Reader, campaign: CampaignState) -> dict[str, Any] | None:
    """The post box's choices: who the post speaks as (``speakers``: value, label; the first
    the default) and who it may be written to privately (``members``); None for a reader with
    no seat."""
    if not reader.role:
        return None
    speakers: list[tuple[str, str]] = []
    if reader.gm:
        speakers.append(("narration", "the GM (narration)"))
        speakers += [(f"character:{e.name}", e.name) for e in campaign.roster]
        speakers.append(("npc", "an NPC (name it below)"))
    elif reader.role == "player":
        speakers += [(f"character:{name}", name) for name in reader.characters]
    speakers.append(("ooc", "out of character"))
    others = (
        []
        if reader.role == "observer"
        else [s.name for s in campaign.seats if s.name != reader.name]
    )
    return {"speakers": speakers, "members": others, "gm": reader.gm}


# --- Reading a form posted without JavaScript (as table.js reads it into JSON) ---------------


def _list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _number(text: str) -> Any:
    text = text.strip()
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def read_form(
    form: dict[str, Any], data: Mapping[str, str]
) -> tuple[dict[str, Any], list[int] | None, bool]:
    """A verb's form as posted (``data``: field name -> text) read by its fields' kinds, as
    ``table.js`` reads it: the parameters, the dice typed in (None: rolled here), hidden."""
    params: dict[str, Any] = {}
    for field in form["fields"]:
        name, kind = field["name"], field["kind"]
        value = data.get(name, "")
        if kind == "bool":
            if value:
                params[name] = True
        elif value == "":
            if field.get("null"):
                params[name] = None
        elif kind == "int":
            params[name] = _number(value)
        elif kind == "list-str":
            params[name] = _list(value)
        elif kind == "list-int":
            params[name] = [_number(v) for v in _list(value)]
        else:
            params[name] = value
    return params, read_dice(data.get("dice", "")), bool(data.get("hidden"))


def read_dice(text: str) -> list[int] | None:
    faces = [_number(v) for v in _list(text)]
    return faces or None


def read_speaker(data: Mapping[str, str]) -> dict[str, Any]:
    """The composer's post as ``post``'s parameters: its text, speaker and private readers."""
    params: dict[str, Any] = {"text": data.get("text", "")}
    speaker = data.get("speaker", "")
    if speaker.startswith("character:"):
        params["character"] = speaker.removeprefix("character:")
    elif speaker == "ooc":
        params["ooc"] = True
    elif speaker == "npc":
        params["npc"] = data.get("npc", "")
    if data.get("to"):
        params["to"] = [data["to"]]
    return params


def changes_of(text: str) -> dict[str, str]:
    """``KEY=VALUE`` lines (a correction's changes) as a mapping."""
    pairs = (line.partition("=") for line in text.splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, _, value in pairs}
