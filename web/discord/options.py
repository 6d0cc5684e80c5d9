"""The options of a slash command as sent, read against the command as registered
(``web.discord.slash``): the words it spells (its subcommand, if any) and each option's value by
name. Discord sends only what the registration declares, each value of its option's type; any
other shape (options that are not a list, an option of no declared name, a value of another
JSON type, null or missing, a subcommand where none is declared or none where one is) is
refused ``MALFORMED_INTERACTION`` with what was wrong, never read on. While a member types
(autocomplete) the option being typed comes as text whatever its type, and the others as far
as they are filled: only their names and shapes are checked then."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import frozen

from domain.errors import DomainError

SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, NUMBER = 1, 2, 3, 4, 5, 10
SUBCOMMANDS = (SUB_COMMAND, SUB_COMMAND_GROUP)
TYPES: Mapping[int, tuple[type, ...]] = {
    STRING: (str,),
    INTEGER: (int,),
    BOOLEAN: (bool,),
    NUMBER: (int, float),
}
NAMES = {STRING: "text", INTEGER: "a whole number", BOOLEAN: "true or false", NUMBER: "a number"}


class MalformedInteraction(DomainError):
    template = "the interaction is not one Discord sends: {problem}"


@frozen
class Given:
    """What a command was sent: its words, each option's value by name, and the options as
    sent (autocomplete reads which one is focused)."""

    words: tuple[str, ...]
    values: dict[str, Any]
    sent: tuple[dict[str, Any], ...]


def given(command: Mapping[str, Any], data: Mapping[str, Any], *, typing: bool = False) -> Given:
    """``data``'s options read against the registered ``command`` (see the module docstring);
    ``typing``: an autocomplete's, whose values are not checked."""
    words = [str(command["name"])]
    declared = list(command.get("options", []))
    sent = _listed(data.get("options"), "/" + words[0])
    while any(o["type"] in SUBCOMMANDS for o in declared):
        where = "/" + " ".join(words)
        if len(sent) != 1 or sent[0].get("type") not in SUBCOMMANDS:
            raise MalformedInteraction(problem=f"{where} is sent without one of its subcommands")
        (chosen,) = sent
        spec = next((o for o in declared if o["name"] == chosen.get("name")), None)
        if spec is None or spec["type"] != chosen.get("type"):
            asked = str(chosen.get("name"))[:40]
            raise MalformedInteraction(problem=f"{where} has no subcommand {asked!r}")
        words.append(spec["name"])
        declared = list(spec.get("options", []))
        sent = _listed(chosen.get("options"), "/" + " ".join(words))
    where = "/" + " ".join(words)
    types = {o["name"]: o["type"] for o in declared}
    values: dict[str, Any] = {}
    for option in sent:
        name = option.get("name")
        if not isinstance(name, str) or name not in types:
            shown = str(name)[:40]
            raise MalformedInteraction(problem=f"{where} has no option {shown!r}")
        if name in values:
            raise MalformedInteraction(problem=f"{where}: option {name!r} is sent twice")
        if option.get("type") != types[name]:
            raise MalformedInteraction(problem=f"{where}: option {name!r} of another type")
        if "value" not in option:
            raise MalformedInteraction(problem=f"{where}: option {name!r} without a value")
        value = option["value"]
        if not typing and not _of_type(value, types[name]):
            wanted = NAMES.get(types[name], "a value")
            raise MalformedInteraction(problem=f"{where}: option {name!r} is not {wanted}")
        values[name] = value
    return Given(tuple(words), values, tuple(sent))


def _listed(options: Any, where: str) -> list[dict[str, Any]]:
    """Options as sent: absent (none), or a list of objects."""
    if options is None:
        return []
    if not isinstance(options, list) or not all(isinstance(o, dict) for o in options):
        raise MalformedInteraction(problem=f"{where}: its options are not a list of options")
    return options


def _of_type(value: Any, kind: int) -> bool:
    allowed = TYPES.get(kind, ())
    return isinstance(value, allowed) and (bool in allowed or not isinstance(value, bool))
