"""Contested Challenges (two sides): aptitude, Motivation bids, ties and stalemates (R-TC-04)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar
from uuid import UUID

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.events import ContestResolved, ContestSide, MotivationSpent
from domain.rulesets.the_code.lookup import hero, parse_task, settings
from domain.rulesets.the_code.rolls import bid_multiplier, fails_unopposed, roll, settle
from domain.rulesets.the_code.tables import ContestBy, MotivationUse


@frozen
class _Entrant(Plain):
    name: str
    character_id: UUID | None
    step: int
    motivation: int | None
    dice: int
    multiplier: int

    @property
    def upfront(self) -> int:
        return self.dice * self.multiplier if self.multiplier > 1 else 0


def _entrant(
    name: str, cid: UUID | None, step: int, other: int, motivation: int | None, n: int
) -> _Entrant:
    if not 1 <= step <= 5:
        raise errors.StepOutOfRange(step=step)
    if n < 0:
        raise errors.DiceOutOfRange(name=name, dice=n, current=motivation or 0)
    if n and motivation is None:
        raise errors.NoMotivationScore(name=name)
    multiplier = bid_multiplier(step, other)
    if n and n * multiplier > (motivation or 0):
        raise errors.InsufficientMotivation(
            name=name, cost=n * multiplier, dice=n, multiplier=multiplier, current=motivation
        )
    return _Entrant(name, cid, step, motivation, n, multiplier)


@frozen(kw_only=True)
class SettleContest(Plain):
    """Two sides oppose each other. Each side's step on the Ability Sequence is the GM's call;
    ``dice`` is how many Motivation dice each rolls (the lower step pays x2..x5 up front).

    The opponent is another hero, or (``npc``) a non-player character: ``npc_motivation`` is
    its Motivation score, None when it has none."""

    name: ClassVar[str] = "contest"
    task: str
    hero: str
    step: int
    opponent: str
    opponent_step: int
    dice: int = 0
    opponent_dice: int = 0
    npc: bool = False
    npc_motivation: int | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        task = parse_task(self.task)
        a_hero = hero(view, self.hero)
        b_hero: TcHero | None = None if self.npc else hero(view, self.opponent)
        if b_hero is not None and b_hero.id == a_hero.id:
            raise errors.ContestWithSelf(name=a_hero.name)
        a = _entrant(
            a_hero.name, a_hero.id, self.step, self.opponent_step, a_hero.motivation, self.dice
        )
        if b_hero is None:
            b = _entrant(
                self.opponent.strip() or "the opponent",
                None,
                self.opponent_step,
                self.step,
                self.npc_motivation,
                self.opponent_dice,
            )
        else:
            b = _entrant(
                b_hero.name,
                b_hero.id,
                self.opponent_step,
                self.step,
                b_hero.motivation,
                self.opponent_dice,
            )
        entrants = (a, b)
        for one, other in ((a, b), (b, a)):
            if one.dice and one.step < other.step and not other.dice:
                raise errors.HigherAptitudeNeedNotRoll(name=one.name)
        sides_dice = tuple(roll(dice, e.dice, settings(view).die_sides) for e in entrants)
        resolved = _resolve(task, entrants, sides_dice, view)
        changes = [Change(a_hero.id, resolved)]
        for side, who in zip(resolved.sides, (a_hero, b_hero), strict=True):
            if who is not None and side.cost:
                use = MotivationUse.APTITUDE_BID if side.upfront else MotivationUse.CONTEST
                spent = MotivationSpent(
                    amount=side.cost,
                    use=use,
                    before=who.motivation,
                    after=who.motivation - side.cost,
                )
                changes.append(Change(who.id, spent))
        return changes


def _resolve(
    task: str, entrants: tuple[_Entrant, _Entrant], faces: tuple[tuple[int, ...], ...], view: View
) -> ContestResolved:
    a, b = entrants
    removed: tuple[tuple[int, ...], ...] = ((), ())
    winning: tuple[int, ...] = ()
    ties: tuple[int, ...] = ()
    winner: int | None
    if not a.dice and not b.dice:
        by = ContestBy.APTITUDE if a.step != b.step else ContestBy.STALEMATE
        winner = None if a.step == b.step else (0 if a.step < b.step else 1)
    elif not a.dice or not b.dice:
        by = ContestBy.UNOPPOSED_ROLL
        roller = 0 if a.dice else 1
        lost = fails_unopposed(faces[roller])
        winner = 1 - roller if lost else roller
        winning = () if lost else faces[roller]
    else:
        settled = settle(faces[0], faces[1], settings(view).tie_removal)
        winner, removed, winning, ties = (
            settled.winner,
            settled.removed,
            settled.winning,
            settled.ties,
        )
        by = ContestBy.MOTIVATION if winner is not None else ContestBy.STALEMATE
    sides = []
    for index, e in enumerate(entrants):
        mine = winning if index == winner else ()
        cost = e.upfront or len(removed[index]) + len(mine)
        sides.append(
            ContestSide(
                name=e.name,
                character_id=e.character_id,
                step=e.step,
                motivation=e.motivation,
                dice=faces[index],
                multiplier=e.multiplier,
                upfront=e.upfront,
                removed=removed[index],
                winning=mine,
                cost=cost,
            )
        )
    return ContestResolved(
        task=task,
        sides=tuple(sides),
        by=by,
        winner=None if winner is None else entrants[winner].name,
        ties=ties,
    )
