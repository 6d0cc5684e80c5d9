"""Suffering Strain: the d66 a test's strain strikes, the token it displaces or removes, the
incapacitation a marked square brings, and recovering from it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource, d66
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.checks import (
    check_destination,
    check_displacement,
    check_incapacitated,
    check_no_displacement,
)
from domain.rulesets.code_green.events import (
    Incapacitated,
    Recovered,
    StrainRolled,
    StrainSuffered,
    TokenDisplaced,
    TokenRemoved,
)
from domain.rulesets.code_green.lookup import character, parse_square, settings
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import TOKENS, Square, square_for


def _displace(c: CgCharacter, destination: str) -> TokenDisplaced:
    source = check_displacement(c)
    square = parse_square(c, destination)
    check_destination(c, square)
    return TokenDisplaced(source=source, destination=square)


def strained_test(view: View, c: CgCharacter) -> int | None:
    """The test whose strain the GM may rule on ``c`` (None: environmental strain, where the
    house rules allow it), or what refuses strain whatever its options."""
    view.campaign.require_scene()
    if c.incapacitated:
        raise errors.AlreadyIncapacitated(name=c.name)
    check_no_displacement(c)
    test = c.test.number if c.adaptation_pending and c.test else None
    if test is None and not settings(view).environmental_strain:
        raise errors.NoTestForStrain(name=c.name)
    return test


@frozen(kw_only=True)
class SufferStrain(Plain):
    """The GM rules that the character's last test causes strain: roll d66 for the square
    struck. A square already marked incapacitates. A token struck moves to an empty unmarked
    square (its destination, given now or by displacing it later), or is removed when fewer
    than three unmarked squares remain. One strain a test (house rule maxStrainPerTest) unless
    the GM rules a most foolhardy effort."""

    name: ClassVar[str] = "strain"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    destination: str | None = None
    foolhardy: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        rules = settings(view)
        test = strained_test(view, c)
        if c.test is not None and test is not None:
            limit = rules.max_strain_per_test
            if limit and c.test.strains >= limit and not self.foolhardy:
                raise errors.StrainLimitReached(test=test, count=c.test.strains, limit=limit)
        value = d66(dice)
        square = square_for(value, rules.grid)
        events: list[Event] = [StrainRolled(test=test, d66=value, square=square)]
        if square in c.marks:
            events.append(Incapacitated(square=square, d66=value))
        else:
            events.append(StrainSuffered(square=square, marks=len(c.marks) + 1))
            if square in c.tokens:
                if len(Square) - (len(c.marks) + 1) < TOKENS:
                    events.append(TokenRemoved(square=square))
                elif self.destination is not None:
                    after: CgCharacter | None = c
                    for event in events:
                        after = evolve(event, after)
                    assert after is not None
                    events.append(_displace(after, self.destination))
        return tuple(Change(c.id, e) for e in events)


@frozen(kw_only=True)
class DisplaceToken(Plain):
    """Move the token strain struck to an empty, unmarked square of the player's choice."""

    name: ClassVar[str] = "displace"
    character: str
    destination: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        return (Change(c.id, _displace(c, self.destination)),)


@frozen(kw_only=True)
class Recover(Plain):
    """The GM rules that an incapacitated character recovers."""

    name: ClassVar[str] = "recover"
    character: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_incapacitated(c)
        return (Change(c.id, Recovered(reason="GM ruling")),)
