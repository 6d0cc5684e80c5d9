"""The writes: one route per verb of the command registry (every system's, as the CLI has them),
``POST /api/campaigns/{campaign}/commands/<verb>`` (``member add`` is ``member/add``), and the
corrections: undo, amend and resolve. Each runs as the signed-in member (the table's policy)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from litestar import Request, post
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath, JSONBody

from domain.events import Outcome
from domain.lifecycle import EndSession
from domain.registry import Verb, verb_of, verbs
from domain.rulesets import SYSTEMS
from engine import DiceSpec, Engine, built, sealed_in
from web.auth import ON_ITS_THREAD, Done, seated
from web.dependencies import TheEngine
from web.engines import Engines
from web.errors import RESPONSES, InvalidRequest, UnknownVerb
from web.openapi_params import operation_for
from web.shapes import (
    AmendIn,
    CommandIn,
    ResolveIn,
    RulingOut,
    SealIn,
    SealOut,
    UndoIn,
    ruling_out,
)

BASE = "/api/campaigns/{campaign:str}"
Req = Request[Any, Any, Any]
# Every write signs in on the thread it runs on, with its command (``web.auth.seated``): where
# the process writes (``written``).
WRITE: dict[str, Any] = {"responses": RESPONSES, "opt": {ON_ITS_THREAD: True}}


# The verb that reads as much of a campaign's history as there is (``Engines.write``'s
# ``whole_history``, as every correction does): a session's end seals the session's log.
SESSION_END = verb_of(EndSession)


async def written(
    request: Req,
    engine: Engine,
    campaign: str,
    work: Callable[[str], Done],
    *,
    whole_history: bool = False,
) -> Done:
    """``work`` as the member the request signs in to ``campaign`` (``seated``), where the
    process writes (``Engines.write``: on a SQLite file the serving loop, or its writer thread
    when the store's lock is taken or the work reads the ``whole_history``)."""
    engines: Engines = request.app.state.engines
    return await engines.write(
        lambda: seated(request, engine, campaign, work), whole_history=whole_history
    )


def every_verb() -> dict[str, dict[str, Verb]]:
    """Each verb of any system -> the systems that have it, with their verb."""
    found: dict[str, dict[str, Verb]] = {}
    for system in sorted(SYSTEMS):
        for name, verb in verbs(system).items():
            found.setdefault(name, {})[system] = verb
    return found


def route_of(verb: str) -> str:
    """A verb's path under ``commands/``: its words, one segment each."""
    return verb.replace(" ", "/")


def build(verb: Verb, params: Mapping[str, Any], member: str) -> Any:
    """The verb's command from JSON values, each checked against its parameter's kind
    (``domain.kinds``). A ``by`` left out (who disputes, adds entropy, writes a post) is the
    signed-in member (``engine.built``, which a Discord interaction's check reads too)."""
    try:
        return built(verb, params, member)
    except (ValueError, TypeError, KeyError) as error:
        raise InvalidRequest(problem=f"`{verb.name}`: {error}") from None


def dice_spec(dice: list[int] | None, seed: int | None) -> DiceSpec:
    if dice is not None and seed is not None:
        raise InvalidRequest(
            problem="give either dice (faces rolled at the table) or seed, not both"
        )
    return DiceSpec(faces=tuple(dice) if dice is not None else None, seed=seed)


def _command(
    engine: Engine, campaign: str, name: str, params: Mapping[str, Any], member: str
) -> Any:
    system = engine.find_campaign(campaign).system
    verb = verbs(system).get(name)
    if verb is None:
        raise UnknownVerb(verb=name, where=system)
    return build(verb, params, member)


def run(engine: Engine, member: str, campaign: str, name: str, data: CommandIn) -> RulingOut:
    command = _command(engine, campaign, name, data.params, member)
    spec = dice_spec(data.dice, data.seed)
    result = engine.execute(
        campaign,
        command,
        actor=member,
        dice=spec,
        hidden=data.hidden,
        say=data.say,
        seal=data.seal,
        signed_in=True,  # the member signed in on this server
    )
    return ruling_out(result)


@post(f"{BASE}/seal-text", tags=["commands"], sync_to_thread=True, **WRITE)
def seal_text(
    request: Req, engine: TheEngine, campaign: FromPath[str], data: JSONBody[SealIn]
) -> SealOut:
    """The text to sign, on your own client, to seal a roll of yours (protocol 3): the
    session's commitment, you, which of your sealed rolls it is, the command and its arguments
    as the ruling will record them. Sign it with the key on your seat and send the signature as
    the command's ``seal``: its dice then come from the committed seed and your signature, so
    the GM's machine could not foresee them."""

    def work(you: str) -> SealOut:
        command = _command(engine, campaign, data.command, data.params, you)
        text = engine.seal_text(campaign, command, actor=you)
        return SealOut(text=text, sealed=sealed_in(text), member=you)

    return seated(request, engine, campaign, work)


def command_route(name: str, systems: Mapping[str, Verb]) -> HTTPRouteHandler:
    """The route of one verb, described from each system's command (help and parameters)."""

    async def handler(
        request: Req, engine: TheEngine, campaign: FromPath[str], data: JSONBody[CommandIn]
    ) -> RulingOut:
        return await written(
            request,
            engine,
            campaign,
            lambda you: run(engine, you, campaign, name, data),
            whole_history=name == SESSION_END,
        )

    lines = []
    for system, verb in systems.items():
        params = ", ".join(
            f"{p.name}: {p.type}{'' if p.required else ' = ' + repr(p.default)}"
            for p in verb.parameters
        )
        lines.append(f"- **{system}**: {verb.help} Parameters: {params or 'none'}.")
    return post(
        f"{BASE}/commands/{route_of(name)}",
        operation_id="command_" + name.replace(" ", "_").replace("-", "_"),
        summary=f"`{name}`",
        description="\n".join(lines),
        tags=["commands"],
        operation_class=operation_for(systems),
        **WRITE,
    )(handler)


async def corrected(
    request: Req,
    engine: Engine,
    campaign: str,
    correct: Callable[..., Any],
    *args: Any,
    **kwargs: Any,
) -> RulingOut:
    """``correct(campaign, *args, actor=you, **kwargs)`` (the engine's ``undo``, ``amend`` or
    ``resolve``) as the member the request signs in to ``campaign``, read as its ruling."""
    return await written(
        request,
        engine,
        campaign,
        lambda you: ruling_out(correct(campaign, *args, actor=you, **kwargs)),
        whole_history=True,  # a correction replays what followed the ruling it corrects
    )


@post(f"{BASE}/undo", tags=["corrections"], **WRITE)
async def undo(
    request: Req, engine: TheEngine, campaign: FromPath[str], data: JSONBody[UndoIn]
) -> RulingOut:
    """Undo a ruling (default: the latest in force); the GM's call."""
    return await corrected(
        request,
        engine,
        campaign,
        engine.undo,
        data.ruling,
        reason=data.reason,
        with_dependents=data.with_dependents,
        redecide=data.redecide,
    )


@post(f"{BASE}/amend", tags=["corrections"], **WRITE)
async def amend(
    request: Req, engine: TheEngine, campaign: FromPath[str], data: JSONBody[AmendIn]
) -> RulingOut:
    """Re-resolve a ruling with corrected parameters (text, as `campaign amend --set`) and
    the dice it recorded; the GM's call."""
    return await corrected(
        request,
        engine,
        campaign,
        engine.amend,
        data.ruling,
        data.changes,
        reason=data.reason,
        dice=dice_spec(data.dice, data.seed),
        with_dependents=data.with_dependents,
        redecide=data.redecide,
    )


@post(f"{BASE}/resolve", tags=["corrections"], **WRITE)
async def resolve(
    request: Req, engine: TheEngine, campaign: FromPath[str], data: JSONBody[ResolveIn]
) -> RulingOut:
    """Resolve an open dispute: upheld, undone or amended (with ``changes``); the GM's call."""
    return await corrected(
        request,
        engine,
        campaign,
        engine.resolve,
        data.dispute,
        Outcome(data.outcome),
        reason=data.reason,
        changes=data.changes,
        dice=dice_spec(data.dice, data.seed),
        with_dependents=data.with_dependents,
        redecide=data.redecide,
    )


def routes() -> list[HTTPRouteHandler]:
    return [
        *(command_route(n, s) for n, s in sorted(every_verb().items())),
        seal_text,
        undo,
        amend,
        resolve,
    ]
