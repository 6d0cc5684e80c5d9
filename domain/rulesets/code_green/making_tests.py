"""Making Tests: a test declared with a pair of traits (or none applicable), the Assistance
friends give it, its roll, and the Adapting that must follow it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource, PoolMode, roll_pool
from domain.errors import EmptyText
from domain.plain import Plain
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.character import Assist, CgCharacter, OpenTest
from domain.rulesets.code_green.checks import (
    check_adaptation,
    check_assist_applicable,
    check_can_assist,
    check_can_test,
    check_helper,
    check_move,
    check_no_other_open_test,
)
from domain.rulesets.code_green.events import (
    AdaptationImpossible,
    Adapted,
    AssistanceGiven,
    AssistanceReceived,
    AssistanceRejected,
    TestDeclared,
    TestRolled,
)
from domain.rulesets.code_green.lookup import character, parse_square
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import Band, Table, band_for, consulted_squares, find_trait


def roster(view: View) -> Iterator[CgCharacter]:
    for entry in view.campaign.roster:
        c: CgCharacter = view.character(entry.character_id)
        yield c


def open_test_holder(view: View) -> CgCharacter | None:
    return next((c for c in roster(view) if c.test is not None and not c.test.rolled), None)


def awaiting_roll(view: View) -> tuple[CgCharacter, OpenTest]:
    """The scene's declared test that assists may still join (the assist window: until the roll)."""
    tester = open_test_holder(view)
    if tester is None or tester.test is None:
        rolled = next((c for c in roster(view) if c.adaptation_pending), None)
        if rolled is not None and rolled.test is not None:
            raise errors.TestAlreadyRolled(name=rolled.name, test=rolled.test.number)
        raise errors.NoOpenTest(who=errors.ANYONE)
    return tester, tester.test


def check_unrolled(c: CgCharacter) -> OpenTest:
    """The character's declared test, not rolled yet (what ``roll`` rolls)."""
    test = c.test
    if test is None:
        raise errors.NoOpenTest(who=c.name)
    if test.rolled:
        raise errors.TestAlreadyRolled(name=c.name, test=test.number)
    return test


def check_can_declare(view: View, c: CgCharacter) -> None:
    """What refuses ``c`` a new test, whatever its pair: no scene, the character's state, a
    test open in the scene."""
    view.campaign.require_scene()
    check_can_test(c)
    check_no_other_open_test(c, roster(view))


def check_may_assist(view: View, helper: CgCharacter) -> tuple[CgCharacter, OpenTest]:
    """What refuses ``helper`` an assist, whatever its square: no test waiting for its roll,
    the test its own, the helper out of the scene, or it has assisted it already."""
    view.campaign.require_scene()
    tester, test = awaiting_roll(view)
    if tester.id == helper.id:
        raise errors.CannotAssistOwnTest(name=helper.name)
    check_helper(helper)
    if any(a.helper == helper.id for a in test.assists):
        raise errors.AlreadyAssistedThisTest(name=helper.name)
    return tester, test


def check_assisted(view: View, helper: CgCharacter) -> tuple[CgCharacter, OpenTest, Assist]:
    """The assist ``helper`` gave the test waiting for its roll (what the GM may rule out)."""
    view.campaign.require_scene()
    tester, test = awaiting_roll(view)
    given = next((a for a in test.assists if a.helper == helper.id), None)
    if given is None:
        raise errors.NoAssistToReject(name=helper.name, test=test.number)
    return tester, test, given


def _roll(c: CgCharacter, dice: DiceSource) -> TestRolled:
    test = check_unrolled(c)
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


@frozen(kw_only=True)
class DeclareTest(Plain):
    """Declare a test with one Form and one Function trait; friends may then assist. The pool
    is the tokens in the Form trait's row and the Function trait's column (the square where they
    cross counts once), plus one die per assisting friend; when no pair applies, neither trait
    is named and the pool is the assist dice alone. It is rolled later, or at once in the same
    ruling (then no assistance is possible)."""

    name: ClassVar[str] = "test"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str
    form: str | None
    function: str | None
    roll: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        check_can_declare(view, c)
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


@frozen(kw_only=True)
class AssistTest(Plain):
    """Hand one die to the declared test, using the pair under one of the helper's tokens."""

    name: ClassVar[str] = "assist"
    helper: str
    square: str
    justification: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        helper = character(view, self.helper)
        tester, test = awaiting_roll(view)
        if tester.id == helper.id:
            raise errors.CannotAssistOwnTest(name=helper.name)
        square = parse_square(helper, self.square)
        check_can_assist(helper, square)
        form, function = helper.pair(square)
        assist = Assist(helper=helper.id, square=square)
        check_assist_applicable(test, assist, helper.name, f"{function} {form}")
        check_may_assist(view, helper)  # the same checks, and one assist a helper a test
        why = self.justification.strip()
        if not why:
            raise EmptyText(what="the explanation of how the helper's pair helps")
        number = test.number
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


@frozen(kw_only=True)
class RejectAssist(Plain):
    """The GM rules a helper's pair not applicable to the declared test: its die is taken back.
    Before the roll only; that pair may not assist this test again (another pair under one of
    the helper's tokens may)."""

    name: ClassVar[str] = "reject-assist"
    helper: str
    reason: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        helper = character(view, self.helper)
        tester, test, given = check_assisted(view, helper)
        why = self.reason.strip()
        if not why:
            raise EmptyText(what="the reason the pair does not apply")
        form, function = helper.pair(given.square)
        rejected = AssistanceRejected(
            test=test.number,
            helper=helper.id,
            helper_name=helper.name,
            square=given.square,
            form=form,
            function=function,
            reason=why,
        )
        return (Change(tester.id, rejected),)


@frozen(kw_only=True)
class RollTest(Plain):
    """Roll the declared test's pool (the character's, or whichever test is waiting). The
    highest die counts; a pool of zero rolls two dice and keeps the lowest."""

    name: ClassVar[str] = "roll"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    character: str | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        if self.character is None:
            c = open_test_holder(view)
            if c is None:
                raise errors.NoOpenTest(who=errors.ANYONE)
        else:
            c = character(view, self.character)
        return (Change(c.id, _roll(c, dice)),)


@frozen(kw_only=True)
class Adapt(Plain):
    """After every test, move one token from its square to a different free one. With no
    squares, record that no token can move (only when that is true)."""

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
            example = " ".join(moves[0])  # moves is not empty: see above
            raise errors.AdaptationChoiceRequired(name=c.name, example=example)
        source = parse_square(c, self.source)
        destination = parse_square(c, self.destination)
        check_move(c, source, destination)
        return (Change(c.id, Adapted(test=test.number, source=source, destination=destination)),)
