"""What the API takes and gives, as attrs classes: Litestar reads them for the OpenAPI schema
(``/schema``) and encodes them. What a read or a command gives is the engine's result type of
that use (``engine.results.views``), the one `campaign --json` prints; here are what the API alone
takes and gives (the bodies of the writes, refusals, the campaign's page, its verbs, sign-in)."""

from __future__ import annotations

from typing import Any, Literal

from attrs import define, field, frozen

from engine import DisputeView, MemberView, RulingView, ruling_view


@frozen(kw_only=True)
class ErrorBody:
    """``code``: stable, names the rule or the fault; ``message``: one line saying why;
    ``data``: what the message was made from (plain JSON, never a secret)."""

    code: str
    message: str
    data: dict[str, Any]


@frozen(kw_only=True)
class ErrorOut:
    """Every refusal and fault: ``{"error": {"code": CODE, "message": one line, "data": {}}}``
    (what `campaign --json` gives on stderr, and Discord with its line)."""

    error: ErrorBody


@define(kw_only=True)
class CommandIn:
    """A verb's parameters by name (as `campaign --json log` shows them under ``params``), and
    how its dice come: ``dice`` (faces rolled at the table, in order), ``seed`` (reproducible
    digital dice) or neither (the session's committed dice); ``hidden``: the GM's hidden roll;
    ``say``: the ruling's narration (`--say`)."""

    params: dict[str, Any] = field(factory=dict)
    dice: list[int] | None = None
    seed: int | None = None
    hidden: bool = False
    say: str = ""
    seal: str = ""  # the member's signature of the text `seal-text` gives (protocol 3)


@define(kw_only=True)
class SealIn:
    """A roll to seal: the verb (its words, ``dice``, ``member key``) and its parameters, as the
    command's own route takes them."""

    command: str
    params: dict[str, Any] = field(factory=dict)


@frozen(kw_only=True)
class SealOut:
    """What the member signs, on their own client, to seal that roll as their next sealed roll
    of the running session (``sealed``), and then sends as ``seal`` with the command."""

    text: str
    sealed: int
    member: str


@define(kw_only=True)
class UndoIn:
    reason: str
    ruling: int | None = None
    with_dependents: bool = False
    redecide: bool = False


@define(kw_only=True)
class AmendIn:
    ruling: int
    changes: dict[str, str]
    reason: str
    dice: list[int] | None = None
    seed: int | None = None
    with_dependents: bool = False
    redecide: bool = False


@define(kw_only=True)
class ResolveIn:
    dispute: int
    outcome: Literal["upheld", "undone", "amended"]
    reason: str
    changes: dict[str, str] = field(factory=dict)
    dice: list[int] | None = None
    seed: int | None = None
    with_dependents: bool = False
    redecide: bool = False


# What a command recorded: the engine's result, as `--json` shows it (``web.commands`` names it).
RulingOut = RulingView
ruling_out = ruling_view


@frozen(kw_only=True)
class CampaignOut:
    """The campaign as its signed-in member sees it, and who they are."""

    name: str
    system: str
    gm: str
    you: str
    role: str
    session: int | None
    scene: int | None
    rulings: int
    members: list[MemberView]
    characters: list[str]
    disputes: list[DisputeView]


@frozen(kw_only=True)
class ParameterOut:
    name: str
    type: str
    required: bool
    default: Any = None


@frozen(kw_only=True)
class VerbOut:
    """A verb of the campaign's system: POST its parameters to ``commands/<verb, / for
    spaces>``."""

    verb: str
    path: str
    help: str
    parameters: list[ParameterOut]


@frozen(kw_only=True)
class SeatOut:
    """A campaign the credential signs in to: as which member, with which role."""

    campaign: str
    member: str
    role: str


@frozen(kw_only=True)
class MeOut:
    """Whom the credential signs in: ``campaign``, ``member`` and ``role`` of the newest
    sign-in, ``via`` a ``session`` (a browser) or a ``token`` (a bot); ``campaigns``, every
    campaign it signs in to (a browser may hold several, newest first; a token one)."""

    campaign: str
    member: str
    role: str
    via: str
    campaigns: list[SeatOut]
