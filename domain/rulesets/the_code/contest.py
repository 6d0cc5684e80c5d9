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
from domain.rulesets.the_code.lookup import character, parse_task, settings
from domain.rulesets.the_code.rolls import bid_multiplier, fails_unopposed, roll, settle
from domain.rulesets.the_code.tables import STEPS, WEAKNESS_STEP, ContestBy, MotivationUse


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
            name=name,
            cost=n * multiplier,
            dice=n,
            multiplier=multiplier,
            current=motivation,
            why=f"{n} dice x{multiplier}",
            rule="Contested Challenges",
        )
    return _Entrant(name, cid, step, motivation, n, multiplier)


@frozen(kw_only=True)
class SettleContest(Plain):
    """Two sides oppose each other. Each side stands on the step of the Ability Sequence the GM
    ruled for the task (`campaign step`); 'step' and 'opponent_step' give it here instead
    (a step given must agree with one ruled). 'dice' is how many Motivation dice each rolls
    (the lower step pays x2..x5 up front). The better step wins unless someone rolls
    Motivation; tied dice are removed (pairwise, unless the campaign's house rule says all),
    and each winning die costs a point.

    The opponent is another character of the campaign: a hero, or an NPC brought in with
    `campaign npc`, whose Motivation is tracked and spent. With ``npc`` it is a passer-by the
    campaign does not track: ``npc_motivation`` is its Motivation score (None when it has none)
    and its step is given."""

    name: ClassVar[str] = "contest"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    task: str
    hero: str
    opponent: str
    step: int | None = None
    opponent_step: int | None = None
    dice: int = 0
    opponent_dice: int = 0
    npc: bool = False
    npc_motivation: int | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        task = parse_task(self.task)
        a_char = character(view, self.hero)
        b_char = None if self.npc else character(view, self.opponent)
        if b_char is not None and b_char.id == a_char.id:
            raise errors.ContestWithSelf(name=a_char.name)
        if b_char is None:
            _check_passer_by(view, self.opponent.strip())
        b_name = b_char.name if b_char is not None else self.opponent.strip() or "the opponent"
        a_step, b_step = _steps(
            task, (a_char.name, a_char, self.step), (b_name, b_char, self.opponent_step)
        )
        a = _entrant(a_char.name, a_char.id, a_step, b_step, a_char.motivation_score, self.dice)
        if b_char is None:
            b = _entrant(b_name, None, b_step, a_step, self.npc_motivation, self.opponent_dice)
        else:
            b = _entrant(
                b_char.name, b_char.id, b_step, a_step, b_char.motivation_score, self.opponent_dice
            )
        entrants = (a, b)
        for one, other in ((a, b), (b, a)):
            if one.dice and one.step < other.step and not other.dice:
                raise errors.HigherAptitudeNeedNotRoll(name=one.name)
        sides_dice = tuple(roll(dice, e.dice, settings(view).die_sides) for e in entrants)
        resolved = _resolve(task, entrants, sides_dice, view)
        changes = [Change(a_char.id, resolved)]
        for side, who in zip(resolved.sides, (a_char, b_char), strict=True):
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


def _check_passer_by(view: View, name: str) -> None:
    """An NPC of the campaign is named as such: its Motivation is tracked."""
    for entry in view.campaign.roster:
        if entry.name == name:
            known: TcHero = view.character(entry.character_id)
            if known.npc:
                raise errors.NpcOnRoster(name=name)


_Side = tuple[str, TcHero | None, int | None]  # name, the character (None: a passer-by), step given


def _steps(task: str, a: _Side, b: _Side) -> tuple[int, int]:
    """Each side's step: the one given (which must agree with a ruled one), else the one the GM
    ruled for the task (The Ability Sequence); a side with neither refuses the contest."""
    found: list[int] = []
    missing: list[str] = []
    for name, who, given in (a, b):
        ruled = who.step_for(task) if who is not None else None
        if given is not None:
            if not 1 <= given <= WEAKNESS_STEP:
                raise errors.StepOutOfRange(step=given)
            if ruled is not None and ruled.step != given:
                raise errors.StepRulingContradicted(
                    name=name,
                    task=ruled.task,
                    step=ruled.step,
                    meaning=STEPS[ruled.step],
                    given=f"step {given}",
                )
            found.append(given)
        elif ruled is not None:
            found.append(ruled.step)
        else:
            missing.append(name)
    if missing:
        raise errors.StepsNotRuled(names=" and ".join(missing), task=task)
    return found[0], found[1]


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
