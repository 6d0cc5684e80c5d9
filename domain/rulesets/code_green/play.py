"""Playing a scene: tests, assistance, strain, displacement, adaptation and recovery."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource, PoolMode, d66, roll_pool
from domain.errors import EmptyText
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.checks import (
    check_adaptation,
    check_can_assist,
    check_can_test,
    check_destination,
    check_move,
    check_no_displacement,
)
from domain.rulesets.code_green.events import (
    AdaptationImpossible,
    Adapted,
    AssistanceGiven,
    AssistanceReceived,
    Incapacitated,
    Recovered,
    StrainRolled,
    StrainSuffered,
    TestDeclared,
    TestRolled,
    TokenDisplaced,
    TokenRemoved,
)
from domain.rulesets.code_green.lookup import character, parse_square, settings
from domain.rulesets.code_green.state import CgCharacter, evolve
from domain.rulesets.code_green.tables import (
    Band,
    Square,
    Table,
    band_for,
    consulted_squares,
    find_trait,
    square_for,
)

# --- Tests and assistance -----------------------------------------------------------------------


def _open_test_holder(view: View) -> CgCharacter | None:
    for entry in view.campaign.roster:
        c: CgCharacter = view.character(entry.character_id)
        if c.test is not None and not c.test.rolled:
            return c
    return None


def _rolled_test_holder(view: View) -> CgCharacter | None:
    for entry in view.campaign.roster:
        c: CgCharacter = view.character(entry.character_id)
        if c.adaptation_pending:
            return c
    return None


def _roll(c: CgCharacter, dice: DiceSource) -> TestRolled:
    test = c.test
    if test is None:
        raise errors.NoOpenTest(who=c.name)
    if test.rolled:
        raise errors.TestAlreadyRolled(name=c.name, test=test.number)
    if test.form is None and not test.assists:
        return TestRolled(
            test=test.number,
            pool=0,
            mode=PoolMode.NO_ROLL,
            dice=(),
            result=None,
            band=Band.LESS_THAN_HUMAN,
        )
    pool = roll_pool(dice, test.pool)
    return TestRolled(
        test=test.number,
        pool=test.pool,
        mode=pool.mode,
        dice=pool.faces,
        result=pool.result,
        band=band_for(pool.result),
    )


@frozen
class DeclareTest(Plain):
    """Declare a test with a Form and a Function trait (both None: no applicable pair).

    With ``roll`` the pool is rolled at once, in the same ruling (no assistance possible)."""

    name: ClassVar[str] = "test"
    character: str
    form: str | None
    function: str | None
    roll: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        check_can_test(c)
        other = _open_test_holder(view)
        if other is not None and other.test is not None:
            raise errors.AnotherTestOpen(name=other.name, test=other.test.number)
        declared = self._declaration(c)
        events: list[TestDeclared | TestRolled] = [declared]
        if self.roll:
            after = evolve(declared, c)
            events.append(_roll(after, dice))  # type: ignore[arg-type]
        return tuple(Change(c.id, e) for e in events)

    def _declaration(self, c: CgCharacter) -> TestDeclared:
        if self.form is None and self.function is None:
            return TestDeclared(
                test=c.tests + 1, form=None, function=None, consulted=(), own_tokens=0
            )
        given = f"{self.form or '-'} and {self.function or '-'}"
        if self.form is None or self.function is None:
            raise errors.PairMustBeFormAndFunction(given=given)
        form = find_trait(Table.FORM, self.form)
        function = find_trait(Table.FUNCTION, self.function)
        if form is None and function is None:
            # Given the other way round (Function first)?
            form = find_trait(Table.FORM, self.function)
            function = find_trait(Table.FUNCTION, self.form)
        if form is None or function is None:
            raise errors.PairMustBeFormAndFunction(given=given)
        if form not in c.form:
            own = ", ".join(c.form)
            raise errors.TraitNotOnSheet(name=c.name, table=Table.FORM, trait=form, own=own)
        if function not in c.function:
            own = ", ".join(c.function)
            raise errors.TraitNotOnSheet(name=c.name, table=Table.FUNCTION, trait=function, own=own)
        square = c.square_of(form, function)  # type: ignore[arg-type]
        consulted = consulted_squares(square.row, square.column)
        return TestDeclared(
            test=c.tests + 1,
            form=form,  # type: ignore[arg-type]
            function=function,  # type: ignore[arg-type]
            consulted=consulted,
            own_tokens=len(c.tokens & set(consulted)),
        )


@frozen
class AssistTest(Plain):
    """Hand one die to the declared test, using the pair under one of the helper's tokens."""

    name: ClassVar[str] = "assist"
    helper: str
    square: str
    justification: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        helper = character(view, self.helper)
        tester = _open_test_holder(view)
        if tester is None or tester.test is None:
            rolled = _rolled_test_holder(view)
            if rolled is not None and rolled.test is not None:
                raise errors.TestAlreadyRolled(name=rolled.name, test=rolled.test.number)
            raise errors.NoOpenTest(who="nobody")
        if tester.id == helper.id:
            raise errors.CannotAssistOwnTest(name=helper.name)
        square = parse_square(helper, self.square)
        check_can_assist(helper, square)
        if any(a.helper == helper.id for a in tester.test.assists):
            raise errors.AlreadyAssistedThisTest(name=helper.name)
        why = self.justification.strip()
        if not why:
            raise EmptyText(what="the explanation of how the helper's pair helps")
        form, function = helper.pair(square)
        number = tester.test.number
        received = AssistanceReceived(
            test=number,
            helper=helper.id,
            helper_name=helper.name,
            square=square,
            form=form,
            function=function,
            justification=why,
        )
        given = AssistanceGiven(
            tester=tester.id,
            tester_name=tester.name,
            test=number,
            square=square,
            form=form,
            function=function,
            justification=why,
        )
        return (Change(tester.id, received), Change(helper.id, given))


@frozen
class RollTest(Plain):
    """Roll the declared test's pool (the character's, or whichever test is waiting)."""

    name: ClassVar[str] = "roll"
    character: str | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        if self.character is None:
            c = _open_test_holder(view)
            if c is None:
                raise errors.NoOpenTest(who="nobody")
        else:
            c = character(view, self.character)
        return (Change(c.id, _roll(c, dice)),)


# --- Strain, displacement, adaptation, recovery ----------------------------------------------


def _displace(c: CgCharacter, destination: str) -> TokenDisplaced:
    if c.displacement is None:
        raise errors.NoDisplacementPending(name=c.name)
    square = parse_square(c, destination)
    check_destination(c, square)
    return TokenDisplaced(source=c.displacement, destination=square)


@frozen
class SufferStrain(Plain):
    """The GM rules that the character's last test causes strain: roll d66 for the square struck.

    ``destination`` (optional) is where a struck token goes, if it must move."""

    name: ClassVar[str] = "strain"
    character: str
    destination: str | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        rules = settings(view)
        if c.incapacitated:
            raise errors.AlreadyIncapacitated(name=c.name)
        check_no_displacement(c)
        test = c.test.number if c.adaptation_pending and c.test else None
        if test is None and not rules.environmental_strain:
            raise errors.NoTestForStrain(name=c.name)
        if c.test is not None and test is not None:
            limit = rules.max_strain_per_test
            if limit and c.test.strains >= limit:
                raise errors.StrainLimitReached(test=test, count=c.test.strains, limit=limit)
        value = d66(dice)
        square = square_for(value, rules.grid)
        events: list[Event] = [StrainRolled(test=test, d66=value, square=square)]
        if square in c.marks:
            events.append(Incapacitated(square=square, d66=value))
        else:
            events.append(StrainSuffered(square=square, marks=len(c.marks) + 1))
            if square in c.tokens:
                if len(Square) - (len(c.marks) + 1) < 3:
                    events.append(TokenRemoved(square=square))
                elif self.destination is not None:
                    after: CgCharacter | None = c
                    for event in events:
                        after = evolve(event, after)
                    assert after is not None
                    events.append(_displace(after, self.destination))
        return tuple(Change(c.id, e) for e in events)


@frozen
class DisplaceToken(Plain):
    """Move the token strain struck to an empty, unmarked square of the player's choice."""

    name: ClassVar[str] = "displace"
    character: str
    destination: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        return (Change(c.id, _displace(c, self.destination)),)


@frozen
class Adapt(Plain):
    """After a test, move one token to a different free square (no squares: nothing can move)."""

    name: ClassVar[str] = "adapt"
    character: str
    source: str | None = None
    destination: str | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        test = check_adaptation(c)
        moves = c.legal_moves()
        if not moves:
            # "... unless no valid destinations are available": the tokens stay where they are.
            reason = "no tokens" if not c.tokens else "no valid destination"
            return (Change(c.id, AdaptationImpossible(test=test.number, reason=reason)),)
        if self.source is None or self.destination is None:
            example = " ".join(moves[0]) if moves else "R1C1 R1C2"
            raise errors.AdaptationChoiceRequired(name=c.name, example=example)
        source = parse_square(c, self.source)
        destination = parse_square(c, self.destination)
        check_move(c, source, destination)
        return (Change(c.id, Adapted(test=test.number, source=source, destination=destination)),)


@frozen
class Recover(Plain):
    """The GM rules that an incapacitated character recovers."""

    name: ClassVar[str] = "recover"
    character: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        if not c.incapacitated:
            raise errors.NotIncapacitated(name=c.name)
        return (Change(c.id, Recovered(reason="GM ruling")),)
