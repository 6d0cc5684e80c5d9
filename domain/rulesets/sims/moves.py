"""The Sims RPG's reading of the state for the table's actions (``domain.moves``): ranks to
distribute and tied attacks come before anyone acts; in a conflict, only the character whose
turn it is attacks, and the GM then moves the turn on; recovered ranks wait to be placed."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import View
from domain.moves import Moves
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import check_alive, check_allocation_open, check_can_act
from domain.rulesets.sims.conflict import check_tied
from domain.rulesets.sims.lookup import check_table_clear, check_turn
from domain.rulesets.sims.recovery import check_may_recover, check_recovery_pending
from domain.rulesets.sims.turns import check_turn_order


def _acts(view: View, c: SimsCharacter) -> None:
    """What ``roll`` and ``strategy`` check first: a scene, nothing owed, the actor able."""
    view.campaign.require_scene()
    check_table_clear(view)
    check_can_act(c)


def _attacks(view: View, c: SimsCharacter) -> None:
    _acts(view, c)
    check_turn(view, c)


def _allocates(view: View, c: SimsCharacter) -> None:
    view.campaign.require_scene()
    check_alive(c, "distribute ranks")
    check_allocation_open(c)


def _rerolls(view: View, c: SimsCharacter) -> None:
    view.campaign.require_scene()
    check_tied(c)


def expected(view: View, c: SimsCharacter) -> Sequence[str]:
    """What is owed first (ranks to distribute, a tie to roll again, recovered ranks to
    place); in a conflict, the attack of the one whose turn it is, then the next turn; in a
    scene out of one, a roll."""
    if c.pending is not None:
        return ("allocate",)
    if c.ties:
        return ("reroll",)
    if c.recovery_pending:
        return ("restore",)
    if view.campaign.scene is None:
        return ()
    if c.in_conflict:
        return ("attack", "strategy", "next") if c.turn else ()
    return ("roll",)


MOVES = Moves(
    checks={
        "roll": _acts,
        "strategy": _acts,
        "attack": _attacks,
        "allocate": _allocates,
        "reroll": _rerolls,
        "recover": lambda view, c: check_may_recover(c),
        "restore": lambda view, c: check_recovery_pending(c),
    },
    table={"next": check_turn_order},
    expected=expected,
)
