"""Amending a ruling: re-resolve it with corrected GM parameters and the dice actually rolled.

The ruling is decided again against the state just before it (as corrected since), taking the
recorded dice in order; only a die the original never rolled is drawn anew, in a session of
committed dice from the commitment, in the lane of the ruling's roller
(``engine.corrections.redraws``). Each stream it (or
the new resolution) touches gets a ``RulingAmended`` carrying the replacement events, which
replay applies at the ruling's place. The later rulings are decided again, as for undo.

``say`` among the changes corrects the ruling's narration (``--say``), which is no parameter of
its command: the ruling is decided again as it stands, and the new narration is kept in the
amendment's header (``domain.said``), the old one in the ruling's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.utils import get_topic

from domain.campaign import CampaignState, evolve_campaign
from domain.dice import EnteredDice, RecordingDice
from domain.errors import (
    AmendmentConflicts,
    CannotAmend,
    EmptyText,
    RedecideOrWithDependents,
    UnknownParameter,
    UnknownRuling,
)
from domain.events import AMEND, Event, Outcome, RulingMade, Visibility
from domain.limits import check_command, check_parameters
from domain.own_words import check_may_amend, check_own_words
from domain.posts import POST, PostSaysItsText, check_edit_dice, check_edit_keeps_rolls
from domain.registry import parameters_of
from domain.rulesets import ruleset_named
from domain.said import SAY, said_text
from engine.corrections.changes import (
    amended,
    amendments_of,
    redecided_params,
    resolving,
    retractions_of,
    streams_of,
)
from engine.corrections.redecide import Redecider, listed
from engine.corrections.redraws import (
    ReplayedDice,
    amendment_source,
    header_dice,
    redraws_before,
)
from engine.corrections.tail import Tail, reach, read_back
from engine.corrections.undo import NOT_UNDOABLE
from engine.dice.sources import DiceSpec
from engine.store.log import rulings_made
from engine.store.mapper import canonical_json, converter
from engine.store.records import Recorded
from engine.store.topics import resolve

if TYPE_CHECKING:
    from engine.write.assembly import RulingResult
    from engine.write.ledger import Ledger


def corrected_command(made: RulingMade, changes: Mapping[str, str]) -> tuple[Any, dict[str, str]]:
    """The ruling's command with the GM's corrections applied (each read by its parameter's
    kind, ``domain.kinds``)."""
    params = json.loads(made.params)
    cls = resolve(params["topic"])
    parameters = {p.name: p for p in parameters_of(cls)}
    args = dict(params["args"])
    for key, text in changes.items():
        if key not in parameters:
            known = ", ".join(parameters)
            raise UnknownParameter(command=made.command, key=key, known=known)
        args[key] = parameters[key].parse(text)
    return converter.structure(args, cls), dict(changes)


def amend(
    ledger: Ledger,
    campaign_id: UUID,
    ruling: int,
    changes: Mapping[str, str],
    *,
    reason: str,
    actor: str | None = None,
    dice: DiceSpec | None = None,
    with_dependents: bool = False,
    redecide: bool = False,
    dispute: int | None = None,
) -> RulingResult:
    """Re-resolve ``ruling`` with ``changes`` to its parameters, keeping its recorded dice. The
    later rulings are decided again on the corrected history: those that do not stand are
    refused, undone with it (``with_dependents``) or amended too (``redecide``)."""
    why = reason.strip()
    if not why:
        raise EmptyText(what="the reason for amending")
    check_parameters(AMEND, [*changes.items(), ("reason", why)])  # as given, with the reason
    if with_dependents and redecide:
        raise RedecideOrWithDependents()
    narration = said_text(changes[SAY]) if SAY in changes else None
    if narration == "":
        raise EmptyText(what="the narration")
    corrections = {key: text for key, text in changes.items() if key != SAY}
    spec = dice or DiceSpec()

    def attempt() -> RulingResult | None:
        loaded = ledger.streams.load(campaign_id, evolve_campaign)
        campaign: CampaignState = loaded.state
        who = actor or campaign.gm
        # the GM's, or an author's edit of their words (never a resolution: the GM's)
        check_may_amend(campaign, who, changes, resolves=dispute is not None)
        records = read_back(ledger.streams, campaign_id, partial(reach, ruling=ruling))
        target = _target(rulings_made(records), campaign, ruling)
        roller = _author(records, target)
        check_own_words(
            campaign,
            who,
            changes,
            command=target.command,
            args=json.loads(target.params).get("args", {}),
            author=roller,
        )
        if narration is not None and target.command == POST:
            raise PostSaysItsText(ruling=target.number)
        tail = Tail(ledger.streams, campaign_id, target.number, records)
        made = tail.made
        command, changed = corrected_command(target, corrections)
        check_command(command)  # as corrected, held to the limits as any command is
        if target.command == POST:  # its rolls were seen: an edit keeps them as written
            text = json.loads(target.params)["args"]["text"]
            check_edit_keeps_rolls(who, target.number, text, command.text)
        walker = Redecider(ledger, campaign, tail, ruleset_named(campaign.system))
        fresh = amendment_source(ledger, spec, campaign, target, roller)  # the roller's lane
        replayed = ReplayedDice(recorded=target.dice, fresh=fresh)
        decided = command.decide(walker, RecordingDice(replayed))  # the state before it
        if isinstance(fresh, EnteredDice):
            fresh.check_all_used()
        check_edit_dice(campaign, who, target.number, replayed.new)  # a player's edit rolls none
        new_events: dict[UUID, list[Event]] = {}
        for change in decided:
            new_events.setdefault(change.stream, []).append(change.event)
        replacement = {stream: tuple(events) for stream, events in new_events.items()}
        plan = walker.plan(
            made, target, replacement, redecide=redecide, with_dependents=with_dependents
        )
        if plan.dependants and not (with_dependents or redecide):
            raise AmendmentConflicts(ruling=target.number, dependents=listed(plan.dependants))
        streams = streams_of(made).get(target.number, set())
        corrected = amended(target, streams, replacement, campaign_id, why)
        undone = retractions_of(made, set(plan.dropped), campaign_id, why)
        again = amendments_of(made, plan.changed, campaign_id, why)
        settles = resolving(campaign, dispute, target.number, Outcome.AMENDED, why)
        params = {
            "ruling": target.number,
            "command": {"topic": get_topic(type(command)), "args": converter.unstructure(command)},
            "changed": changed,
            "reason": why,
            "new_dice": replayed.new,
            "unused_dice": max(0, len(target.dice) - (len(replayed.used) - replayed.new)),
            **({"redraws": redraws_before(made, target.number) + 1} if replayed.new else {}),
            "with": sorted(plan.dropped),
            **redecided_params(plan.changed, campaign_id),
            **({"dispute": dispute} if dispute is not None else {}),
            **({SAY: narration} if narration is not None else {}),
        }
        return ledger.record(
            loaded,
            [*undone, *corrected, *again, *settles],
            command=AMEND,
            params=canonical_json(params).decode(),
            actor=who,
            dice=tuple(replayed.used),
            **header_dice(fresh, spec, replayed, target, roller),
            **read_as(target, campaign),
        )

    return ledger.retried(campaign_id, attempt)


def read_as(target: RulingMade, campaign: CampaignState) -> dict[str, Any]:
    """An amendment is read by whoever reads the ruling it corrects: hidden while that one is,
    private to the same audience (a private message's sender and recipient)."""
    if target.number in campaign.revealed:
        return {"visibility": Visibility.PUBLIC}
    return {"visibility": target.visibility, "audience": target.audience}


def _author(records: list[Recorded], target: RulingMade) -> str:
    """Who made the ruling ``target`` is the header of (the member its narration is of)."""
    return next(r.actor for r in records if r.event is target)


def _target(made: list[RulingMade], campaign: CampaignState, ruling: int) -> RulingMade:
    found = next((m for m in made if m.number == ruling), None)
    if found is None:
        raise UnknownRuling(ruling=ruling)
    if found.command in NOT_UNDOABLE:
        raise CannotAmend(ruling=ruling, command=found.command, why=NOT_UNDOABLE[found.command])
    if ruling in campaign.retracted:
        raise CannotAmend(ruling=ruling, command=found.command, why="it was undone")
    return found
