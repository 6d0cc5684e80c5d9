"""Replaying a Code Green character from its events (strict: a misfit raises)."""

from __future__ import annotations

from functools import singledispatch

from attrs import evolve as replace

from domain.errors import ReplayMismatch
from domain.events import Event, RulingRetracted
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.character import Assist, CgCharacter, OpenTest
from domain.rulesets.code_green.checks import (
    check_adaptation,
    check_assist_applicable,
    check_can_assist,
    check_can_test,
    check_d66,
    check_destination,
    check_move,
    check_new_name,
    check_no_displacement,
    check_open_test,
    check_square_rolled,
    check_test_resolved,
    check_trait_rolled,
)
from domain.rulesets.code_green.events import (
    AdaptationImpossible,
    Adapted,
    AssistanceGiven,
    AssistanceReceived,
    AssistanceRejected,
    CharacterCreated,
    CharacterRenamed,
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
from domain.rulesets.code_green.tables import TOKENS, Square

# --- Replay -----------------------------------------------------------------------------------


@singledispatch
def evolve(event: Event, state: CgCharacter | None) -> CgCharacter | None:
    """Apply one event. Raises a DomainError when the event does not fit the state."""
    raise TypeError(f"no Code Green rule for {type(event).__name__}")


def _c(state: CgCharacter | None) -> CgCharacter:
    if state is None:
        raise ReplayMismatch("a character stream must start with CharacterCreated")
    return state


@evolve.register(NameRolled)
@evolve.register(RulingRetracted)
def _audit_only(event: Event, state: CgCharacter | None) -> CgCharacter | None:
    return state


@evolve.register(TraitRolled)
def _trait_rolled(event: TraitRolled, state: CgCharacter | None) -> CgCharacter | None:
    check_trait_rolled(event.table, event.d66, event.trait)
    return state


@evolve.register(CharacterCreated)
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


@evolve.register(TokenPlaced)
def _placed(event: TokenPlaced, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if c.placed:
        raise errors.TokensAlreadyPlaced(name=c.name)
    if event.square in c.marks:
        raise errors.SquareMarked(square=event.square)
    if event.square in c.tokens:
        raise errors.DuplicateSquare(square=event.square)
    for value in event.attempts:
        check_d66(value)
    if event.rolled:
        if not event.attempts:
            raise ReplayMismatch("a rolled token records the d66 it was placed by")
        check_square_rolled(event.attempts[-1], event.square)
    return replace(c, tokens=c.tokens | {event.square})


@evolve.register(InitialTokensPlaced)
def _all_placed(event: InitialTokensPlaced, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if c.placed or c.tokens != frozenset(event.squares):
        raise errors.TokensAlreadyPlaced(name=c.name)
    return replace(c, placed=True)


@evolve.register(TestDeclared)
def _declared(event: TestDeclared, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_can_test(c)
    if event.test != c.tests + 1 or len(c.tokens & set(event.consulted)) != event.own_tokens:
        raise ReplayMismatch("the declared pool does not match the tokens on the grid")
    test = OpenTest(
        number=event.test, form=event.form, function=event.function, own_tokens=event.own_tokens
    )
    return replace(c, test=test, tests=event.test)


@evolve.register(CharacterRenamed)
def _renamed(event: CharacterRenamed, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if event.previous != c.name:
        raise ReplayMismatch(f"{c.name} was renamed from {event.previous!r}")
    check_new_name(c, event.name)
    return replace(c, name=event.name)


@evolve.register(AssistanceReceived)
def _assisted(event: AssistanceReceived, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    test = check_open_test(c, event.test)
    assist = Assist(helper=event.helper, square=event.square)
    pair = f"{event.function} {event.form}"
    check_assist_applicable(test, assist, event.helper_name, pair)
    if any(a.helper == event.helper for a in test.assists):
        raise errors.AlreadyAssistedThisTest(name=event.helper_name)
    return replace(c, test=replace(test, assists=(*test.assists, assist)))


@evolve.register(AssistanceRejected)
def _rejected(event: AssistanceRejected, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    test = check_open_test(c, event.test)
    assist = Assist(helper=event.helper, square=event.square)
    if assist not in test.assists:
        raise errors.NoAssistToReject(name=event.helper_name, test=event.test)
    assists = tuple(a for a in test.assists if a != assist)
    ruled_out = (*test.ruled_out, assist)
    return replace(c, test=replace(test, assists=assists, ruled_out=ruled_out))


@evolve.register(AssistanceGiven)
def _assisting(event: AssistanceGiven, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_can_assist(c, event.square)
    return c


@evolve.register(TestRolled)
def _rolled(event: TestRolled, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    test = check_open_test(c, event.test)
    if event.pool != test.pool:
        raise ReplayMismatch(f"pool {event.pool} recorded, {test.pool} dice were due")
    return replace(c, test=replace(test, rolled=True))


@evolve.register(StrainRolled)
def _strain_rolled(event: StrainRolled, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_square_rolled(event.d66, event.square)
    if c.incapacitated:
        raise errors.AlreadyIncapacitated(name=c.name)
    check_no_displacement(c)
    if event.test is None:
        return c
    test = check_adaptation(c)
    return replace(c, test=replace(test, strains=test.strains + 1))


@evolve.register(StrainSuffered)
def _strained(event: StrainSuffered, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if event.square in c.marks:
        raise ReplayMismatch(f"{event.square} is marked already")
    marks = c.marks | {event.square}
    displaced = event.square in c.tokens and len(Square) - len(marks) >= TOKENS
    return replace(c, marks=marks, displacement=event.square if displaced else None)


@evolve.register(TokenDisplaced)
def _displaced(event: TokenDisplaced, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if c.displacement != event.source:
        raise errors.NoDisplacementPending(name=c.name)
    check_destination(c, event.destination)
    tokens = (c.tokens - {event.source}) | {event.destination}
    return replace(c, tokens=tokens, displacement=None)


@evolve.register(TokenRemoved)
def _removed(event: TokenRemoved, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if event.square not in c.tokens:
        raise errors.NoTokenAtSource(name=c.name, square=event.square)
    return replace(c, tokens=c.tokens - {event.square})


@evolve.register(Incapacitated)
def _incapacitated(event: Incapacitated, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if event.square not in c.marks:
        raise ReplayMismatch(f"{event.square} was not marked")
    return replace(c, incapacitated=True)


@evolve.register(Adapted)
def _adapted(event: Adapted, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_adaptation(c)
    check_move(c, event.source, event.destination)
    tokens = (c.tokens - {event.source}) | {event.destination}
    return replace(c, tokens=tokens, test=None)


@evolve.register(AdaptationImpossible)
def _stuck(event: AdaptationImpossible, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_adaptation(c)
    if c.legal_moves():
        raise ReplayMismatch("a token could have moved")
    return replace(c, test=None)


@evolve.register(StrainMarksCleared)
def _cleared(event: StrainMarksCleared, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    return replace(c, marks=c.marks - set(event.squares))


@evolve.register(TokensReturned)
def _returned(event: TokensReturned, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    check_test_resolved(c)
    return replace(c, tokens=frozenset(), placed=False)


@evolve.register(Recovered)
def _recovered(event: Recovered, state: CgCharacter | None) -> CgCharacter:
    c = _c(state)
    if not c.incapacitated:
        raise errors.NotIncapacitated(name=c.name)
    return replace(c, incapacitated=False)
