"""A Code Green character replayed from its events, and the checks replay shares with commands."""

from __future__ import annotations

from functools import singledispatch
from uuid import UUID

from attrs import evolve as replace
from attrs import frozen

from domain.errors import ReplayMismatch
from domain.events import Event, RulingRetracted
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.events import (
    AdaptationImpossible,
    Adapted,
    AssistanceGiven,
    AssistanceReceived,
    CharacterCreated,
    Incapacitated,
    InitialTokensPlaced,
    NameRolled,
    Recovered,
    StrainMarksCleared,
    StrainRolled,
    StrainSuffered,
    TestDeclared,
    TestRolled,
    TokenDisplaced,
    TokenPlaced,
    TokenRemoved,
    TokensReturned,
    TraitRolled,
)
from domain.rulesets.code_green.tables import Form, Function, Square, square_at


@frozen(kw_only=True)
class Assist:
    helper: UUID
    square: Square


@frozen(kw_only=True)
class OpenTest:
    """The character's current test, from declaration until it has adapted."""

    number: int
    form: Form | None
    function: Function | None
    own_tokens: int
    assists: tuple[Assist, ...] = ()
    rolled: bool = False
    strains: int = 0

    @property
    def pool(self) -> int:
        return self.own_tokens + len(self.assists)


@frozen(kw_only=True)
class CgCharacter:
    id: UUID
    name: str
    player: str
    form: tuple[Form, ...]
    function: tuple[Function, ...]
    tokens: frozenset[Square] = frozenset()
    marks: frozenset[Square] = frozenset()
    placed: bool = False
    incapacitated: bool = False
    test: OpenTest | None = None
    tests: int = 0
    displacement: Square | None = None

    @property
    def adaptation_pending(self) -> bool:
        return self.test is not None and self.test.rolled

    def pair(self, square: Square) -> tuple[Form, Function]:
        return self.form[square.row - 1], self.function[square.column - 1]

    def square_of(self, form: Form, function: Function) -> Square:
        return square_at(self.form.index(form) + 1, self.function.index(function) + 1)

    def free_squares(self) -> tuple[Square, ...]:
        """Squares a token may move to: no token and no strain mark."""
        return tuple(s for s in Square if s not in self.tokens and s not in self.marks)

    def legal_moves(self) -> tuple[tuple[Square, Square], ...]:
        return tuple((a, b) for a in sorted(self.tokens) for b in self.free_squares())


# --- Checks used to refuse commands and to detect histories that do not fit -------------------


def check_no_displacement(c: CgCharacter) -> None:
    if c.displacement is not None:
        raise errors.DisplacementPending(name=c.name, square=c.displacement)


def check_can_test(c: CgCharacter) -> None:
    if c.incapacitated:
        raise errors.CharacterIncapacitated(name=c.name)
    check_no_displacement(c)
    if c.test is not None:
        if c.test.rolled:
            raise errors.AdaptationPending(name=c.name, test=c.test.number)
        raise errors.AnotherTestOpen(name=c.name, test=c.test.number)
    if not c.placed:
        raise errors.TokensNotPlaced(name=c.name)


def check_destination(c: CgCharacter, square: Square) -> None:
    if square in c.marks:
        raise errors.DestinationMarked(square=square)
    if square in c.tokens:
        raise errors.DestinationOccupied(square=square)


def check_open_test(c: CgCharacter, number: int) -> OpenTest:
    if c.test is None or c.test.number != number:
        raise errors.NoOpenTest(who=c.name)
    if c.test.rolled:
        raise errors.TestAlreadyRolled(name=c.name, test=number)
    return c.test


def check_can_assist(helper: CgCharacter, square: Square) -> None:
    if helper.incapacitated:
        raise errors.HelperIncapacitated(name=helper.name)
    if not helper.placed:
        raise errors.HelperNotInScene(name=helper.name)
    if square not in helper.tokens:
        form, function = helper.pair(square)
        raise errors.NoTokenOnSquare(name=helper.name, square=square, pair=f"{function} {form}")


def check_adaptation(c: CgCharacter) -> OpenTest:
    check_no_displacement(c)
    if c.test is None or not c.test.rolled:
        raise errors.NoPendingAdaptation(name=c.name)
    return c.test


def check_move(c: CgCharacter, source: Square, destination: Square) -> None:
    if source not in c.tokens:
        raise errors.NoTokenAtSource(name=c.name, square=source)
    if source == destination:
        raise errors.MustMoveToDifferentSquare(square=source)
    check_destination(c, destination)


# Events that only happen inside a running scene: undoing the scene's start takes them along.
SCENE_BOUND: tuple[type[Event], ...] = (
    TokenPlaced,
    InitialTokensPlaced,
    TestDeclared,
    AssistanceReceived,
    AssistanceGiven,
    TestRolled,
    StrainRolled,
    StrainSuffered,
    TokenDisplaced,
    TokenRemoved,
    Incapacitated,
    Adapted,
    AdaptationImpossible,
)


# --- Replay -----------------------------------------------------------------------------------


@singledispatch
def evolve(event: Event, state: CgCharacter | None) -> CgCharacter | None:
    """Apply one event. Raises a DomainError when the event does not fit the state."""
    raise TypeError(f"no Code Green rule for {type(event).__name__}")


def _c(state: CgCharacter | None) -> CgCharacter:
    if state is None:
        raise ReplayMismatch("a character stream must start with CharacterCreated")
    return state


@evolve.register(TraitRolled)
@evolve.register(NameRolled)
@evolve.register(RulingRetracted)
def _audit_only(event: Event, state: CgCharacter | None) -> CgCharacter | None:
    return state


@evolve.register
def _created(event: CharacterCreated, state: CgCharacter | None) -> CgCharacter:
    if state is not None:
        raise ReplayMismatch("a character is created once")
    return CgCharacter(
        id=event.character_id,
        name=event.name,
        player=event.player,
        form=event.form,
        function=event.function,
    )


@evolve.register
def _placed(event: TokenPlaced, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if c.placed:
        raise errors.TokensAlreadyPlaced(name=c.name)
    if event.square in c.marks:
        raise errors.SquareMarked(square=event.square)
    if event.square in c.tokens:
        raise errors.DuplicateSquare(square=event.square)
    return replace(c, tokens=c.tokens | {event.square})


@evolve.register
def _all_placed(event: InitialTokensPlaced, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if c.placed or c.tokens != frozenset(event.squares):
        raise errors.TokensAlreadyPlaced(name=c.name)
    return replace(c, placed=True)


@evolve.register
def _declared(event: TestDeclared, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_can_test(c)
    if event.test != c.tests + 1 or len(c.tokens & set(event.consulted)) != event.own_tokens:
        raise ReplayMismatch("the declared pool does not match the tokens on the grid")
    test = OpenTest(
        number=event.test, form=event.form, function=event.function, own_tokens=event.own_tokens
    )
    return replace(c, test=test, tests=event.test)


@evolve.register
def _assisted(event: AssistanceReceived, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    test = check_open_test(c, event.test)
    if any(a.helper == event.helper for a in test.assists):
        raise errors.AlreadyAssistedThisTest(name=event.helper_name)
    assists = (*test.assists, Assist(helper=event.helper, square=event.square))
    return replace(c, test=replace(test, assists=assists))


@evolve.register
def _assisting(event: AssistanceGiven, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_can_assist(c, event.square)
    return c


@evolve.register
def _rolled(event: TestRolled, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    test = check_open_test(c, event.test)
    if event.pool != test.pool:
        raise ReplayMismatch(f"pool {event.pool} recorded, {test.pool} dice were due")
    return replace(c, test=replace(test, rolled=True))


@evolve.register
def _strain_rolled(event: StrainRolled, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if c.incapacitated:
        raise errors.AlreadyIncapacitated(name=c.name)
    check_no_displacement(c)
    if event.test is None:
        return c
    test = check_adaptation(c)
    return replace(c, test=replace(test, strains=test.strains + 1))


@evolve.register
def _strained(event: StrainSuffered, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if event.square in c.marks:
        raise ReplayMismatch(f"{event.square} is marked already")
    marks = c.marks | {event.square}
    displaced = event.square in c.tokens and len(Square) - len(marks) >= 3
    return replace(c, marks=marks, displacement=event.square if displaced else None)


@evolve.register
def _displaced(event: TokenDisplaced, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if c.displacement != event.source:
        raise errors.NoDisplacementPending(name=c.name)
    check_destination(c, event.destination)
    tokens = (c.tokens - {event.source}) | {event.destination}
    return replace(c, tokens=tokens, displacement=None)


@evolve.register
def _removed(event: TokenRemoved, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if event.square not in c.tokens:
        raise errors.NoTokenAtSource(name=c.name, square=event.square)
    return replace(c, tokens=c.tokens - {event.square})


@evolve.register
def _incapacitated(event: Incapacitated, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if event.square not in c.marks:
        raise ReplayMismatch(f"{event.square} was not marked")
    return replace(c, incapacitated=True)


@evolve.register
def _adapted(event: Adapted, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_adaptation(c)
    check_move(c, event.source, event.destination)
    tokens = (c.tokens - {event.source}) | {event.destination}
    return replace(c, tokens=tokens, test=None)


@evolve.register
def _stuck(event: AdaptationImpossible, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_adaptation(c)
    if c.legal_moves():
        raise ReplayMismatch("a token could have moved")
    return replace(c, test=None)


@evolve.register
def _cleared(event: StrainMarksCleared, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    return replace(c, marks=c.marks - set(event.squares))


def check_test_resolved(c: CgCharacter) -> None:
    """A scene cannot end on an open test: adapting is not optional."""
    if c.displacement is not None:
        raise errors.TestUnresolved(name=c.name, test=c.tests, what="a token must move")
    if c.test is not None:
        what = "adaptation pending" if c.test.rolled else "not rolled"
        raise errors.TestUnresolved(name=c.name, test=c.test.number, what=what)


@evolve.register
def _returned(event: TokensReturned, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_test_resolved(c)
    return replace(c, tokens=frozenset(), placed=False)


@evolve.register
def _recovered(event: Recovered, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if not c.incapacitated:
        raise errors.NotIncapacitated(name=c.name)
    return replace(c, incapacitated=False)
