"""The Code's reading of the state for the table's actions (``domain.moves``): what only
heroes do is not offered for an NPC; a task the GM ruled needs Motivation waits for its roll
(and no other challenge meanwhile); the MO is followed and Exposure settled once a session; a
scene whose Ability steps are ruled waits for its contest."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import View
from domain.moves import Check, Moves
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.checks import (
    check_exposure_unsettled,
    check_mo_unfollowed,
    check_no_pending_task,
    check_pending_task,
    check_reward_points,
)
from domain.rulesets.the_code.lookup import check_hero
from domain.rulesets.the_code.tables import MOTIVATION_PURCHASE


def _hero(then: Check) -> Check:
    def check(view: View, c: TcHero) -> None:
        check_hero(c)
        then(view, c)

    return check


def expected(view: View, c: TcHero) -> Sequence[str]:
    """A Motivation roll owed; in a scene, the contest its ruled steps are for; between scenes
    of a session, the hero's Exposure roll not yet settled."""
    campaign = view.campaign
    if c.pending_task is not None:
        return ("motivation",)
    if campaign.scene is not None:
        return ("contest",) if c.steps else ()
    if campaign.session is not None and not c.npc:
        return () if c.flags_for(campaign.session).exposure_settled else ("exposure",)
    return ()


MOVES = Moves(
    checks={
        "motivation": _hero(lambda view, c: check_pending_task(c)),
        "challenge": _hero(lambda view, c: check_no_pending_task(c)),
        "mo": _hero(lambda view, c: check_mo_unfollowed(c, view.campaign.require_session())),
        "exposure": _hero(
            lambda view, c: check_exposure_unsettled(c, view.campaign.require_session())
        ),
        "buy-motivation": _hero(
            lambda view, c: check_reward_points(c, MOTIVATION_PURCHASE, "a Motivation die")
        ),
    },
    expected=expected,
)
