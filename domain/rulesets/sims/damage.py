"""Failure and Damage Ranks: taking them, distributing them, going out, and killing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar
from uuid import UUID

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import (
    check_alive,
    check_allocation_open,
    check_can_act,
    own_quality,
)
from domain.rulesets.sims.events import (
    CharacterKilled,
    CharacterOutOfScene,
    DamageRanksInflicted,
    QualityDownshifted,
    RanksDiscarded,
)
from domain.rulesets.sims.lookup import (
    character,
    check_table_clear,
    check_turn,
    settings,
    turn_number,
)
from domain.rulesets.sims.settings import Settings
from domain.rulesets.sims.tables import RankKind, SheetKind


def distribute(
    c: SimsCharacter, ranks: int, kind: RankKind, steps: Sequence[str], rules: Settings, turn: int
) -> list[Event]:
    """One step per rank, in the defender's order; the step that takes a quality below Poor puts
    the character out of the scene and the ranks left are discarded (PDQ-A4)."""
    current = {q.name: q.current for q in c.qualities}
    events: list[Event] = []
    for number, step in enumerate(steps, start=1):
        if number > ranks:
            raise errors.AllocationCountMismatch(name=c.name, ranks=ranks, steps=len(steps))
        name = own_quality(c, step).name
        if current[name] < 0:
            raise errors.StepsAfterOutOfScene(name=c.name, quality=name, step=number - 1)
        others = [v for other, v in current.items() if other != name]
        if current[name] == 0 and rules.force_bottom_out_last and any(v > 0 for v in others):
            raise errors.BottomOutLast(quality=name)
        before = current[name]
        current[name] = before - 1
        events.append(QualityDownshifted(quality=name, before=before, after=before - 1, kind=kind))
        if current[name] < 0:
            if number < len(steps):
                raise errors.StepsAfterOutOfScene(name=c.name, quality=name, step=number)
            events.append(CharacterOutOfScene(quality=name, turn=turn))
            if ranks > number:
                events.append(RanksDiscarded(count=ranks - number))
            return events
    if len(steps) != ranks:
        raise errors.AllocationCountMismatch(name=c.name, ranks=ranks, steps=len(steps))
    return events


def inflict(
    c: SimsCharacter,
    ranks: int,
    kind: RankKind,
    source: str,
    *,
    rules: Settings,
    turn: int,
    bonus: int = 0,
    killing: bool = False,
    by: tuple[UUID | None, str] = (None, ""),
) -> list[Event]:
    """Ranks dealt to ``c``: a secondary NPC's one track takes them at once (PDQ-A16); anyone
    else distributes them with `allocate`."""
    inflicted = DamageRanksInflicted(
        ranks=ranks, kind=kind, source=source, bonus_ranks=bonus, killing=killing
    )
    if c.kind is not SheetKind.SECONDARY:
        return [inflicted]
    track = c.qualities[0].name
    steps = [track] * min(ranks, c.qualities[0].current + 1)
    events: list[Event] = [inflicted, *distribute(c, ranks, kind, steps, rules, turn)]
    if killing and any(isinstance(e, CharacterOutOfScene) for e in events):
        events.append(CharacterKilled(by_id=by[0], by=by[1]))
    return events


@frozen(kw_only=True)
class AllocateRanks(Plain):
    """The defender distributes the Failure or Damage Ranks it took, one quality per rank, in
    order (a quality may repeat)."""

    name: ClassVar[str] = "allocate"
    character: str
    steps: tuple[str, ...]

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        check_alive(c, "distribute ranks")
        pending = check_allocation_open(c)
        events = distribute(
            c, pending.ranks, pending.kind, self.steps, settings(view), turn_number(view)
        )
        if pending.killing and any(isinstance(e, CharacterOutOfScene) for e in events):
            events.append(CharacterKilled(by_id=None, by=pending.source))
        return tuple(Change(c.id, e) for e in events)


@frozen(kw_only=True)
class Kill(Plain):
    """Out for Blood: on the attacker's next turn, a statement that it kills a helpless victim
    (one out of the scene)."""

    name: ClassVar[str] = "kill"
    attacker: str
    victim: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        check_table_clear(view)
        attacker = character(view, self.attacker)
        victim = character(view, self.victim)
        check_can_act(attacker)
        check_alive(victim, "be killed again")
        if not victim.out:
            raise errors.VictimNotOutOfScene(name=victim.name)
        if not any(q.current < 0 and q.lost_damage for q in victim.qualities):
            what = f"{victim.name} went out on Failure Ranks"
            raise errors.NotAPhysicalConflict(what=what)
        check_turn(view, attacker)
        went_out = victim.out_turn
        if attacker.in_conflict and went_out is not None and attacker.last_turn <= went_out:
            raise errors.KillNotOnNextTurn(name=victim.name)
        killed = CharacterKilled(by_id=attacker.id, by=attacker.name)
        return (Change(victim.id, killed),)
