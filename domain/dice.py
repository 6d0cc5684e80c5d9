"""Dice: the source protocol the engine injects, and the dice arithmetic of the rule texts.

Sources live here only when they are pure (faces entered by hand). Sources that draw randomness
live in ``engine.dice.sources``; the domain never rolls on its own.
"""

from __future__ import annotations

import enum
import re
from typing import Protocol

from attrs import field, frozen

from domain.errors import InvalidDieFace, NotEnoughDice, TooManyDice, UnreadableDice
from domain.plain import Plain


class DiceSource(Protocol):
    """Gives one face of a die with ``sides`` sides each time it is asked."""

    def roll(self, sides: int) -> int: ...


class Provenance(enum.StrEnum):
    """Where the faces of a ruling came from."""

    SEEDED = "digital-seeded"
    SYSTEM = "digital-os"
    COMMITTED = "digital-committed"  # drawn from the session's committed seed: verifiable
    PHYSICAL = "physical"


@frozen
class Die(Plain):
    """One die that came up: its size and face."""

    sides: int
    face: int


def check_face(sides: int, face: int) -> int:
    if not 1 <= face <= sides:
        raise InvalidDieFace(sides=sides, face=face)
    return face


@frozen
class EnteredDice(Plain):
    """Faces rolled at the table and typed in, handed out in the order they were rolled."""

    faces: tuple[int, ...]
    _next: list[int] = field(factory=lambda: [0], init=False, eq=False, repr=False)

    def roll(self, sides: int) -> int:
        position = self._next[0]
        if position >= len(self.faces):
            raise NotEnoughDice(given=len(self.faces))
        self._next[0] = position + 1
        return check_face(sides, self.faces[position])

    def check_all_used(self) -> None:
        if self._next[0] != len(self.faces):
            raise TooManyDice(given=len(self.faces), used=self._next[0])


@frozen
class RecordingDice(Plain):
    """Wraps a source and remembers every die it gave, in order."""

    source: DiceSource
    rolled: list[Die] = field(factory=list, eq=False)

    def roll(self, sides: int) -> int:
        face = check_face(sides, self.source.roll(sides))
        self.rolled.append(Die(sides=sides, face=face))
        return face


# --- d66 -------------------------------------------------------------------------------------


def d66(dice: DiceSource) -> int:
    """Roll a d6 twice: the first is the tens digit, the second the ones (11..66)."""
    tens = dice.roll(6)
    return 10 * tens + dice.roll(6)


def is_d66(value: int) -> bool:
    return 11 <= value <= 66 and 1 <= value // 10 <= 6 and 1 <= value % 10 <= 6


def flip(value: int) -> int:
    """Swap the digits of a d66 result without rolling: 35 -> 53; doubles stay as they are."""
    return 10 * (value % 10) + value // 10


def d66_ordinal(value: int) -> int:
    """Position of a d66 result in d66 order, 0 for 11 up to 35 for 66."""
    return 6 * (value // 10 - 1) + (value % 10 - 1)


# --- Pools -----------------------------------------------------------------------------------


class PoolMode(enum.StrEnum):
    HIGHEST = "highest"
    LOWEST_OF_TWO = "lowest-of-two"
    NO_ROLL = "no-roll"


@frozen
class PoolRoll(Plain):
    """A d6 pool as rolled: how many dice were asked for, how it was read, the faces and result."""

    size: int
    mode: PoolMode
    faces: tuple[int, ...]
    result: int | None


def roll_pool(dice: DiceSource, size: int) -> PoolRoll:
    """Roll ``size`` d6, keep the highest; a pool of zero or less rolls two and keeps the lowest."""
    faces: tuple[int, ...]
    if size <= 0:
        faces = (dice.roll(6), dice.roll(6))
        return PoolRoll(size=size, mode=PoolMode.LOWEST_OF_TWO, faces=faces, result=min(faces))
    faces = tuple(dice.roll(6) for _ in range(size))
    return PoolRoll(size=size, mode=PoolMode.HIGHEST, faces=faces, result=max(faces))


_FACE = re.compile(r"[+-]?[0-9]+")  # ASCII digits: int() alone would read '٣', '３' or '1_0'


def parse_faces(text: str) -> tuple[int, ...]:
    """Read faces typed as ``3,5`` or ``3 5``; every item must be a whole number written in
    ASCII digits (a sign is read, and a face off the die is refused by the roll)."""
    items: list[str] = text.replace(",", " ").split()
    if not all(_FACE.fullmatch(item) for item in items):
        raise UnreadableDice(text=text)
    try:
        return tuple(int(item) for item in items)
    except ValueError as error:  # more digits than Python reads as a number
        raise UnreadableDice(text=text) from error
