"""The slash commands that are not verbs of the registry: the GM's corrections (``/undo``,
``/amend``) and the reads a member asks for in the channel (``/recap``, ``/sheet``, ``/log``,
``/verify-dice``), each the one application API's, as the member may read it. A read is answered
to the member alone, but ``/recap`` (it is for the table): a recap longer than a message is its
first part, the others following through the interaction's webhook."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import frozen

from domain.audience import TABLE, Member
from domain.campaign import CampaignState
from domain.errors import DomainError, InvalidParameter, NotYetCreated
from domain.kinds import CHARACTER, Kind
from domain.kinds import RULING as RULING_KIND
from domain.limits import MAX_TEXT
from domain.links import LinkMember
from engine import Engine, NotSignedIn, entry_brief, log_entry, ruling_view
from projections.presentation import presentation_of
from projections.render_discord import recap_discord, split
from web.discord import answers
from web.discord.answers import Answer
from web.discord.tables import Seat

STRING, INTEGER, BOOLEAN = 3, 4, 5
Options = dict[str, Any]


class ChangesUnreadable(DomainError):
    template = "write the changes as key=value, several separated by ';' (got {changes!r})"


@frozen
class Asked:
    """Who asks, where, with which options; ``page`` the server's address (for links)."""

    engine: Engine
    seat: Seat
    options: Options
    page: str


def _option(name: str, kind: int, description: str, **more: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": description, **more}


RULING = _option(
    "ruling", INTEGER, "The ruling's number", min_value=1, autocomplete=True, required=True
)
REASON = _option("reason", STRING, "Why (it is recorded)", max_length=1000, required=True)
CORRECTION_FLAGS = (
    _option("with_dependents", BOOLEAN, "Undo the later rulings that depend on it too"),
    _option("redecide", BOOLEAN, "Decide the later rulings again instead"),
)


def undo(asked: Asked) -> Answer:
    o = asked.options
    result = asked.engine.undo(
        asked.seat.campaign.name,
        o["ruling"],
        reason=o["reason"],
        actor=asked.seat.member,
        with_dependents=o.get("with_dependents", False),
        redecide=o.get("redecide", False),
    )
    return Answer(answers.ruling(ruling_view(result)))


def changes_of(text: str) -> dict[str, str]:
    """``key=value; key=value`` as the changes of an amendment."""
    found: dict[str, str] = {}
    for part in text.split(";"):
        key, equals, value = part.partition("=")
        if not equals or not key.strip():
            raise ChangesUnreadable(changes=text[:200])
        found[key.strip()] = value.strip()
    return found


def amend(asked: Asked) -> Answer:
    o = asked.options
    result = asked.engine.amend(
        asked.seat.campaign.name,
        o["ruling"],
        changes_of(o["changes"]),
        reason=o["reason"],
        actor=asked.seat.member,
        with_dependents=o.get("with_dependents", False),
        redecide=o.get("redecide", False),
    )
    return Answer(answers.ruling(ruling_view(result)))


def recap(asked: Asked) -> Answer:
    seat = asked.seat
    # answered to the whole channel: read as the table, whoever asked (the GM's too)
    found = asked.engine.recap(seat.campaign.name, asked.options.get("session"), audience=TABLE)
    parts = [answers.said(part, private=False)["data"] for part in split(recap_discord(found))]
    if not parts:
        return Answer(answers.said("nothing to recap yet"))
    return Answer({"type": answers.MESSAGE, "data": parts[0]}, tuple(parts[1:]))


def sheet(asked: Asked) -> Answer:
    seat, who = asked.seat, asked.options["character"]
    state = asked.engine.character(seat.campaign.name, who, audience=Member(seat.member))
    if state is None:
        raise NotYetCreated(who=who, ruling=None)
    text = presentation_of(seat.campaign.system).sheet_text(state, seat.campaign)
    return Answer(answers.said(f"```\n{answers.cut(text, answers.CONTENT - 8)}\n```"))


def log(asked: Asked) -> Answer:
    seat = asked.seat
    count = asked.options.get("count", 10)
    last = seat.campaign.rulings
    numbers = range(max(1, last - count + 1), last + 1)
    logged = asked.engine.log(seat.campaign.name, rulings=numbers, audience=Member(seat.member))
    lines = [entry_brief(log_entry(entry, seat.campaign)) for entry in logged]
    return Answer(answers.said("\n".join(lines) or "nothing in the log yet"))


def verify_dice(asked: Asked) -> Answer:
    campaign = asked.seat.campaign.name
    text = (
        f"Check the dice yourself: open {asked.page}/campaigns/{campaign}/dice-check in your"
        " browser (it recomputes every committed roll there, not on the server), or run"
        " `campaign verify-dice --key YOUR-KEY` on an export the GM gives you."
    )
    return Answer(answers.said(text))


@frozen
class Tool:
    run: Callable[[Asked], Answer]
    description: str
    options: tuple[dict[str, Any], ...]


def join(engine: Engine, campaign: CampaignState, account: str, code: str) -> Answer:
    """``/join CODE``: the code's member plays as this account (the GM's ruling, by the code
    the GM gave), when the code is this channel's campaign's."""
    name, member = engine.joined(code.strip())
    if name != campaign.name:
        raise NotSignedIn(why="this code is another campaign's")
    linked = LinkMember(member=member, discord=account)
    result = engine.execute(name, linked, actor=campaign.gm)
    return Answer(answers.ruling(ruling_view(result)))


JOIN = "join"
JOIN_COMMAND = {
    "type": 1,
    "name": JOIN,
    "description": "Play here as the member whose code the GM gave you",
    "options": [
        _option("code", STRING, "The code (`campaign member invite NAME --discord`)", required=True)
    ],
}


TOOLS: dict[str, Tool] = {
    "undo": Tool(undo, "Undo a ruling (the GM's), saying why", (RULING, REASON, *CORRECTION_FLAGS)),
    "amend": Tool(
        amend,
        "Amend a ruling (the GM's): its parameters corrected, the same dice",
        (
            RULING,
            _option(
                "changes", STRING, "key=value; key=value", max_length=MAX_TEXT // 2, required=True
            ),
            REASON,
            *CORRECTION_FLAGS,
        ),
    ),
    "recap": Tool(
        recap,
        "The recap of a session (default: the latest), for the table",
        (_option("session", INTEGER, "Which session", min_value=1),),
    ),
    "sheet": Tool(
        sheet,
        "A character's sheet, as you may read it",
        (_option("character", STRING, "Whose", autocomplete=True, required=True),),
    ),
    "log": Tool(
        log,
        "The latest rulings, as you may read them",
        (_option("count", INTEGER, "How many (1-25)", min_value=1, max_value=25),),
    ),
    "verify-dice": Tool(verify_dice, "How to check the dice yourself", ()),
}


# The tools only the GM may use (the others are every member's).
GM_TOOLS = frozenset({"undo", "amend"})

# The kinds of the tools' options that autocomplete offers values for.
TOOL_KINDS: dict[str, Kind] = {"ruling": RULING_KIND, "character": CHARACTER}


def options_of(tool: Tool, given: list[dict[str, Any]]) -> Options:
    """The options given, each checked against its declared type."""
    declared = {o["name"]: o for o in tool.options}
    found: Options = {}
    for option in given:
        name, value = option.get("name"), option.get("value")
        spec = declared.get(str(name))
        if spec is None:
            raise InvalidParameter(key=name, value=value, expected="an option of this command")
        wanted = {STRING: str, INTEGER: int, BOOLEAN: bool}[spec["type"]]
        if not isinstance(value, wanted) or (wanted is int and isinstance(value, bool)):
            raise InvalidParameter(key=name, value=value, expected=wanted.__name__)
        found[str(name)] = value
    for name, spec in declared.items():
        if spec.get("required") and name not in found:
            raise InvalidParameter(key=name, value=None, expected="required")
    return found


def slash_commands() -> list[dict[str, Any]]:
    """The tools as chat commands (beside the verbs': ``web.discord.slash``)."""
    return [
        *(
            {
                "type": 1,
                "name": name,
                "description": tool.description,
                "options": list(tool.options),
            }
            for name, tool in TOOLS.items()
        ),
        JOIN_COMMAND,
    ]
