"""The Code's dice procedures as pure functions (DIGEST §4.2): faces in, resolved values out."""

from __future__ import annotations

from attrs import frozen

from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.the_code.settings import TieRemoval
from domain.rulesets.the_code.tables import MOTIVATION_THRESHOLD, is_even


def roll(dice: DiceSource, count: int, sides: int) -> tuple[int, ...]:
    return tuple(dice.roll(sides) for _ in range(count))


@frozen
class MotivationResult(Plain):
    success: bool
    cost: int


def read_motivation(faces: tuple[int, ...]) -> MotivationResult:
    """Uncontested: success on any die of 5 or more; each die above 5 costs a point (TC-A2)."""
    success = any(f >= MOTIVATION_THRESHOLD for f in faces)
    return MotivationResult(success=success, cost=sum(1 for f in faces if f > MOTIVATION_THRESHOLD))


def bid_multiplier(own_step: int, other_step: int) -> int:
    """The lower step pays x2 for one step of difference up to x5 for four; otherwise x1."""
    return max(0, own_step - other_step) + 1


def bid_cost(dice: int, own_step: int, other_step: int) -> int:
    return dice * bid_multiplier(own_step, other_step)


@frozen
class Settled(Plain):
    """Two pools compared: the winning side (0, 1, or None for a stalemate), the dice removed
    from each side by ties, the winner's winning dice, and the tied values in order."""

    winner: int | None
    removed: tuple[tuple[int, ...], tuple[int, ...]]
    winning: tuple[int, ...]
    ties: tuple[int, ...]


def settle(a: tuple[int, ...], b: tuple[int, ...], removal: TieRemoval) -> Settled:
    """Highest die wins; a tie for highest removes those dice and compares the rest (TC-A4)."""
    pools = [sorted(a, reverse=True), sorted(b, reverse=True)]
    removed: list[list[int]] = [[], []]
    ties: list[int] = []
    while pools[0] and pools[1] and pools[0][0] == pools[1][0]:
        value = pools[0][0]
        ties.append(value)
        for side, pool in enumerate(pools):
            count = pool.count(value) if removal is TieRemoval.ALL else 1
            for _ in range(count):
                pool.remove(value)
                removed[side].append(value)
    removed_pair = (tuple(removed[0]), tuple(removed[1]))
    if not pools[0] and not pools[1]:
        return Settled(winner=None, removed=removed_pair, winning=(), ties=tuple(ties))
    winner = 0 if not pools[1] or (pools[0] and pools[0][0] > pools[1][0]) else 1
    loser_high = max(pools[1 - winner], default=0)
    winning = tuple(f for f in pools[winner] if f > loser_high)
    return Settled(winner=winner, removed=removed_pair, winning=winning, ties=tuple(ties))


def fails_unopposed(faces: tuple[int, ...]) -> bool:
    """Against someone with no Motivation score you fail only if your highest die is a 1."""
    return max(faces) == 1


def any_even(faces: tuple[int, ...]) -> bool:
    return any(is_even(f) for f in faces)


def popularity_delta(faces: tuple[int, ...], violent_or_secretive: bool) -> int:
    """Gaining Popularity: any even +1; none even -1 for a violent or secretive hero, else 0."""
    if any_even(faces):
        return 1
    return -1 if violent_or_secretive else 0
