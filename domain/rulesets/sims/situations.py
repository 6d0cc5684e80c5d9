"""Task resolution outside conflicts: simple situations (no roll) and complicated ones (2d6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import check_alive, check_can_act
from domain.rulesets.sims.damage import inflict
from domain.rulesets.sims.events import (
    ComplicatedSituationRolled,
    QualityUsed,
    Shift,
    SimpleSituationResolved,
    SituationEscalated,
)
from domain.rulesets.sims.lookup import (
    character,
    check_table_clear,
    parse_rank,
    settings,
    split_ref,
    turn_number,
)
from domain.rulesets.sims.resolution import roll, use
from domain.rulesets.sims.tables import RankKind, ShiftSource, Strategy, target_number


def uses_of(
    view: View, c: SimsCharacter, qualities: Sequence[str], helpers: Sequence[str]
) -> tuple[QualityUsed, ...]:
    """The actor's qualities (none named: the default Average) and each helper's, combined
    (Using Multiple Qualities; team-ups use the helpers' current ranks, PDQ-A17)."""
    own = tuple(use(c, q) for q in qualities) or (use(c, None),)
    names = {u.quality for u in own}
    if len(names) != len(own):
        raise errors.DuplicateQualityName(quality=", ".join(qualities))
    joined: list[QualityUsed] = []
    for ref in helpers:
        who, quality = split_ref(ref)
        helper = character(view, who)
        check_alive(helper, "join forces")
        if helper.out:
            raise errors.ContributorOutOfScene(name=helper.name)
        joined.append(use(helper, quality))
    return (*own, *joined)


def gm_shifts(badass: bool, penalties: Sequence[str]) -> list[Shift]:
    shifts = [Shift(source=ShiftSource.BADASS, steps=1)] if badass else []
    shifts += [Shift(source=ShiftSource.GM_PENALTY, steps=-1, note=why) for why in penalties]
    return shifts


def strategy_shifts(c: SimsCharacter) -> list[Shift]:
    """A strategy downshifts the character's non-conflict actions until its next turn."""
    if c.strategy is Strategy.FULL_ATTACK:
        return [Shift(source=ShiftSource.FULL_ATTACK_PENALTY, steps=-1)]
    if c.strategy is Strategy.FULL_DEFENSE:
        return [Shift(source=ShiftSource.FULL_DEFENSE_PENALTY, steps=-1)]
    return []


@frozen(kw_only=True)
class JudgeSimple(Plain):
    """Simple situation: the quality's rank against the task's difficulty rank, no dice. A rank
    higher than the difficulty succeeds; otherwise the situation becomes complicated (a roll). A
    quality of 'none' is the default Average."""

    name: ClassVar[str] = "simple"
    character: str
    quality: str | None
    difficulty: str
    task: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        check_table_clear(view)
        c = character(view, self.character)
        check_can_act(c)
        used = use(c, self.quality)
        difficulty = parse_rank(self.difficulty)
        task = self.task.strip()
        if used.current > difficulty.level:
            resolved = SimpleSituationResolved(
                task=task,
                quality=used.quality,
                rank=used.current,
                difficulty=difficulty,
                scene=view.campaign.scene,
            )
            return (Change(c.id, resolved),)
        escalated = SituationEscalated(
            task=task, quality=used.quality, rank=used.current, difficulty=difficulty
        )
        return (Change(c.id, escalated),)


@frozen(kw_only=True)
class RollComplicated(Plain):
    """Complicated situation: 2d6 + modifier, matching or beating the difficulty's target
    number (TN 5..13). No qualities named is the default Average; several combine their
    modifiers. A hazardous task that fails deals TN - total Damage Ranks (Environmental
    damage)."""

    name: ClassVar[str] = "roll"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    qualities: tuple[str, ...]
    difficulty: str
    task: str = ""
    hazardous: bool = False
    badass: bool = False
    penalties: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        check_table_clear(view)
        c = character(view, self.character)
        check_can_act(c)
        task = self.task.strip()
        if task and c.simple_scene == view.campaign.scene and task in c.simple:
            raise errors.SimpleSituationNoRollNeeded(name=c.name, task=task)
        difficulty = parse_rank(self.difficulty)
        uses = uses_of(view, c, self.qualities, self.helpers)
        shifts = (*strategy_shifts(c), *gm_shifts(self.badass, self.penalties))
        rolled = roll(dice, uses, shifts)
        tn = target_number(difficulty.level)
        success = rolled.total is not None and rolled.total >= tn
        events: list[Event] = [
            ComplicatedSituationRolled(
                task=task,
                roll=rolled,
                difficulty=difficulty,
                tn=tn,
                success=success,
                hazardous=self.hazardous,
            )
        ]
        if self.hazardous and not success:
            # An auto-fail has no dice: the shortfall is read from the lowest total possible.
            total = rolled.total if rolled.total is not None else 2 + rolled.modifier
            source = f"environment ({task or 'hazard'})"
            rules = settings(view)
            events += inflict(
                c, tn - total, RankKind.DAMAGE, source, rules=rules, turn=turn_number(view)
            )
        return tuple(Change(c.id, e) for e in events)
