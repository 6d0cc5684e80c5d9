"""Undo: retract a ruling (and, when asked, the later ones depending on it).

A later ruling depends on an earlier one when, decided again on the history without it (the
rulings before it that changed as they now come out), it does not stand
(``engine.corrections.redecide``). The log of rulings is read in ``engine.store.log`` (its rulings
and headers are named here too) and the changes a correction records are built in
``engine.corrections.changes``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

from domain.campaign import CampaignState, evolve_campaign
from domain.errors import (
    CannotUndo,
    EmptyText,
    LaterRulingsDepend,
    NothingToUndo,
    RedecideOrWithDependents,
    RulingAlreadyRetracted,
    UnknownRuling,
)
from domain.events import AMEND, UNDO, Outcome, RulingMade
from domain.limits import check_parameters
from domain.policy import check_gm
from domain.rulesets import ruleset_named
from engine.corrections.changes import amendments_of, redecided_params, resolving, retractions_of
from engine.corrections.tail import Tail, reach, read_back
from engine.store.log import LoggedRuling as LoggedRuling
from engine.store.log import Retraction as Retraction
from engine.store.log import headers as headers
from engine.store.log import read_log as read_log
from engine.store.log import retractions, rulings_made
from engine.store.mapper import canonical_json
from engine.store.records import Recorded

if TYPE_CHECKING:
    from engine.store.streams import Streams
    from engine.write.assembly import RulingResult
    from engine.write.ledger import Ledger

NOT_UNDOABLE = {
    "init": "it created the campaign",
    UNDO: "undoing an undo is not supported",
    AMEND: "undo or amend the ruling it amended instead",
    "session end": (
        "it revealed the session's dice seed and sealed the session; correct the session's "
        "rulings instead"
    ),
    "entropy": "the players' entropy is part of the session's committed dice",
    "member key": "signed entropy is checked by it; put another key on the seat instead",
    # The table's record of a disagreement stands, as what the table was shown does:
    "dispute": "a dispute stays on the record; resolve it (upheld, undone or amended)",
    "resolve": "a resolution stays on the record; the player may dispute the ruling again",
    "reveal": "what the table was shown cannot be unseen",
}
SEALING = "session end"  # a later ruling that may not change under a correction either
ENTROPY = "entropy"  # nor may one while its session's commitment stands (``EntropyStands``)


def undo(
    ledger: Ledger,
    campaign_id: UUID,
    ruling: int | None,
    *,
    reason: str,
    actor: str | None,
    with_dependents: bool = False,
    redecide: bool = False,
    dispute: int | None = None,
) -> RulingResult:
    """Retract ``ruling`` (default: the latest one still in force) on every stream it touched.
    The later rulings are decided again without it (see ``engine.corrections.redecide``): those that
    do not stand (its dependants) refuse the undo, are undone with it (``with_dependents``) or are
    amended with their new decision (``redecide``)."""
    from engine.corrections.redecide import Redecider, listed

    why = reason.strip()
    if not why:
        raise EmptyText(what="the reason for undoing")
    check_parameters(UNDO, {"reason": why})
    if with_dependents and redecide:
        raise RedecideOrWithDependents()

    def attempt() -> RulingResult | None:
        nonlocal ruling  # a retry after a concurrent write undoes the same ruling
        loaded = ledger.streams.load(campaign_id, evolve_campaign)
        campaign: CampaignState = loaded.state
        who = actor or campaign.gm
        check_gm(campaign, who, UNDO)
        records = _read_to_target(ledger.streams, campaign, ruling)
        target = _target(rulings_made(records), campaign, ruling, records)
        ruling = target.number
        tail = Tail(ledger.streams, campaign_id, target.number, records)
        walker = Redecider(ledger, campaign, tail, ruleset_named(campaign.system))
        plan = walker.plan(tail.made, target, redecide=redecide, with_dependents=with_dependents)
        if plan.dependants and not (with_dependents or redecide):
            raise LaterRulingsDepend(ruling=target.number, dependents=listed(plan.dependants))
        changes = retractions_of(tail.made, {target.number} | plan.dropped, campaign_id, why)
        changes += amendments_of(tail.made, plan.changed, campaign_id, why)
        changes += resolving(campaign, dispute, target.number, Outcome.UNDONE, why)
        params = {
            "ruling": target.number,
            "with": sorted(plan.dropped),
            "reason": why,
            **redecided_params(plan.changed, campaign_id),
            **({"dispute": dispute} if dispute is not None else {}),
        }
        return ledger.record(
            loaded,
            changes,
            command=UNDO,
            params=canonical_json(params).decode(),
            actor=who,
        )

    return ledger.retried(campaign_id, attempt)


def _read_to_target(
    streams: Streams, campaign: CampaignState, ruling: int | None
) -> list[Recorded]:
    """The campaign stream's records from the ruling to undo on (``ruling``, or the latest one
    still in force), read backwards."""

    def far_enough(records: list[Recorded]) -> bool:
        if ruling is not None:
            return reach(records, ruling)
        latest = _latest_in_force(rulings_made(records), campaign)
        return latest is not None and reach(records, latest.number)

    return read_back(streams, campaign.id, far_enough)


def _latest_in_force(rulings: list[RulingMade], campaign: CampaignState) -> RulingMade | None:
    return next(
        (
            m
            for m in reversed(rulings)
            if m.number not in campaign.retracted and m.command not in NOT_UNDOABLE
        ),
        None,
    )


def _target(
    rulings: list[RulingMade], campaign: CampaignState, ruling: int | None, records: list[Recorded]
) -> RulingMade:
    if ruling is None:
        latest = _latest_in_force(rulings, campaign)
        if latest is None:
            raise NothingToUndo()
        return latest
    found = next((m for m in rulings if m.number == ruling), None)
    if found is None:
        raise UnknownRuling(ruling=ruling)
    if found.command in NOT_UNDOABLE:
        raise CannotUndo(ruling=ruling, command=found.command, why=NOT_UNDOABLE[found.command])
    if ruling in campaign.retracted:
        raise RulingAlreadyRetracted(ruling=ruling, by=retractions(records)[ruling].by)
    return found
