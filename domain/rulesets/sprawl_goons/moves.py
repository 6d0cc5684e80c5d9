"""Sprawl Goons' reading of the state for the table's actions (``domain.moves``): a goon's
rolls and fighting need a scene and a living player character, its kit a living one; a level
earned waits to be taken, and while a fight is on, the attack comes first and the round waits
for the referee."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import View
from domain.errors import DomainError
from domain.moves import Moves
from domain.rulesets.sprawl_goons.advancement import check_level_due
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.checks import check_alive, check_can_act
from domain.rulesets.sprawl_goons.hazards import in_combat


def _acts(view: View, c: SgCharacter) -> None:
    view.campaign.require_scene()
    check_can_act(c)


def _alive(view: View, c: SgCharacter) -> None:
    check_alive(c)


def _fight_on(view: View) -> bool:
    try:
        in_combat(view)
    except DomainError:
        return False
    return True


def expected(view: View, c: SgCharacter) -> Sequence[str]:
    """A level earned first; in a fight, the attack (then aiming) and the
    round's end; in a scene out of a fight, an Action Roll."""
    due = ("level-up",) if c.levels_due else ()
    if view.campaign.scene is None:
        return due
    if _fight_on(view):
        return (*due, "attack", "aim", "round")
    return (*due, "roll")


MOVES = Moves(
    checks={
        "roll": _acts,
        "attack": _acts,
        "grenade": _acts,
        "aim": _acts,
        "hack": _acts,
        "first-aid": _acts,
        "level-up": lambda view, c: check_level_due(c),
        "patch": _alive,
        "reload": _alive,
        "use-item": _alive,
        "item drop": _alive,
    },
    table={"round": in_combat, "initiative": lambda view: view.campaign.require_scene()},
    expected=expected,
)
