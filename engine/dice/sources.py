"""Dice sources that draw numbers: seeded (reproducible) and the operating system's randomness."""

from __future__ import annotations

import random
import secrets

from attrs import field, frozen

from domain.dice import DiceSource, EnteredDice, Provenance
from domain.errors import DomainError, ErrorKind
from domain.plain import Plain


class ConflictingDiceOptions(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "give either --dice (faces rolled at the table) or --seed (digital dice), not both"


@frozen
class SeededDice(Plain):
    """Reproducible digital dice: the same seed gives the same faces."""

    seed: int
    _rng: random.Random = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_rng", random.Random(self.seed))

    def roll(self, sides: int) -> int:
        return self._rng.randint(1, sides)


class SystemDice:
    """The operating system's randomness, without modulo bias (``secrets.randbelow``)."""

    def roll(self, sides: int) -> int:
        return secrets.randbelow(sides) + 1


@frozen
class DiceSpec(Plain):
    """How a command gets its dice; ``fresh`` gives a new source for each attempt of a ruling."""

    faces: tuple[int, ...] | None = None
    seed: int | None = None

    def __attrs_post_init__(self) -> None:
        if self.faces is not None and self.seed is not None:
            raise ConflictingDiceOptions()

    @property
    def given(self) -> str | None:
        """What was given instead of digital dice drawn by the store, in words (None: nothing;
        no faces at all are nothing either: they can roll no die)."""
        if self.faces:
            return "faces typed in (--dice)"
        return "a seed (--seed)" if self.seed is not None else None

    @property
    def provenance(self) -> Provenance:
        if self.faces is not None:
            return Provenance.PHYSICAL
        return Provenance.SEEDED if self.seed is not None else Provenance.SYSTEM

    def fresh(self) -> DiceSource:
        if self.faces is not None:
            return EnteredDice(self.faces)
        if self.seed is not None:
            return SeededDice(self.seed)
        return SystemDice()
